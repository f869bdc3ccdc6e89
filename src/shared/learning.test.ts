import { describe, expect, it } from "vitest";
import { isQuizUnlocked } from "./learning.ts";

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
