import { describe, expect, it } from "vitest";
import { isQuizUnlocked, lessonTitle, nextStepOf, programProgress } from "./learning.ts";

describe("isQuizUnlocked", () => {
  const quiz = { moduleId: "m1" };

  it("opens once the quiz's video is watched", () => {
    expect(isQuizUnlocked(quiz, ["m2", "m1"])).toBe(true);
  });

  it("stays locked while only other videos are watched", () => {
    expect(isQuizUnlocked(quiz, [])).toBe(false);
    expect(isQuizUnlocked(quiz, ["m2"])).toBe(false);
  });
});

describe("programProgress", () => {
  const modules = [
    { id: "m1", title: "One" },
    { id: "m2", title: "Two" },
    { id: "m3", title: "Three" },
  ];
  const quiz = (passed: boolean) => ({ moduleId: "m1", title: "The quiz", passed });

  it("counts the videos and the quiz as the steps, rounded down", () => {
    expect(programProgress({ modules, watched: [], quiz: quiz(false) })).toEqual({
      watched: 0,
      total: 3,
      quizPassed: false,
      percent: 0,
      next: { lessonId: "m1", title: "One", kind: "video" },
    });
    expect(programProgress({ modules, watched: ["m1"], quiz: quiz(false) }).percent).toBe(25);
    expect(programProgress({ modules, watched: ["m1"], quiz: quiz(true) }).percent).toBe(50);
    const withoutQuiz = programProgress({ modules, watched: ["m1", "m2"], quiz: null });
    expect(withoutQuiz).toMatchObject({ quizPassed: null, percent: 66 });
  });

  it("goes on at the first unwatched video, in order, whatever was watched before", () => {
    expect(programProgress({ modules, watched: ["m1", "m3"], quiz: quiz(false) }).next).toEqual({
      lessonId: "m2",
      title: "Two",
      kind: "video",
    });
  });

  it("leaves the quiz, under its lesson, once every video is watched", () => {
    const progress = programProgress({ modules, watched: ["m3", "m2", "m1"], quiz: quiz(false) });
    expect(progress).toMatchObject({ watched: 3, percent: 75, next: { lessonId: "m1", title: "The quiz", kind: "quiz" } });
  });

  it("is 100% with nothing next only when every step is done", () => {
    expect(programProgress({ modules, watched: ["m1", "m2", "m3"], quiz: quiz(true) })).toMatchObject({
      percent: 100,
      next: null,
    });
    expect(programProgress({ modules, watched: ["m1", "m2", "m3"], quiz: null })).toMatchObject({ percent: 100, next: null });
  });

  it("ignores watched ids of videos the program no longer has, and an empty program is at 0", () => {
    expect(programProgress({ modules, watched: ["gone", "m2"], quiz: null })).toMatchObject({ watched: 1, percent: 33 });
    expect(programProgress({ modules: [], watched: [], quiz: null })).toEqual({
      watched: 0,
      total: 0,
      quizPassed: null,
      percent: 0,
      next: null,
    });
  });
});

describe("lessonTitle", () => {
  it("drops a Section N: an admin typed in front, keeps any other title as it is", () => {
    expect(lessonTitle("Section 2: Risk management")).toBe("Risk management");
    expect(lessonTitle("section 12 - Risk management")).toBe("Risk management");
    expect(lessonTitle("Risk management")).toBe("Risk management");
    expect(lessonTitle("Sections of a chart")).toBe("Sections of a chart");
  });

  it("names the next lesson by its own title", () => {
    const progress = programProgress({ modules: [{ id: "m1", title: "Section 1: One" }], watched: [], quiz: null });
    expect(progress.next).toEqual({ lessonId: "m1", title: "One", kind: "video" });
  });
});

describe("nextStepOf", () => {
  const programs = [
    { id: "beginner", level: "beginner" },
    { id: "intermediate", level: "intermediate" },
    { id: "risk", level: "intermediate" },
    { id: "advanced", level: "advanced" },
  ] as const;
  const lesson = { lessonId: "m1", title: "Lesson", kind: "video" as const };
  const done = { complete: true, percent: 100, next: null, lastStudiedAt: "2026-11-01T10:00:00.000Z" };
  const fresh = { complete: false, percent: 0, next: lesson, lastStudiedAt: null };
  const begun = (at: string) => ({ complete: false, percent: 50, next: lesson, lastStudiedAt: at });

  it("offers a free learner who completed Beginner the plan that opens the next level", () => {
    expect(nextStepOf({ programs, progress: { beginner: done }, plan: "legacyFree", paidSince: null })).toEqual({
      kind: "upgrade",
      plan: "intermediate",
      programId: "intermediate",
    });
  });

  it("after a payment, the first program of the level bought that is not complete, whatever was studied before", () => {
    const progress = { beginner: begun("2026-11-20T10:00:00.000Z"), intermediate: done, risk: fresh };
    const paidSince = new Date("2026-11-27T10:00:00.000Z");
    expect(nextStepOf({ programs, progress, plan: "intermediate", paidSince })).toEqual({ kind: "start", programId: "risk", bought: true });
    // Studied since the payment: the program studied last again.
    const later = { ...progress, beginner: begun("2026-11-27T11:00:00.000Z") };
    expect(nextStepOf({ programs, progress: later, plan: "intermediate", paidSince })).toEqual({
      kind: "continue",
      programId: "beginner",
      bought: false,
    });
  });

  it("a program certified complete stays done though a lesson was published since; with everything done, nothing is left", () => {
    const certified = { complete: true, percent: 75, next: lesson, lastStudiedAt: "2026-11-01T10:00:00.000Z" };
    const progress = { beginner: certified, intermediate: done, risk: done, advanced: done };
    expect(nextStepOf({ programs, progress, plan: "advanced", paidSince: null })).toEqual({ kind: "done" });
    expect(nextStepOf({ programs, progress: { ...progress, advanced: fresh }, plan: "advanced", paidSince: null })).toEqual({
      kind: "start",
      programId: "advanced",
      bought: false,
    });
  });
});
