-- Where a learner stands on a track: the progress entry, the latest answer per question and the
-- valid (not revoked) certificate, defined once for the server's reads (readStanding,
-- src/server/features/learning/completion.ts) and for record_quiz_answer below. A single SELECT in
-- SQL, so the planner inlines it into the statement that calls it.
CREATE FUNCTION "learner_standing"(p_user_id text, p_program_id text)
RETURNS TABLE (data jsonb, answers json, certificate_id text) LANGUAGE sql STABLE AS $$
  SELECT
    (SELECT up.data FROM user_progress up WHERE up.user_id = p_user_id AND up.program_id = p_program_id),
    (SELECT coalesce(json_agg(json_build_object(
        'questionIndex', latest.question_index, 'option', latest.option, 'correct', latest.correct
      ) ORDER BY latest.question_index), '[]'::json)
      FROM (SELECT DISTINCT ON (qa.question_index) qa.question_index, qa.option, qa.correct
        FROM quiz_attempts qa WHERE qa.user_id = p_user_id AND qa.program_id = p_program_id
        ORDER BY qa.question_index, qa.created_at DESC, qa.id DESC) AS latest),
    (SELECT c.id FROM certificates c
      WHERE c.user_id = p_user_id AND c.program_id = p_program_id AND c.revoked_at IS NULL LIMIT 1)
$$;
--> statement-breakpoint
-- A quiz answer in one round trip (docs/performance.md, "Writes in one round trip"): the learner's
-- progress row locked, the quiz checked open, the answer counted against the limit per question,
-- stored, the attempts past the latest `kept` removed, and the learner's standing read after it.
-- The lock makes two writes that could each complete the program take turns; each statement of a
-- function takes a snapshot of its own, so the standing read here sees what the other committed
-- (docs/product.md, "Completion and certificates"). The certificate itself is issued by the server
-- afterwards, in a transaction of its own (src/server/features/learning/certificates.ts).
-- outcome: 'locked' (the quiz's video not watched: nothing written), 'refused' (past the limit:
-- counted, not stored) or 'recorded'; earlier is the learner's answer to the question before this
-- one ({option, correct}, null when none); data, answers and certificate_id are learner_standing's.
CREATE FUNCTION "record_quiz_answer"(
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
  INSERT INTO quiz_attempts (user_id, program_id, question_index, option, correct)
  VALUES (p_user_id, p_program_id, p_question_index, p_option, p_correct);
  DELETE FROM quiz_attempts WHERE id IN (
    SELECT qa.id FROM quiz_attempts qa
    WHERE qa.user_id = p_user_id AND qa.program_id = p_program_id AND qa.question_index = p_question_index
    ORDER BY qa.created_at DESC, qa.id DESC OFFSET p_kept);
  RETURN QUERY SELECT 'recorded'::text, v_count, v_last, v_earlier, s.data, s.answers, s.certificate_id
    FROM learner_standing(p_user_id, p_program_id) s;
END
$$;
