// Learning rules the server and the browser both apply (docs/product.md, "Track page"). Pure: the
// server on every track it sends and every answer it checks, the browser when Mark as Watched
// updates the track it holds.
import { canOpenTrack, isPaidPlan, PAID_PLANS, TRACKS, type PaidPlan, type Plan, type Track } from "./plans.ts";
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

/** Where a program stands for the next step: done, or where to go on. */
type StepProgress = { complete: boolean; percent: number; next: unknown; lastStudiedAt: string | null };

/**
 * The learner's next step, the home page's first card (docs/product.md, "Home and program list"):
 * - after a payment (the paid period now running started since the learner last studied), the
 *   program just bought: the first program, in catalogue order, of the level the plan opens that
 *   the learner has not completed;
 * - else the program studied last that is not complete;
 * - else the first program the plan opens that is not complete;
 * - every program the plan opens complete: the upgrade that opens the next level (its first
 *   program), while there is one in the catalogue;
 * - else nothing left (`done`).
 * `programs` are the catalogue's, in its order; `progress` holds only those the plan opens.
 */
export function nextStepOf(input: {
  programs: readonly { id: string; level: Track }[];
  progress: Readonly<Record<string, StepProgress>>;
  plan: Plan;
  /** When the paid period now running started; null without one. */
  paidSince: Date | null;
}): NextStep {
  const { programs, progress, plan, paidSince } = input;
  const todo = programs.filter((program) => {
    const entry = progress[program.id];
    return entry !== undefined && !entry.complete && entry.next !== null;
  });
  const step = (programId: string, bought: boolean): NextStep => ({
    kind: (progress[programId]?.percent ?? 0) > 0 ? "continue" : "start",
    programId,
    bought,
  });

  const studiedAt = (id: string) => progress[id]?.lastStudiedAt ?? "";
  const lastStudied = Object.keys(progress).reduce((last, id) => (studiedAt(id) > last ? studiedAt(id) : last), "");
  if (isPaidPlan(plan) && paidSince && (lastStudied === "" || new Date(lastStudied) < paidSince)) {
    const bought = todo.find((program) => program.level === plan);
    if (bought) return step(bought.id, true);
  }
  const begun = todo.filter((program) => studiedAt(program.id) !== "").toSorted((a, b) => studiedAt(b.id).localeCompare(studiedAt(a.id)));
  const current = begun[0] ?? todo[0];
  if (current) return step(current.id, false);

  // The lowest level the plan does not open, by its first program in the catalogue.
  const closedLevel = TRACKS.find((level) => !canOpenTrack(plan, level) && programs.some((program) => program.level === level));
  const closed = programs.find((program) => program.level === closedLevel);
  if (closed) {
    const opener = PAID_PLANS.find((paid) => canOpenTrack(paid, closed.level));
    if (opener) return { kind: "upgrade", plan: opener, programId: closed.id };
  }
  return { kind: "done" };
}

export type NextStep =
  | { kind: "start" | "continue"; programId: string; bought: boolean }
  | { kind: "upgrade"; plan: PaidPlan; programId: string }
  | { kind: "done" };
