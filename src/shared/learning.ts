// Learning rules the server and the browser both apply (docs/product.md, "Track page"). Pure: the
// server on every track it sends and every answer it checks, the browser when Mark as Watched
// updates the track it holds.
import { sectionTitle } from "./section-title.ts";

/** The quiz belongs to one video (the first) and opens once that video is watched. */
export function isQuizUnlocked(quiz: { moduleId: string }, watched: readonly string[]): boolean {
  return watched.includes(quiz.moduleId);
}

/**
 * A lesson's own title, without a "Section N:" an admin typed in front of it (the player numbers
 * lessons by their place, `sectionTitle`).
 */
export function lessonTitle(title: string): string {
  return sectionTitle(1, title).slice("Section 1: ".length);
}

type ProgramSteps = {
  /** The videos in order. */
  modules: readonly { id: string; title: string }[];
  watched: readonly string[];
  /** The quiz, if the program has one, under the lesson `moduleId`. */
  quiz: { moduleId: string; title: string; passed: boolean } | null;
};

export type ProgramStepsProgress = {
  watched: number;
  total: number;
  quizPassed: boolean | null;
  percent: number;
  next: { lessonId: string; title: string; kind: "video" | "quiz" } | null;
};

/**
 * How far a learner is through a program (docs/product.md, "Progress"): its steps are the videos
 * and the quiz, each counting one, so that 100% is the completed program (every video watched, the
 * quiz passed). Rounded down: 100 only once every step is done. Next is the first unwatched video,
 * then the quiz not yet passed.
 */
export function programProgress({ modules, watched, quiz }: ProgramSteps): ProgramStepsProgress {
  const watchedCount = modules.filter((module) => watched.includes(module.id)).length;
  const steps = modules.length + (quiz ? 1 : 0);
  const done = watchedCount + (quiz?.passed ? 1 : 0);
  const unwatched = modules.find((module) => !watched.includes(module.id));
  const next = unwatched
    ? { lessonId: unwatched.id, title: lessonTitle(unwatched.title), kind: "video" as const }
    : quiz && !quiz.passed
      ? { lessonId: quiz.moduleId, title: quiz.title, kind: "quiz" as const }
      : null;
  return {
    watched: watchedCount,
    total: modules.length,
    quizPassed: quiz ? quiz.passed : null,
    percent: steps === 0 ? 0 : Math.floor((done * 100) / steps),
    next,
  };
}
