-- Every instance keeps signed-in users' sessions and learning standing in memory; a change to any
-- of them, by whatever path (the auth library, an admin, a payment, a job, the CLI), announces the
-- user's id on the user_changed channel when its transaction commits, and every instance forgets
-- what it kept for that user (docs/performance.md, "Caching signed-in reads").
CREATE FUNCTION "notify_user_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('user_changed', TG_ARGV[1] || ':' || coalesce(to_jsonb(OLD) ->> TG_ARGV[0], ''));
  ELSE
    PERFORM pg_notify('user_changed', TG_ARGV[1] || ':' || coalesce(to_jsonb(NEW) ->> TG_ARGV[0], ''));
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "users_changed" AFTER UPDATE OR DELETE ON "users" FOR EACH ROW EXECUTE FUNCTION "notify_user_changed"('id', 'account');--> statement-breakpoint
CREATE TRIGGER "sessions_changed" AFTER UPDATE OR DELETE ON "sessions" FOR EACH ROW EXECUTE FUNCTION "notify_user_changed"('user_id', 'account');--> statement-breakpoint
CREATE TRIGGER "user_progress_changed" AFTER INSERT OR UPDATE OR DELETE ON "user_progress" FOR EACH ROW EXECUTE FUNCTION "notify_user_changed"('user_id', 'learning');--> statement-breakpoint
CREATE TRIGGER "quiz_attempts_changed" AFTER INSERT OR DELETE ON "quiz_attempts" FOR EACH ROW EXECUTE FUNCTION "notify_user_changed"('user_id', 'learning');--> statement-breakpoint
CREATE TRIGGER "certificates_changed" AFTER INSERT OR UPDATE OR DELETE ON "certificates" FOR EACH ROW EXECUTE FUNCTION "notify_user_changed"('user_id', 'learning');
