-- A database whose email_search was a stored generated column (0005 before it was rewritten to
-- spare "users" a rewrite under its exclusive lock) gets the plain column and the trigger that a
-- new database gets from 0005. Dropping the expression keeps the values and rewrites nothing.
ALTER TABLE "users" ALTER COLUMN "email_search" DROP EXPRESSION IF EXISTS;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "users_email_search"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."email_search" := lower(NEW."email");
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE OR REPLACE TRIGGER "users_email_search" BEFORE INSERT OR UPDATE ON "users" FOR EACH ROW
  EXECUTE FUNCTION "users_email_search"();
