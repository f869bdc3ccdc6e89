import { describe, expect, it } from "vitest";
import { isCertificateId, normalizeCertificateId } from "../../../shared/contracts/certificates.ts";
import { newCertificateId } from "./certificates.ts";
import { completionOf, passMarkOf } from "./completion.ts";

const moduleIds = ["m1", "m2", "m3"];
/** One attempt whose first answers are `firstAnswers` (question index to right or wrong). */
const attempt = (firstAnswers: Record<number, boolean>, number = 1) => ({
  number,
  startedAt: 0,
  answeredAt: 1,
  firstAnswers: Object.fromEntries(Object.entries(firstAnswers).map(([index, correct]) => [index, correct])),
});
const right = (...indexes: number[]) => [attempt(Object.fromEntries(indexes.map((index) => [index, true])))];

describe("completionOf (docs/product.md, Completion and certificates)", () => {
  it("needs every video watched and, by default, every question right", () => {
    const quiz = { questionCount: 3, passMark: null };
    expect(completionOf({ moduleIds, watched: moduleIds, quiz, attempts: right(0, 1, 2) })).toEqual({
      complete: true,
      quizPassed: true,
      passMark: 3,
    });
    expect(completionOf({ moduleIds, watched: moduleIds, quiz, attempts: right(0, 1) })).toMatchObject({
      complete: false,
      quizPassed: false,
    });
    expect(completionOf({ moduleIds, watched: ["m1", "m3"], quiz, attempts: right(0, 1, 2) })).toMatchObject({
      complete: false,
      quizPassed: true,
    });
  });

  it("counts only right first answers to questions the quiz has", () => {
    const quiz = { questionCount: 2, passMark: null };
    const attempts = [attempt({ 0: true, 5: true, 1: false })];
    expect(completionOf({ moduleIds, watched: moduleIds, quiz, attempts }).quizPassed).toBe(false);
  });

  it("needs one attempt at the pass mark: attempts do not add up (docs/product.md, Quiz attempts)", () => {
    const quiz = { questionCount: 3, passMark: 2 };
    const split = [attempt({ 0: true, 1: false, 2: false }), attempt({ 0: false, 1: true, 2: false }, 2)];
    expect(completionOf({ moduleIds, watched: moduleIds, quiz, attempts: split }).quizPassed).toBe(false);
    const later = [...split, attempt({ 0: true, 1: false, 2: true }, 3)];
    expect(completionOf({ moduleIds, watched: moduleIds, quiz, attempts: later })).toEqual({ complete: true, quizPassed: true, passMark: 2 });
  });

  it("passes with the admin's pass mark", () => {
    const quiz = { questionCount: 5, passMark: 3 };
    expect(completionOf({ moduleIds, watched: moduleIds, quiz, attempts: right(0, 4) }).complete).toBe(false);
    expect(completionOf({ moduleIds, watched: moduleIds, quiz, attempts: right(0, 2, 4) })).toEqual({
      complete: true,
      quizPassed: true,
      passMark: 3,
    });
  });

  it("without a quiz, is complete once every video is watched; without videos, never", () => {
    expect(completionOf({ moduleIds, watched: moduleIds, quiz: null, attempts: [] })).toEqual({
      complete: true,
      quizPassed: false,
      passMark: 0,
    });
    expect(completionOf({ moduleIds: [], watched: [], quiz: null, attempts: [] }).complete).toBe(false);
  });
});

describe("passMarkOf", () => {
  it.each([
    [null, 4, 4],
    [2, 4, 2],
    [9, 4, 4],
    [0, 4, 1],
  ])("pass mark %s of %i questions is %i", (passMark, questionCount, expected) => {
    expect(passMarkOf({ questionCount, passMark })).toBe(expected);
  });
});

describe("certificate numbers", () => {
  it("are TA- and ten characters of Crockford's base 32, each new", () => {
    const ids = Array.from({ length: 200 }, newCertificateId);
    for (const id of ids) expect(isCertificateId(id)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("read as people type them", () => {
    expect(normalizeCertificateId(" ta-0123456789 ")).toBe("TA-0123456789");
    expect(normalizeCertificateId("TA-O1IL2abcde")).toBe("TA-01112ABCDE");
    expect(isCertificateId(normalizeCertificateId("TA-UUUUUUUUUU"))).toBe(false);
  });
});
