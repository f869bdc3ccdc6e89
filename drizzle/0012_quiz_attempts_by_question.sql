DROP INDEX "quiz_attempts_user_program_idx";--> statement-breakpoint
CREATE INDEX "quiz_attempts_question_idx" ON "quiz_attempts" USING btree ("user_id","program_id","question_index","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
-- The latest answer per question, read as a skip scan of the index above: one probe per question
-- answered, newest first, instead of every kept attempt sorted (docs/performance.md, "Writes in one
-- round trip"). Same columns and meaning as in migration 0011.
CREATE OR REPLACE FUNCTION "learner_standing"(p_user_id text, p_program_id text)
RETURNS TABLE (data jsonb, answers json, certificate_id text) LANGUAGE sql STABLE AS $$
  SELECT
    (SELECT up.data FROM user_progress up WHERE up.user_id = p_user_id AND up.program_id = p_program_id),
    (WITH RECURSIVE latest AS (
        (SELECT qa.question_index, qa.option, qa.correct FROM quiz_attempts qa
          WHERE qa.user_id = p_user_id AND qa.program_id = p_program_id
          ORDER BY qa.question_index, qa.created_at DESC, qa.id DESC LIMIT 1)
        UNION ALL
        SELECT next.* FROM latest, LATERAL (
          SELECT qa.question_index, qa.option, qa.correct FROM quiz_attempts qa
          WHERE qa.user_id = p_user_id AND qa.program_id = p_program_id AND qa.question_index > latest.question_index
          ORDER BY qa.question_index, qa.created_at DESC, qa.id DESC LIMIT 1) AS next
      )
      SELECT coalesce(json_agg(json_build_object(
        'questionIndex', latest.question_index, 'option', latest.option, 'correct', latest.correct
      ) ORDER BY latest.question_index), '[]'::json) FROM latest),
    (SELECT c.id FROM certificates c
      WHERE c.user_id = p_user_id AND c.program_id = p_program_id AND c.revoked_at IS NULL LIMIT 1)
$$;
--> statement-breakpoint
-- A transaction whose caller announces its changes itself (record_quiz_answer below) sets
-- academy.changes_announced: its rows announce nothing. A notice held by a transaction makes its
-- commit wait for every other such commit and its flush to disk, one after the other; the caller's
-- own notice, sent after the commit without waiting for the disk, does not (docs/performance.md,
-- "Announcing a change").
CREATE OR REPLACE FUNCTION "notify_user_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('academy.changes_announced', true) = 'on' THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('user_changed', TG_ARGV[1] || ':' || coalesce(to_jsonb(OLD) ->> TG_ARGV[0], ''));
  ELSE
    PERFORM pg_notify('user_changed', TG_ARGV[1] || ':' || coalesce(to_jsonb(NEW) ->> TG_ARGV[0], ''));
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- As in migration 0011, with two changes: its writes announce nothing (the server announces the
-- answer once committed: src/server/features/learning/learning.service.ts), and the attempts past
-- the latest `kept` are removed as a range of the index rather than a join, which the planner
-- costs by reading the index's ends on every call (docs/performance.md, "Writes in one round trip").
CREATE OR REPLACE FUNCTION "record_quiz_answer"(
  p_user_id text, p_program_id text, p_module_id text, p_question_index integer, p_option text,
  p_correct boolean, p_now_ms bigint, p_window_ms bigint, p_per_window integer, p_kept integer
) RETURNS TABLE (
  outcome text, count integer, last_request bigint, earlier json, data jsonb, answers json,
  certificate_id text
) LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  v_data jsonb;
  v_count integer;
  v_last bigint;
  v_earlier json;
  v_key text := 'quiz-answer:' || p_user_id || ':' || p_program_id || ':' || p_question_index;
BEGIN
  SELECT up.data INTO v_data FROM user_progress up
  WHERE up.user_id = p_user_id AND up.program_id = p_program_id FOR UPDATE;
  IF v_data IS NULL OR jsonb_typeof(v_data) <> 'object' OR (v_data -> p_module_id) IS DISTINCT FROM 'true'::jsonb THEN
    RETURN QUERY SELECT 'locked'::text, NULL::integer, NULL::bigint, NULL::json, NULL::jsonb, NULL::json, NULL::text;
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
    RETURN QUERY SELECT 'refused'::text, v_count, v_last, NULL::json, NULL::jsonb, NULL::json, NULL::text;
    RETURN;
  END IF;
  SELECT json_build_object('questionIndex', qa.question_index, 'option', qa.option, 'correct', qa.correct)
  INTO v_earlier FROM quiz_attempts qa
  WHERE qa.user_id = p_user_id AND qa.program_id = p_program_id AND qa.question_index = p_question_index
  ORDER BY qa.created_at DESC, qa.id DESC LIMIT 1;
  PERFORM set_config('academy.changes_announced', 'on', true);
  INSERT INTO quiz_attempts (user_id, program_id, question_index, option, correct)
  VALUES (p_user_id, p_program_id, p_question_index, p_option, p_correct);
  DELETE FROM quiz_attempts qa
  WHERE qa.user_id = p_user_id AND qa.program_id = p_program_id AND qa.question_index = p_question_index
    AND (qa.created_at, qa.id) < (
      SELECT last.created_at, last.id FROM quiz_attempts last
      WHERE last.user_id = p_user_id AND last.program_id = p_program_id AND last.question_index = p_question_index
      ORDER BY last.created_at DESC, last.id DESC OFFSET p_kept - 1 LIMIT 1);
  PERFORM set_config('academy.changes_announced', 'off', true);
  RETURN QUERY SELECT 'recorded'::text, v_count, v_last, v_earlier, s.data, s.answers, s.certificate_id
    FROM learner_standing(p_user_id, p_program_id) s;
END
$$;
