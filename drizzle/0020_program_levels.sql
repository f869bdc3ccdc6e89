-- A program belongs to a level, which the plans open (docs/data.md, "Content"). The three
-- programs so far are the levels' own; a row made by hand with another id could never be opened,
-- so it is kept, archived, in Beginner for an administrator to decide on.
ALTER TABLE "programs" ADD COLUMN "level" text;--> statement-breakpoint
ALTER TABLE "programs" ADD COLUMN "archived_at" timestamp with time zone;--> statement-breakpoint
UPDATE "programs" SET "level" = CASE WHEN "id" IN ('intermediate', 'advanced') THEN "id" ELSE 'beginner' END;--> statement-breakpoint
UPDATE "programs" SET "archived_at" = now() WHERE "id" NOT IN ('beginner', 'intermediate', 'advanced');--> statement-breakpoint
ALTER TABLE "programs" ALTER COLUMN "level" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "programs" ADD CONSTRAINT "programs_level_known" CHECK ("programs"."level" in ('beginner', 'intermediate', 'advanced'));
