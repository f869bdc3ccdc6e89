import { describe, expect, it } from "vitest";
import { isQuizUnlocked, lessonTitle, programProgress } from "./learning.ts";

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
