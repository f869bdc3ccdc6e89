// Studying a track: the learner's progress, a track's videos and quiz, marking a video watched
// and answering a question. The server decides everything; the cache mirrors its answers.
import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { LEARNING_ENDPOINTS, type LessonPositions, type TrackDetail } from "../../../shared/contracts/learning.ts";
import { isQuizUnlocked } from "../../../shared/learning.ts";
import { programPageReads } from "../../../shared/program-page-reads.ts";
import { ApiRequestError, call } from "../../lib/api.ts";
import { notify } from "../../ui/toast.tsx";
import { dataSaverOn } from "../../lib/data-saver.ts";
import { siteConfigQuery } from "../../lib/site-config.ts";
import { COMPLETE_STEP, startLesson } from "./course.ts";
import { thumbnailShown, WIDE_SCREEN } from "./video-watching.ts";

export const progressQuery = queryOptions({
  queryKey: ["progress"],
  queryFn: () => call(LEARNING_ENDPOINTS.progress, {}),
});

/** The learner's progress per program; `enabled: false` for a visitor, who has none. */
export function useProgress({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...progressQuery, enabled, select: (summary) => summary.programs });
}

/** The server's next step for the learner, the home page's first card (docs/product.md, "Home and program list"). */
export function useNextStep({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...progressQuery, enabled, select: (summary) => summary.next });
}

export function trackQuery(track: string) {
  return queryOptions({
    queryKey: ["track", track],
    queryFn: () => call(LEARNING_ENDPOINTS.track, { params: { track } }),
  });
}

export function useTrack(track: string) {
  return useQuery(trackQuery(track));
}

/** A lesson's notes and attachments, asked for as the lesson opens (not with the whole track). */
function lessonContentQuery(track: string, moduleId: string) {
  return queryOptions({
    queryKey: ["track", track, "lesson", moduleId],
    queryFn: () => call(LEARNING_ENDPOINTS.lesson, { params: { track, moduleId } }),
  });
}

export function useLessonContent(track: string, moduleId: string) {
  return useQuery(lessonContentQuery(track, moduleId));
}

/**
 * Where the learner stopped in each lesson of the track, read once as the player opens: from then
 * on this page's own saves keep it (a save may still be on its way when the learner comes back).
 */
export function lessonPositionsQuery(track: string) {
  return queryOptions({
    queryKey: ["positions", track],
    queryFn: async () => (await call(LEARNING_ENDPOINTS.positions, { params: { track } })).positions,
    staleTime: Infinity,
  });
}

/** `enabled: false` for a free preview, whose learner keeps no positions in a program they cannot open. */
export function useLessonPositions(track: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...lessonPositionsQuery(track), enabled });
}

/** What a program shows of itself to anyone signed in (docs/product.md, "Previews"). */
export function useProgramPreview(track: string) {
  return useQuery({
    queryKey: ["preview", track],
    queryFn: () => call(LEARNING_ENDPOINTS.preview, { params: { track } }),
  });
}

/**
 * Saves where the learner stopped in a lesson. A position is a convenience: a save that fails is
 * not worth a message, and the next one (or the one after the pause) makes up for it.
 */
export function useSaveLessonPosition(track: string) {
  const queryClient = useQueryClient();
  return useCallback(
    (moduleId: string, seconds: number, { leaving = false }: { leaving?: boolean } = {}) => {
      queryClient.setQueryData<LessonPositions>(lessonPositionsQuery(track).queryKey, (positions) => ({ ...positions, [moduleId]: seconds }));
      call(LEARNING_ENDPOINTS.savePosition, { params: { track, moduleId }, body: { seconds } }, { keepalive: leaving }).catch(() => undefined);
    },
    [queryClient, track],
  );
}

type WatchedResponse = Pick<TrackDetail, "watched" | "completion">;

/**
 * The track after Mark as Watched, the quiz unlocked by the server's own rule (shared/learning.ts)
 * and the completion as the server now sees it.
 */
function withWatched(detail: TrackDetail, { watched, completion }: WatchedResponse): TrackDetail {
  const quiz = detail.quiz && { ...detail.quiz, unlocked: isQuizUnlocked(detail.quiz, watched) };
  return { ...detail, watched, quiz, completion };
}

function useTrackCache(track: string) {
  const queryClient = useQueryClient();
  const { queryKey } = trackQuery(track);
  return {
    update: (change: (detail: TrackDetail) => TrackDetail) =>
      queryClient.setQueryData(queryKey, (detail) => detail && change(detail)),
    refresh: () => queryClient.invalidateQueries({ queryKey }),
    progressChanged: () => queryClient.invalidateQueries({ queryKey: progressQuery.queryKey }),
  };
}

/**
 * A step of the program done elsewhere on the page (a chart exercise passed, which the server marks
 * in `watched`, docs/trading.md "Exercises"): the track and the progress are read again.
 */
