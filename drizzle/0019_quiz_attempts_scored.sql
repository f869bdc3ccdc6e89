CREATE TABLE "quiz_sittings" (
	"user_id" text NOT NULL,
	"program_id" text NOT NULL,
	"number" integer NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"first_answers" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"answered_at" timestamp with time zone,
	CONSTRAINT "quiz_sittings_user_id_program_id_number_pk" PRIMARY KEY("user_id","program_id","number")
);
--> statement-breakpoint
DROP INDEX "quiz_attempts_question_idx";--> statement-breakpoint
ALTER TABLE "quiz_attempts" ADD COLUMN "attempt" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "quizzes" ADD COLUMN "retry_wait_minutes" integer DEFAULT 10 NOT NULL;--> statement-breakpoint
ALTER TABLE "quiz_sittings" ADD CONSTRAINT "quiz_sittings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quiz_sittings" ADD CONSTRAINT "quiz_sittings_program_id_programs_id_fk" FOREIGN KEY ("program_id") REFERENCES "public"."programs"("id") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
CREATE INDEX "quiz_attempts_attempt_question_idx" ON "quiz_attempts" USING btree ("user_id","program_id","attempt","question_index","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
-- Quiz attempts scored (docs/product.md, "Quiz attempts"; docs/data.md, "Learning"). The answers
-- stored before this migration become each learner's attempt 1, scored on their LATEST answer per
-- question: the standing they had the day before, so that nobody who met the old rule (a
-- certificate holder, or a learner owed one) loses the program's completion. Their attempt counts
-- as finished when it was, at the time of that latest answer, so a learner who did not pass may
-- start a new attempt at once.
INSERT INTO "quiz_sittings" ("user_id", "program_id", "number", "started_at", "first_answers", "answered_at")
SELECT latest.user_id, latest.program_id, 1,
  (SELECT min(qa.created_at) FROM quiz_attempts qa WHERE qa.user_id = latest.user_id AND qa.program_id = latest.program_id),
  jsonb_object_agg(latest.question_index::text, latest.correct), max(latest.created_at)
FROM (
  SELECT DISTINCT ON (qa.user_id, qa.program_id, qa.question_index) qa.user_id, qa.program_id, qa.question_index, qa.correct, qa.created_at
  FROM quiz_attempts qa
  ORDER BY qa.user_id, qa.program_id, qa.question_index, qa.created_at DESC, qa.id DESC
) AS latest
GROUP BY latest.user_id, latest.program_id
ON CONFLICT DO NOTHING;
--> statement-breakpoint
-- A new attempt written by the server is announced to the other instances as learning's other
-- tables are (migration 0009); the quiz answer's function announces its own writes (migration 0012).
CREATE TRIGGER "quiz_sittings_changed" AFTER INSERT OR UPDATE OR DELETE ON "quiz_sittings" FOR EACH ROW EXECUTE FUNCTION "notify_user_changed"('user_id', 'learning');
--> statement-breakpoint
-- The functions below answer one more column each, which CREATE OR REPLACE cannot do.
DROP FUNCTION "record_quiz_answers"(jsonb, bigint, integer, integer);
--> statement-breakpoint
DROP FUNCTION "record_quiz_answer"(text, text, text, integer, text, boolean, bigint, bigint, integer, integer);
--> statement-breakpoint
DROP FUNCTION "learner_standing"(text, text);
--> statement-breakpoint
-- As in migration 0012, with the attempts: `answers` are the latest answer per question in the
-- learner's current attempt (the one with the highest number; 1 before any), read as a skip scan of
-- quiz_attempts_attempt_question_idx, and `attempts` every attempt in order with its first answers
-- (times in epoch milliseconds), from which the server scores each (completion.ts).
CREATE FUNCTION "learner_standing"(p_user_id text, p_program_id text)
RETURNS TABLE (data jsonb, answers json, certificate_id text, attempts json) LANGUAGE sql STABLE AS $$
  SELECT
    (SELECT up.data FROM user_progress up WHERE up.user_id = p_user_id AND up.program_id = p_program_id),
    (WITH RECURSIVE latest AS (
        (SELECT qa.question_index, qa.option, qa.correct FROM quiz_attempts qa
          WHERE qa.user_id = p_user_id AND qa.program_id = p_program_id AND qa.attempt = cur.number
          ORDER BY qa.question_index, qa.created_at DESC, qa.id DESC LIMIT 1)
        UNION ALL
        SELECT next.* FROM latest, LATERAL (
          SELECT qa.question_index, qa.option, qa.correct FROM quiz_attempts qa
          WHERE qa.user_id = p_user_id AND qa.program_id = p_program_id AND qa.attempt = cur.number
            AND qa.question_index > latest.question_index
          ORDER BY qa.question_index, qa.created_at DESC, qa.id DESC LIMIT 1) AS next
      )
      SELECT coalesce(json_agg(json_build_object(
        'questionIndex', latest.question_index, 'option', latest.option, 'correct', latest.correct
      ) ORDER BY latest.question_index), '[]'::json) FROM latest),
    (SELECT c.id FROM certificates c
      WHERE c.user_id = p_user_id AND c.program_id = p_program_id AND c.revoked_at IS NULL LIMIT 1),
    (SELECT coalesce(json_agg(json_build_object(
        'number', s.number,
        'startedAt', (extract(epoch FROM s.started_at) * 1000)::bigint,
        'answeredAt', (extract(epoch FROM s.answered_at) * 1000)::bigint,
        'firstAnswers', s.first_answers
      ) ORDER BY s.number), '[]'::json)
      FROM quiz_sittings s WHERE s.user_id = p_user_id AND s.program_id = p_program_id)
  FROM (SELECT coalesce(max(s.number), 1) AS number FROM quiz_sittings s
    WHERE s.user_id = p_user_id AND s.program_id = p_program_id) AS cur
$$;
--> statement-breakpoint
-- As in migration 0012, scored by attempt: the answer belongs to the learner's current attempt
-- (attempt 1, created here, before any); when it is the attempt's first answer to the question
-- (first_answer), it is written into the attempt's first answers, which later answers leave alone.
-- The latest `kept` answers per attempt and question are kept. earlier is the latest answer to the
-- question in this attempt before this one; attempts is learner_standing's.
CREATE FUNCTION "record_quiz_answer"(
  p_user_id text, p_program_id text, p_module_id text, p_question_index integer, p_option text,
  p_correct boolean, p_now_ms bigint, p_window_ms bigint, p_per_window integer, p_kept integer
) RETURNS TABLE (
  outcome text, count integer, last_request bigint, earlier json, first_answer boolean, data jsonb,
  answers json, certificate_id text, attempts json
) LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  v_data jsonb;
  v_count integer;
  v_last bigint;
  v_earlier json;
  v_attempt integer;
  v_first boolean;
  v_now timestamptz := to_timestamp(p_now_ms / 1000.0);
  v_key text := 'quiz-answer:' || p_user_id || ':' || p_program_id || ':' || p_question_index;
BEGIN
  SELECT up.data INTO v_data FROM user_progress up
  WHERE up.user_id = p_user_id AND up.program_id = p_program_id FOR UPDATE;
  IF v_data IS NULL OR jsonb_typeof(v_data) <> 'object' OR (v_data -> p_module_id) IS DISTINCT FROM 'true'::jsonb THEN
    RETURN QUERY SELECT 'locked'::text, NULL::integer, NULL::bigint, NULL::json, NULL::boolean, NULL::jsonb, NULL::json, NULL::text, NULL::json;
    RETURN;
  END IF;
  -- A fixed window: its start moves only with the first answer after it ends.
  INSERT INTO rate_limits AS rl (id, key, count, last_request)
  VALUES (gen_random_uuid()::text, v_key, 1, p_now_ms)
  ON CONFLICT (key) DO UPDATE SET
    count = CASE WHEN rl.last_request <= p_now_ms - p_window_ms THEN 1 ELSE rl.count + 1 END,
    last_request = CASE WHEN rl.last_request <= p_now_ms - p_window_ms THEN p_now_ms ELSE rl.last_request END
  RETURNING rl.count, rl.last_request INTO v_count, v_last;
  IF v_count > p_per_window THEN
    RETURN QUERY SELECT 'refused'::text, v_count, v_last, NULL::json, NULL::boolean, NULL::jsonb, NULL::json, NULL::text, NULL::json;
    RETURN;
  END IF;
  SELECT s.number, NOT (s.first_answers ? p_question_index::text) INTO v_attempt, v_first
  FROM quiz_sittings s WHERE s.user_id = p_user_id AND s.program_id = p_program_id
  ORDER BY s.number DESC LIMIT 1;
  PERFORM set_config('academy.changes_announced', 'on', true);
  IF v_attempt IS NULL THEN
    v_attempt := 1;
    v_first := true;
    INSERT INTO quiz_sittings (user_id, program_id, number, started_at) VALUES (p_user_id, p_program_id, 1, v_now);
  END IF;
  IF v_first THEN
    UPDATE quiz_sittings s
    SET first_answers = s.first_answers || jsonb_build_object(p_question_index::text, p_correct), answered_at = v_now
    WHERE s.user_id = p_user_id AND s.program_id = p_program_id AND s.number = v_attempt;
  END IF;
  SELECT json_build_object('questionIndex', qa.question_index, 'option', qa.option, 'correct', qa.correct)
  INTO v_earlier FROM quiz_attempts qa
  WHERE qa.user_id = p_user_id AND qa.program_id = p_program_id AND qa.attempt = v_attempt
    AND qa.question_index = p_question_index
  ORDER BY qa.created_at DESC, qa.id DESC LIMIT 1;
  INSERT INTO quiz_attempts (user_id, program_id, attempt, question_index, option, correct)
  VALUES (p_user_id, p_program_id, v_attempt, p_question_index, p_option, p_correct);
  DELETE FROM quiz_attempts qa
  WHERE qa.user_id = p_user_id AND qa.program_id = p_program_id AND qa.attempt = v_attempt
    AND qa.question_index = p_question_index
    AND (qa.created_at, qa.id) < (
      SELECT last.created_at, last.id FROM quiz_attempts last
      WHERE last.user_id = p_user_id AND last.program_id = p_program_id AND last.attempt = v_attempt
        AND last.question_index = p_question_index
      ORDER BY last.created_at DESC, last.id DESC OFFSET p_kept - 1 LIMIT 1);
  PERFORM set_config('academy.changes_announced', 'off', true);
  RETURN QUERY SELECT 'recorded'::text, v_count, v_last, v_earlier, v_first, s.data, s.answers, s.certificate_id, s.attempts
    FROM learner_standing(p_user_id, p_program_id) s;
END
$$;
--> statement-breakpoint
-- As in migration 0014, answering record_quiz_answer's new columns.
CREATE FUNCTION "record_quiz_answers"(
  p_answers jsonb, p_window_ms bigint, p_per_window integer, p_kept integer
) RETURNS TABLE (
  ordinal integer, outcome text, count integer, last_request bigint, earlier json, first_answer boolean,
  data jsonb, answers json, certificate_id text, attempts json
) LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  v_answer record;
BEGIN
  FOR v_answer IN
    SELECT a.ordinality::integer AS ordinal, a.value AS answer
    FROM jsonb_array_elements(p_answers) WITH ORDINALITY AS a(value, ordinality)
    ORDER BY a.value ->> 'userId', a.value ->> 'programId', a.ordinality
  LOOP
    RETURN QUERY SELECT v_answer.ordinal, r.outcome, r.count, r.last_request, r.earlier, r.first_answer, r.data,
        r.answers, r.certificate_id, r.attempts
      FROM record_quiz_answer(
        v_answer.answer ->> 'userId', v_answer.answer ->> 'programId', v_answer.answer ->> 'moduleId',
        (v_answer.answer ->> 'questionIndex')::integer, v_answer.answer ->> 'option',
        (v_answer.answer ->> 'correct')::boolean, (v_answer.answer ->> 'nowMs')::bigint,
        p_window_ms, p_per_window, p_kept) AS r;
  END LOOP;
END
$$;
