// Where a learner stands in a course, read from the track the server sent (docs/product.md,
// "Lesson player"): the lesson a course opens at, the quiz's state, the steps done, and the
// addresses of lessons.
import type { ProgramProgress, TrackDetail, TrackModule } from "../../../shared/contracts/learning.ts";
import { programProgress, type ProgramStepsProgress } from "../../../shared/learning.ts";

/** The quiz's place under its lesson: `/program/{track}/{lessonId}#quiz`. */
export const QUIZ_ANCHOR = "quiz";

export { COMPLETE_STEP } from "../../../shared/program-page-reads.ts";

export function trackPath(track: string): string {
  return `/program/${encodeURIComponent(track)}`;
}

export function lessonPath(track: string, lessonId: string, part?: typeof QUIZ_ANCHOR): string {
  return `${trackPath(track)}/${encodeURIComponent(lessonId)}${part ? `#${part}` : ""}`;
}

/** Where the summary's next step is: a lesson, or the quiz under its lesson. */
export function nextStepPath(track: string, next: NonNullable<ProgramProgress["next"]>): string {
  return lessonPath(track, next.lessonId, next.kind === "quiz" ? QUIZ_ANCHOR : undefined);
}

/** The spec's `/program/{track}` opens at the first unwatched lesson, or the first when all are watched. */
export function startLesson(detail: TrackDetail): TrackModule | undefined {
  return detail.modules.find((module) => !detail.watched.includes(module.id)) ?? detail.modules[0];
}

/** The program's steps done, as the cards and the home page count them (GET /api/progress). */
export function courseProgress(detail: TrackDetail): ProgramStepsProgress {
  const { quiz } = detail;
  return programProgress({
    modules: detail.modules,
    watched: detail.watched,
    quiz: quiz && { moduleId: quiz.moduleId, title: quiz.title, passed: detail.completion.quizPassed },
  });
}

export type QuizState = "locked" | "open" | "passed";

/** Passed by the server's rule (the admin's pass mark), which the track's completion carries. */
export function quizState(detail: TrackDetail): QuizState {
  if (!detail.quiz?.unlocked) return "locked";
  return detail.completion.quizPassed ? "passed" : "open";
}
