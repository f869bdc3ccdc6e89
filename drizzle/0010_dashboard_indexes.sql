-- The dashboard's figures read from indexes alone where they can (docs/admin.md, "Dashboard"):
-- revenue sums payments by the day they were paid from payments_paid_idx, the funnel joins its
-- learners to who started Beginner and who paid through the two partial indexes.
DROP INDEX "user_progress_program_started_idx";--> statement-breakpoint
DROP INDEX "payments_paid_idx";--> statement-breakpoint
CREATE INDEX "payments_paid_user_idx" ON "payments" USING btree ("user_id","status") WHERE "payments"."paid_at" is not null;--> statement-breakpoint
CREATE INDEX "user_progress_started_idx" ON "user_progress" USING btree ("program_id","user_id") WHERE "user_progress"."started_at" is not null;--> statement-breakpoint
CREATE INDEX "payments_paid_idx" ON "payments" USING btree ("paid_at","status","currency","amount_minor") WHERE "payments"."paid_at" is not null;