-- Figures of the dashboard kept as learners move (docs/admin.md, "Dashboard"), so that its
-- answers read them instead of joining every learner to their progress, certificates and payments.
--
-- How far each learner went, for the funnel: three flags on their own row, recomputed for a
-- learner whenever a row that decides them is written, by whatever path (the app, an admin, a
-- job, SQL), in the same transaction; each trigger fires only for a row that can change them, and
-- a learner's row is written only when a flag changes. (Statuses are compared as text: on a new
-- database the enum's "refunded" is added in this same transaction.)
--
-- When a certificate's holder started the program, for the days to finish: taken from their
-- progress entry as the certificate is issued.
--
-- The flags of the learners there are already, and the start of the certificates there are, are
-- filled in batches by 0025, once this migration's exclusive lock on "users" is let go
-- (docs/operations.md, "Migrations").
ALTER TABLE "certificates" ADD COLUMN "started_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "funnel_started_beginner" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "funnel_finished_beginner" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "funnel_paid" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE FUNCTION "refresh_funnel"(learner text) RETURNS void LANGUAGE sql AS $$
  UPDATE "users" u SET "funnel_started_beginner" = f.started, "funnel_finished_beginner" = f.finished, "funnel_paid" = f.paid
  FROM (SELECT
      EXISTS (SELECT 1 FROM "user_progress" p
        WHERE p."user_id" = learner AND p."program_id" = 'beginner' AND p."started_at" IS NOT NULL) AS started,
      EXISTS (SELECT 1 FROM "certificates" c
        WHERE c."user_id" = learner AND c."program_id" = 'beginner' AND c."revoked_at" IS NULL) AS finished,
      EXISTS (SELECT 1 FROM "payments" m
        WHERE m."user_id" = learner AND m."status"::text IN ('success', 'refunded') AND m."paid_at" IS NOT NULL) AS paid) f
  WHERE u."id" = learner
    AND (u."funnel_started_beginner", u."funnel_finished_beginner", u."funnel_paid") IS DISTINCT FROM (f.started, f.finished, f.paid)
$$;--> statement-breakpoint
CREATE FUNCTION "funnel_row_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM "refresh_funnel"(OLD."user_id");
  END IF;
  IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW."user_id" IS DISTINCT FROM OLD."user_id") THEN
    PERFORM "refresh_funnel"(NEW."user_id");
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "user_progress_funnel_inserted" AFTER INSERT ON "user_progress" FOR EACH ROW
  WHEN (NEW."program_id" = 'beginner' AND NEW."started_at" IS NOT NULL) EXECUTE FUNCTION "funnel_row_changed"();--> statement-breakpoint
CREATE TRIGGER "user_progress_funnel_updated" AFTER UPDATE ON "user_progress" FOR EACH ROW
  WHEN ((OLD."program_id" = 'beginner' OR NEW."program_id" = 'beginner')
    AND (OLD."started_at" IS DISTINCT FROM NEW."started_at" OR OLD."program_id" IS DISTINCT FROM NEW."program_id"
      OR OLD."user_id" IS DISTINCT FROM NEW."user_id")) EXECUTE FUNCTION "funnel_row_changed"();--> statement-breakpoint
CREATE TRIGGER "user_progress_funnel_deleted" AFTER DELETE ON "user_progress" FOR EACH ROW
  WHEN (OLD."program_id" = 'beginner' AND OLD."started_at" IS NOT NULL) EXECUTE FUNCTION "funnel_row_changed"();--> statement-breakpoint
CREATE TRIGGER "certificates_funnel_inserted" AFTER INSERT ON "certificates" FOR EACH ROW
  WHEN (NEW."program_id" = 'beginner' AND NEW."revoked_at" IS NULL) EXECUTE FUNCTION "funnel_row_changed"();--> statement-breakpoint
CREATE TRIGGER "certificates_funnel_updated" AFTER UPDATE ON "certificates" FOR EACH ROW
  WHEN ((OLD."program_id" = 'beginner' OR NEW."program_id" = 'beginner')
    AND (OLD."revoked_at" IS DISTINCT FROM NEW."revoked_at" OR OLD."program_id" IS DISTINCT FROM NEW."program_id"
      OR OLD."user_id" IS DISTINCT FROM NEW."user_id")) EXECUTE FUNCTION "funnel_row_changed"();--> statement-breakpoint
CREATE TRIGGER "certificates_funnel_deleted" AFTER DELETE ON "certificates" FOR EACH ROW
  WHEN (OLD."program_id" = 'beginner' AND OLD."revoked_at" IS NULL) EXECUTE FUNCTION "funnel_row_changed"();--> statement-breakpoint
CREATE TRIGGER "payments_funnel_inserted" AFTER INSERT ON "payments" FOR EACH ROW
  WHEN (NEW."status"::text IN ('success', 'refunded') AND NEW."paid_at" IS NOT NULL) EXECUTE FUNCTION "funnel_row_changed"();--> statement-breakpoint
CREATE TRIGGER "payments_funnel_updated" AFTER UPDATE ON "payments" FOR EACH ROW
  WHEN (OLD."status" IS DISTINCT FROM NEW."status" OR OLD."paid_at" IS DISTINCT FROM NEW."paid_at"
    OR OLD."user_id" IS DISTINCT FROM NEW."user_id") EXECUTE FUNCTION "funnel_row_changed"();--> statement-breakpoint
CREATE TRIGGER "payments_funnel_deleted" AFTER DELETE ON "payments" FOR EACH ROW
  WHEN (OLD."status"::text IN ('success', 'refunded') AND OLD."paid_at" IS NOT NULL) EXECUTE FUNCTION "funnel_row_changed"();--> statement-breakpoint
-- Every learner's flags at once, by the one rule above: what a bulk load (scripts/seed-scale.ts,
-- with the triggers off) leaves.
CREATE FUNCTION "refresh_funnel_all"() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "refresh_funnel"(u."id") FROM "users" u;
END
$$;--> statement-breakpoint
CREATE FUNCTION "certificate_started_at"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT p."started_at" INTO NEW."started_at" FROM "user_progress" p
  WHERE p."user_id" = NEW."user_id" AND p."program_id" = NEW."program_id";
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "certificates_started_at" BEFORE INSERT ON "certificates" FOR EACH ROW
  WHEN (NEW."started_at" IS NULL AND NEW."user_id" IS NOT NULL) EXECUTE FUNCTION "certificate_started_at"();
