import { describe, expect, it } from "vitest";
import { optionLetter } from "../../../shared/quiz-option.ts";
import { newAttemptRefusal, nextAttemptAt, optionsInAttemptOrder, scoreAttempt, type StoredAttempt } from "./quiz-attempts.ts";

const rules = { questionCount: 4, passMark: 3 };
const minute = 60_000;
const stored = (firstAnswers: Record<string, boolean>, number = 1, answeredAt = 10 * minute): StoredAttempt => ({
  number,
  startedAt: 0,
  answeredAt,
  firstAnswers,
});

describe("scoreAttempt (docs/product.md, Quiz attempts)", () => {
  it("scores the first answers, lists the wrong ones to review and passes at the mark", () => {
    const scored = scoreAttempt(stored({ 0: true, 1: false, 2: true, 3: true }), rules);
    expect(scored).toEqual({
      number: 1,
      score: 3,
      answered: 4,
      total: 4,
      finished: true,
      passed: true,
      startedAt: new Date(0).toISOString(),
      finishedAt: new Date(10 * minute).toISOString(),
      review: [1],
    });
    expect(scoreAttempt(stored({ 0: true, 1: false, 2: false, 3: true }), rules)).toMatchObject({ score: 2, passed: false, review: [1, 2] });
  });

  it("is not finished while a question is unanswered, and ignores questions the quiz no longer has", () => {
    expect(scoreAttempt(stored({ 0: true, 1: true, 5: true }), rules)).toMatchObject({
      score: 2,
      answered: 2,
      finished: false,
      finishedAt: null,
    });
  });
});

describe("a new attempt", () => {
  const failed = scoreAttempt(stored({ 0: true, 1: false, 2: false, 3: true }), rules);
  const passed = scoreAttempt(stored({ 0: true, 1: true, 2: true, 3: false }), rules);
  const unfinished = scoreAttempt(stored({ 0: true }, 2), rules);

  it("may start the quiz's wait after the last question of a failed attempt was first answered", () => {
    expect(nextAttemptAt([failed], 10)?.toISOString()).toBe(new Date(20 * minute).toISOString());
    expect(newAttemptRefusal([failed], 10, new Date(13 * minute))).toEqual({ reason: "wait", waitMs: 7 * minute });
    expect(newAttemptRefusal([failed], 10, new Date(20 * minute))).toBeNull();
    expect(newAttemptRefusal([failed], 0, new Date(10 * minute))).toBeNull();
  });

  it("is refused while the current attempt is unfinished, and once the quiz is passed", () => {
    expect(newAttemptRefusal([failed, unfinished], 10, new Date(60 * minute))).toEqual({ reason: "unfinished" });
    expect(newAttemptRefusal([], 10, new Date(0))).toEqual({ reason: "unfinished" });
    expect(newAttemptRefusal([passed], 10, new Date(60 * minute))).toEqual({ reason: "passed" });
    expect(nextAttemptAt([passed], 10)).toBeNull();
    expect(nextAttemptAt([failed, unfinished], 10)).toBeNull();
  });
});

describe("optionsInAttemptOrder", () => {
  const options = ["A) Buy", "B) Sell", "C) Hold", "D) Wait"];
  const seed = { userId: "learner-1", programId: "beginner", questionIndex: 0 };

  it("keeps every option with its own letter, the same order for the same attempt", () => {
    const order = optionsInAttemptOrder(options, seed, 1);
    expect([...order].sort()).toEqual(options);
    expect(optionsInAttemptOrder(options, seed, 1)).toEqual(order);
  });

  it("shows each attempt in an order other than the attempt before", () => {
    for (const two of [["A) Up", "B) Down"], options]) {
      for (let attempt = 2; attempt <= 12; attempt += 1) {
        expect(optionsInAttemptOrder(two, seed, attempt)).not.toEqual(optionsInAttemptOrder(two, seed, attempt - 1));
      }
    }
  });

  it("does not keep the right option in one place: its place is drawn, not chosen", () => {
    const places = new Set<number>();
    for (let attempt = 1; attempt <= 30; attempt += 1) {
      places.add(optionsInAttemptOrder(options, seed, attempt).findIndex((option) => optionLetter(option) === "B"));
    }
    expect(places.size).toBe(4);
  });

  it("keeps the admin's order when an option has no letter", () => {
    expect(optionsInAttemptOrder(["Buy", "B) Sell"], seed, 3)).toEqual(["Buy", "B) Sell"]);
  });
});
