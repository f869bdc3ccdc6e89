-- Quiz answers recorded in batches (docs/performance.md, "Quiz answers in batches"): the answers a
-- server has waiting are recorded by one call, in one transaction, each exactly as
-- record_quiz_answer (migration 0012) records it alone, and each answered with its ordinal in
-- p_answers. They are taken in the order of their learner and program (and, for one learner's
-- program, in the order given), so two batches lock the learners' progress rows in the same order
-- and cannot wait for each other.
CREATE OR REPLACE FUNCTION "record_quiz_answers"(
  p_answers jsonb, p_window_ms bigint, p_per_window integer, p_kept integer
) RETURNS TABLE (
  ordinal integer, outcome text, count integer, last_request bigint, earlier json, data jsonb,
  answers json, certificate_id text
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
    RETURN QUERY SELECT v_answer.ordinal, r.outcome, r.count, r.last_request, r.earlier, r.data, r.answers, r.certificate_id
      FROM record_quiz_answer(
        v_answer.answer ->> 'userId', v_answer.answer ->> 'programId', v_answer.answer ->> 'moduleId',
        (v_answer.answer ->> 'questionIndex')::integer, v_answer.answer ->> 'option',
        (v_answer.answer ->> 'correct')::boolean, (v_answer.answer ->> 'nowMs')::bigint,
        p_window_ms, p_per_window, p_kept) AS r;
  END LOOP;
END
$$;
