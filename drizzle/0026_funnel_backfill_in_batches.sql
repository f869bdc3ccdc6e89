-- no-transaction
-- The funnel flags of the learners who were there when 0015 added them, and the start of the
-- certificates issued before then: filled after 0015's exclusive lock on "users" is let go, 5,000
-- learners at a time, each batch committed (docs/operations.md, "Migrations"). On a database that
-- 0015 filled as it ran, before it was rewritten, this writes no row: refresh_funnel changes a
-- learner's row only when a flag is wrong. Every statement can run twice.
DO $$
DECLARE
  after_id text := '';
  batch text[];
BEGIN
  LOOP
    SELECT array_agg("id" ORDER BY "id") INTO batch
    FROM (SELECT "id" FROM "users" WHERE "id" > after_id ORDER BY "id" LIMIT 5000) next_learners;
    EXIT WHEN batch IS NULL;
    PERFORM "refresh_funnel"(learner) FROM unnest(batch) AS learner;
    after_id := batch[array_length(batch, 1)];
    COMMIT;
  END LOOP;
END
$$;--> statement-breakpoint
UPDATE "certificates" c SET "started_at" = p."started_at" FROM "user_progress" p
  WHERE p."user_id" = c."user_id" AND p."program_id" = c."program_id" AND c."started_at" IS NULL;
