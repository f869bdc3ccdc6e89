import { describe, expect, it } from "vitest";
import { isCertificateId, normalizeCertificateId } from "../../../shared/contracts/certificates.ts";
import { newCertificateId } from "./certificates.ts";
import { completionOf, passMarkOf } from "./completion.ts";

const moduleIds = ["m1", "m2", "m3"];
const right = (...indexes: number[]) => indexes.map((questionIndex) => ({ questionIndex, correct: true }));

describe("completionOf (docs/product.md, Completion and certificates)", () => {
  it("needs every video watched and, by default, every question right", () => {
    const quiz = { questionCount: 3, passMark: null };
    expect(completionOf({ moduleIds, watched: moduleIds, quiz, answers: right(0, 1, 2) })).toEqual({
      complete: true,
      quizPassed: true,
      passMark: 3,
    });
    expect(completionOf({ moduleIds, watched: moduleIds, quiz, answers: right(0, 1) })).toMatchObject({
      complete: false,
      quizPassed: false,
    });
    expect(completionOf({ moduleIds, watched: ["m1", "m3"], quiz, answers: right(0, 1, 2) })).toMatchObject({
      complete: false,
      quizPassed: true,
    });
  });

  it("counts only correct latest answers to questions the quiz has", () => {
    const quiz = { questionCount: 2, passMark: null };
    const answers = [...right(0, 5), { questionIndex: 1, correct: false }];
    expect(completionOf({ moduleIds, watched: moduleIds, quiz, answers }).quizPassed).toBe(false);
  });

  it("passes with the admin's pass mark", () => {
    const quiz = { questionCount: 5, passMark: 3 };
    expect(completionOf({ moduleIds, watched: moduleIds, quiz, answers: right(0, 4) }).complete).toBe(false);
    expect(completionOf({ moduleIds, watched: moduleIds, quiz, answers: right(0, 2, 4) })).toEqual({
      complete: true,
      quizPassed: true,
      passMark: 3,
    });
  });

  it("without a quiz, is complete once every video is watched; without videos, never", () => {
    expect(completionOf({ moduleIds, watched: moduleIds, quiz: null, answers: [] })).toEqual({
      complete: true,
      quizPassed: false,
      passMark: 0,
    });
    expect(completionOf({ moduleIds: [], watched: [], quiz: null, answers: [] }).complete).toBe(false);
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
