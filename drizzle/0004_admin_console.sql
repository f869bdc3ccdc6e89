-- no-transaction
-- Trigram matching for the admin console's search by a part of the email. Indexes are built
-- concurrently, each statement committed as it ends, so that learners' reads and writes go on
-- (docs/operations.md, "Migrations"); every statement can run twice.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
DROP INDEX CONCURRENTLY IF EXISTS "users_email_search_idx";--> statement-breakpoint
DROP INDEX CONCURRENTLY IF EXISTS "audit_log_actor_idx";--> statement-breakpoint
CREATE INDEX CONCURRENTLY "audit_log_actor_idx" ON "audit_log" USING btree ("actor_id");--> statement-breakpoint
DROP INDEX CONCURRENTLY IF EXISTS "users_email_trgm_idx";--> statement-breakpoint
CREATE INDEX CONCURRENTLY "users_email_trgm_idx" ON "users" USING gin (lower("email") gin_trgm_ops);--> statement-breakpoint
DROP INDEX CONCURRENTLY IF EXISTS "users_created_idx";--> statement-breakpoint
CREATE INDEX CONCURRENTLY "users_created_idx" ON "users" USING btree ("created_at" desc,"id" desc);--> statement-breakpoint
DROP INDEX CONCURRENTLY IF EXISTS "waitlist_payment_reference_idx";--> statement-breakpoint
CREATE INDEX CONCURRENTLY "waitlist_payment_reference_idx" ON "waitlist" USING btree ("payment_reference");
