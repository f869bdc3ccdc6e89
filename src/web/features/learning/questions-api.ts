// Lesson questions (docs/product.md, "Questions and mentorship"): a lesson's questions a page at a
// time, asking and answering, and the administrators' pin and remove. The server decides who may
// do what; every change reloads the questions on screen.
import { infiniteQueryOptions, useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { SUPPORT_ENDPOINTS } from "../../../shared/contracts/support.ts";
import { call } from "../../lib/api.ts";

/** Every lesson's questions are cached under this key. */
const QUESTIONS_KEY = ["questions"] as const;

export function lessonQuestionsQuery(track: string, moduleId: string) {
  return infiniteQueryOptions({
    queryKey: [...QUESTIONS_KEY, track, moduleId],
    queryFn: ({ pageParam }) => call(SUPPORT_ENDPOINTS.questions, { params: { track, moduleId }, query: { page: pageParam } }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
    // Not kept for offline: the lesson shows without its questions, which say they could not load.
    meta: { offline: "optional" },
  });
}

export function useLessonQuestions(track: string, moduleId: string) {
  return useInfiniteQuery(lessonQuestionsQuery(track, moduleId));
}

/** After a change: the lessons' questions on screen load again, and so does whatever `onChanged` names. */
function useRefresh(onChanged?: () => unknown) {
  const queryClient = useQueryClient();
  return () => Promise.all([queryClient.invalidateQueries({ queryKey: QUESTIONS_KEY }), onChanged?.()]);
}

export function useAskQuestion(track: string, moduleId: string) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (body: string) => call(SUPPORT_ENDPOINTS.ask, { params: { track, moduleId }, body: { body } }),
    onSuccess: refresh,
  });
}

export function useAnswerQuestion(questionId: string, onChanged?: () => unknown) {
  const refresh = useRefresh(onChanged);
  return useMutation({
    mutationFn: (body: string) => call(SUPPORT_ENDPOINTS.answer, { params: { questionId }, body: { body } }),
    onSuccess: refresh,
  });
}

type Moderation = { action: "pin" | "unpin" } | { action: "remove" } | { action: "removeAnswer"; answerId: string };

/** An administrator's pin, unpin or removal. */
export function useModerateQuestion(questionId: string, onChanged?: () => unknown) {
  const refresh = useRefresh(onChanged);
  return useMutation({
    mutationFn: (change: Moderation) => {
      switch (change.action) {
        case "pin":
        case "unpin":
          return call(SUPPORT_ENDPOINTS.pin, { params: { questionId }, body: { pinned: change.action === "pin" } });
        case "remove":
          return call(SUPPORT_ENDPOINTS.removeQuestion, { params: { questionId } });
        case "removeAnswer":
          return call(SUPPORT_ENDPOINTS.removeAnswer, { params: { answerId: change.answerId } });
      }
    },
    onSettled: refresh,
  });
}
