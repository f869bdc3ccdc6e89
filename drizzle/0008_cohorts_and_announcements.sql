CREATE TYPE "public"."bulk_run_status" AS ENUM('running', 'done', 'failed');--> statement-breakpoint
CREATE TYPE "public"."delivery_status" AS ENUM('pending', 'sending', 'sent', 'failed');--> statement-breakpoint
CREATE TABLE "announcement_deliveries" (
	"announcement_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"email" text NOT NULL,
	"status" "delivery_status" DEFAULT 'pending' NOT NULL,
	"claimed_at" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"error" text,
	CONSTRAINT "announcement_deliveries_announcement_id_user_id_pk" PRIMARY KEY("announcement_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "announcement_unsubscribes" (
	"user_id" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "announcements" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"audience" jsonb NOT NULL,
	"actor_id" text,
	"status" "bulk_run_status" DEFAULT 'running' NOT NULL,
	"recipients" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "cohort_admissions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"cohort" text NOT NULL,
	"track" "paid_plan" NOT NULL,
	"actor_id" text,
	"status" "bulk_run_status" DEFAULT 'running' NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"admitted" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "cohorts" (
	"name" text PRIMARY KEY NOT NULL,
	"starts_on" date NOT NULL,
	"tracks" "paid_plan"[] DEFAULT '{intermediate,advanced}'::paid_plan[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "user_progress" ADD COLUMN "started_at" timestamp with time zone;--> statement-breakpoint
-- A program was started when something of it was first watched; for entries written before this
-- column, the last write is the best date known.
UPDATE "user_progress" SET "started_at" = "updated_at" WHERE jsonb_typeof("data") = 'object' AND "data" <> '{}'::jsonb;--> statement-breakpoint
-- Every cohort a waitlist place names becomes a cohort record, starting on the first of its month.
INSERT INTO "cohorts" ("name", "starts_on")
SELECT "cohort",
  CASE WHEN "cohort" ~ '^(January|April|July|October) [0-9]{4}$' THEN to_date("cohort", 'FMMonth YYYY') ELSE min("created_at")::date END
FROM "waitlist" GROUP BY "cohort"
ON CONFLICT DO NOTHING;--> statement-breakpoint
ALTER TABLE "announcement_deliveries" ADD CONSTRAINT "announcement_deliveries_announcement_id_announcements_id_fk" FOREIGN KEY ("announcement_id") REFERENCES "public"."announcements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "announcement_deliveries" ADD CONSTRAINT "announcement_deliveries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "announcement_unsubscribes" ADD CONSTRAINT "announcement_unsubscribes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "announcements" ADD CONSTRAINT "announcements_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cohort_admissions" ADD CONSTRAINT "cohort_admissions_cohort_cohorts_name_fk" FOREIGN KEY ("cohort") REFERENCES "public"."cohorts"("name") ON DELETE no action ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "cohort_admissions" ADD CONSTRAINT "cohort_admissions_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "announcement_deliveries_status_idx" ON "announcement_deliveries" USING btree ("announcement_id","status");--> statement-breakpoint
CREATE INDEX "announcements_created_idx" ON "announcements" USING btree ("created_at" desc);--> statement-breakpoint
CREATE UNIQUE INDEX "cohort_admissions_one_running_unique" ON "cohort_admissions" USING btree ("cohort","track") WHERE "cohort_admissions"."status" = 'running';--> statement-breakpoint
CREATE INDEX "cohort_admissions_created_idx" ON "cohort_admissions" USING btree ("created_at" desc);--> statement-breakpoint
ALTER TABLE "waitlist" ADD CONSTRAINT "waitlist_cohort_cohorts_name_fk" FOREIGN KEY ("cohort") REFERENCES "public"."cohorts"("name") ON DELETE no action ON UPDATE cascade;--> statement-breakpoint
CREATE INDEX "certificates_program_idx" ON "certificates" USING btree ("program_id","issued_at");--> statement-breakpoint
CREATE INDEX "payments_paid_idx" ON "payments" USING btree ("paid_at") WHERE "payments"."paid_at" is not null;--> statement-breakpoint
CREATE INDEX "refunds_processed_idx" ON "refunds" USING btree ("processed_at") WHERE "refunds"."status" = 'processed';--> statement-breakpoint
CREATE INDEX "user_progress_program_started_idx" ON "user_progress" USING btree ("program_id","started_at");--> statement-breakpoint
CREATE INDEX "waitlist_cohort_idx" ON "waitlist" USING btree ("cohort","plan","admitted");