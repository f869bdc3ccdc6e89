// A chart exercise as the learner plays it (docs/trading.md, "Exercises"): its read, a step of the
// replay, an answer and a new attempt. The server keeps the bars after the decision point and
// scores the answer; the cache mirrors its answers.
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { EXERCISE_ENDPOINTS, type ExerciseSubmission, type LearnerExercise } from "../../../shared/contracts/exercises.ts";
import { ANSWER_FOR, API_READS_CACHE } from "../../../shared/offline.ts";
import { addressOf } from "../../../shared/contracts/endpoint.ts";
import { call } from "../../lib/api.ts";

type ExerciseParams = { track: string; moduleId: string };

function exerciseQuery(params: ExerciseParams) {
  return queryOptions({
    queryKey: ["exercise", params.track, params.moduleId],
    queryFn: () => call(EXERCISE_ENDPOINTS.exercise, { params }),
  });
}

export function useExercise(params: ExerciseParams) {
  return useQuery(exerciseQuery(params));
}

/**
 * The exercise as the server last answered it (a step, an answer, a new attempt), kept for this
 * page and for the service worker's copy of the read, so that the exercise opened offline shows
 * the bars the learner had reached (the worker serves it only to `userId`, docs/product.md "Offline").
 */
function useExerciseCache(params: ExerciseParams, userId: string | null) {
  const queryClient = useQueryClient();
  return (exercise: LearnerExercise) => {
    queryClient.setQueryData(exerciseQuery(params).queryKey, exercise);
    if (userId === null || !("caches" in window)) return;
    const url = new URL(addressOf(EXERCISE_ENDPOINTS.exercise, params), window.location.origin).href;
    const answer = new Response(JSON.stringify(exercise), { headers: { "content-type": "application/json", [ANSWER_FOR]: userId } });
    void caches
      .open(API_READS_CACHE)
      .then((cache) => cache.put(url, answer))
      .catch(() => undefined);
  };
}

/** Reveals `count` more bars of the current attempt (1 to 10). */
export function useExerciseStep(params: ExerciseParams, userId: string | null) {
  const keep = useExerciseCache(params, userId);
  return useMutation({
    mutationFn: (body: { attempt: number; count: number }) => call(EXERCISE_ENDPOINTS.step, { params, body }),
    onSuccess: keep,
  });
}

/**
 * Sends an answer. Scored, the exercise comes back with it; a passed exercise is a step of the
 * program done, which `onPassed` tells the course player (its track and progress are read again).
 */
export function useExerciseAnswer(params: ExerciseParams, userId: string | null, onPassed: () => void) {
  const keep = useExerciseCache(params, userId);
  return useMutation({
    mutationFn: (submission: ExerciseSubmission) => call(EXERCISE_ENDPOINTS.submit, { params, body: submission }),
    onSuccess: (response) => {
      if (!response.ok) return;
      keep(response.exercise);
      if (response.exercise.passed) onPassed();
    },
  });
}

export function useNewExerciseAttempt(params: ExerciseParams, userId: string | null) {
  const keep = useExerciseCache(params, userId);
  return useMutation({
    mutationFn: () => call(EXERCISE_ENDPOINTS.newAttempt, { params }),
    onSuccess: keep,
  });
}

/** After an answer refused as stale (the attempt ended elsewhere): the exercise as it now is. */
export function useRefreshExercise(params: ExerciseParams) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: exerciseQuery(params).queryKey });
}