export function useStepDoneElsewhere(track: string) {
  const queryClient = useQueryClient();
  return useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: trackQuery(track).queryKey, exact: true });
    void queryClient.invalidateQueries({ queryKey: progressQuery.queryKey });
  }, [queryClient, track]);
}

/** A 403 or 404 means the page no longer matches the server (plan ended, video removed): reload it. */
function isStale(error: Error): boolean {
  return error instanceof ApiRequestError && (error.status === 403 || error.status === 404);
}

export function useMarkWatched(track: string) {
  const cache = useTrackCache(track);
  return useMutation({
    mutationFn: (moduleId: string) => call(LEARNING_ENDPOINTS.markWatched, { params: { track, moduleId } }),
    onSuccess: (response) => {
      cache.update((detail) => withWatched(detail, response));
      void cache.progressChanged();
    },
    onError: (error) => {
      // Offline, the button says so itself (notSavedOffline): the toasts' code may not be here.
      if (!notSavedOffline(error)) notify.error(error.message);
      if (isStale(error)) void cache.refresh();
    },
  });
}

/** Mark as Watched offline is refused in words, never queued unseen (docs/product.md, "Offline"). */
export const NOT_SAVED_OFFLINE = "You are offline: your progress was not saved. Try again when you are back online.";

export function notSavedOffline(error: unknown): boolean {
  return error instanceof ApiRequestError && error.code === "NETWORK";
}

export function useAnswerQuestion(track: string) {
  const cache = useTrackCache(track);
  return useMutation({
    mutationFn: (answer: { questionIndex: number; option: string }) => call(LEARNING_ENDPOINTS.answerQuiz, { params: { track }, body: answer }),
    onSuccess: ({ correct, completion, explanation, attempts, nextAttemptAt }, { questionIndex, option }) => {
      cache.update((detail) => {
        if (!detail.quiz) return detail;
        const others = detail.quiz.answers.filter((answer) => answer.questionIndex !== questionIndex);
        const answers = [...others, { questionIndex, option, correct }];
        const questions = detail.quiz.questions.map((question, index) => (index === questionIndex ? { ...question, explanation } : question));
        return { ...detail, quiz: { ...detail.quiz, questions, answers, attempts, nextAttemptAt }, completion };
      });
      void cache.progressChanged();
    },
    onError: (error) => {
      notify.error(error.message);
      if (isStale(error)) void cache.refresh();
    },
  });
}

/**
 * A new quiz attempt (docs/product.md, "Quiz attempts"): the server refuses it before the wait is
 * over, with the time left in words, said by the panel; on success the quiz comes back in the new
 * attempt's order, with no answers.
 */
export function useNewAttempt(track: string) {
  const cache = useTrackCache(track);
  return useMutation({
    mutationFn: () => call(LEARNING_ENDPOINTS.newAttempt, { params: { track } }),
    onSuccess: ({ quiz }) => {
      cache.update((detail) => ({ ...detail, quiz }));
    },
    onError: (error) => {
      if (isStale(error)) void cache.refresh();
    },
  });
}

/**
 * A program's or a lesson's reads, asked for as the app starts (main.tsx), beside the page's code
 * rather than after it; and the lesson's thumbnail, its largest picture, as soon as those reads
 * name it, while the page's code still runs (docs/performance.md, "Data").
 */
export function prefetchProgramPage(queryClient: QueryClient, pathname: string): void {
  const page = programPageReads(pathname);
  if (!page) return;
  const { track, lessonId } = page;
  void queryClient.prefetchQuery(trackQuery(track));
  if (lessonId === COMPLETE_STEP) return;
  // The data saver fetches nothing ahead of the learner (docs/performance.md, "Data").
  if (!dataSaverOn()) void fetchThumbnailAhead(queryClient, track, lessonId).catch(() => undefined);
  if (lessonId === null) return;
  void queryClient.prefetchQuery(lessonPositionsQuery(track));
  void queryClient.prefetchQuery(lessonContentQuery(track, lessonId));
}

/**
 * Starts the download of the thumbnail the lesson's picture will show (the lesson named, or the one
 * `/program/{track}` opens at), at high priority; the picture then finds it in the browser's cache.
 */
async function fetchThumbnailAhead(queryClient: QueryClient, track: string, moduleId: string | null): Promise<void> {
  const [detail, site] = await Promise.all([queryClient.ensureQueryData(trackQuery(track)), queryClient.ensureQueryData(siteConfigQuery)]);
  const lesson = moduleId ? detail.modules.find((module) => module.id === moduleId) : startLesson(detail);
  if (!lesson?.youtubeId) return;
  const image = new Image();
  image.fetchPriority = "high";
  image.src = thumbnailShown(site.youtubeThumbnailUrl, lesson.youtubeId, {
    savesData: false,
    wide: window.matchMedia(WIDE_SCREEN).matches,
  });
}
