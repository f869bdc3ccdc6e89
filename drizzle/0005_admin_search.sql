-- no-transaction
-- The admin search reads email_search, lower(email) kept by a trigger as a row is written. (A
-- stored generated column would rewrite every learner's row under an exclusive lock; databases
-- that had one lose its expression in 0025, the trigger keeps it.) The column is added empty,
-- filled a few thousand rows at a time, then indexed concurrently (docs/operations.md,
-- "Migrations"); every statement can run twice.
DROP INDEX CONCURRENTLY IF EXISTS "users_email_trgm_idx";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN IF NOT EXISTS "email_search" text;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "users_email_search"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."email_search" := lower(NEW."email");
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE OR REPLACE TRIGGER "users_email_search" BEFORE INSERT OR UPDATE ON "users" FOR EACH ROW
  EXECUTE FUNCTION "users_email_search"();--> statement-breakpoint
DO $$
DECLARE
  filled integer;
BEGIN
  LOOP
    UPDATE "users" SET "email_search" = lower("email")
    WHERE "id" IN (SELECT "id" FROM "users" WHERE "email_search" IS NULL LIMIT 5000);
    GET DIAGNOSTICS filled = ROW_COUNT;
    EXIT WHEN filled = 0;
    COMMIT;
  END LOOP;
END
$$;--> statement-breakpoint
DROP INDEX CONCURRENTLY IF EXISTS "users_email_search_trgm_idx";--> statement-breakpoint
CREATE INDEX CONCURRENTLY "users_email_search_trgm_idx" ON "users" USING gin ("email_search" gin_trgm_ops);
