-- Lessons with more than a video (docs/product.md, "Lesson notes" and "Attachments"): a lesson's
-- notes in Markdown and as rendered for learners, a video that may be absent when there are notes,
-- and the files a lesson offers, their bytes in the database unless an S3-compatible bucket keeps them.
CREATE TABLE "lesson_attachments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"module_id" uuid NOT NULL,
	"file_name" text NOT NULL,
	"content_type" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"sha256" text NOT NULL,
	"data" "bytea",
	"storage_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lesson_attachments_stored_once" CHECK (("lesson_attachments"."data" is null) <> ("lesson_attachments"."storage_key" is null))
);
--> statement-breakpoint
ALTER TABLE "modules" ALTER COLUMN "youtube_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "modules" ADD COLUMN "notes" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "modules" ADD COLUMN "notes_html" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "lesson_attachments" ADD CONSTRAINT "lesson_attachments_module_id_modules_id_fk" FOREIGN KEY ("module_id") REFERENCES "public"."modules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "lesson_attachments_module_idx" ON "lesson_attachments" USING btree ("module_id","created_at");--> statement-breakpoint
ALTER TABLE "modules" ADD CONSTRAINT "modules_video_or_notes" CHECK ("modules"."youtube_id" is not null or "modules"."notes" <> '');--> statement-breakpoint
-- PDFs, images and spreadsheets are compressed already: stored as they are, out of line.
ALTER TABLE "lesson_attachments" ALTER COLUMN "data" SET STORAGE EXTERNAL;
