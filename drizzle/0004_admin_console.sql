-- Trigram matching for the admin console's search by a part of the email.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
DROP INDEX "users_email_search_idx";--> statement-breakpoint
CREATE INDEX "audit_log_actor_idx" ON "audit_log" USING btree ("actor_id");--> statement-breakpoint
CREATE INDEX "users_email_trgm_idx" ON "users" USING gin (lower("email") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_created_idx" ON "users" USING btree ("created_at" desc,"id" desc);--> statement-breakpoint
CREATE INDEX "waitlist_payment_reference_idx" ON "waitlist" USING btree ("payment_reference");