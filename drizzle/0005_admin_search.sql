-- The admin search reads email_search, lower(email) stored when a row is written.
DROP INDEX "users_email_trgm_idx";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "email_search" text GENERATED ALWAYS AS (lower(email)) STORED;--> statement-breakpoint
CREATE INDEX "users_email_search_trgm_idx" ON "users" USING gin ("email_search" gin_trgm_ops);