import { describe, expect, it } from "vitest";
import { ADMIN_MESSAGES } from "./contracts/admin.ts";
import { optionLetter } from "./quiz-option.ts";
import { answerLetter, checkQuestion } from "./quiz.ts";

describe("optionLetter", () => {
  it.each([
    ["A) The range between the open and the close", "A"],
    ["B) 100 USD", "B"],
    ["D)", "D"],
    ["  C) leading spaces", "C"],
    ["c) lowercase", "C"],
    ["Z) any letter", "Z"],
  ])("%j starts with the letter %s", (option, letter) => {
    expect(optionLetter(option)).toBe(letter);
  });

  it.each([
    ["no letter", "The range between the open and the close"],
    ["an empty option", ""],
    ["two letters", "AB) text"],
    ["a dot instead of a parenthesis", "A. text"],
    ["a letter in parentheses", "(A) text"],
    ["a digit", "1) text"],
    ["a space before the parenthesis", "A ) text"],
    ["a non-Latin letter", "É) text"],
  ])("is null for %s", (_name, option) => {
    expect(optionLetter(option)).toBeNull();
  });
});

describe("answerLetter", () => {
  it.each([["b"], ["B"], ["B)"], ["B) Sell"], [" b "]])("%j means B", (answer) => {
    expect(answerLetter(answer)).toBe("B");
  });

  it.each([["Sell"], ["BB"], [""], ["2"]])("%j is no letter", (answer) => {
    expect(answerLetter(answer)).toBeNull();
  });
});

describe("checkQuestion", () => {
  const question = { question: "Which way?", options: ["A) Up", "B) Down"], answer: "b) down" };

  it("stores the answer as the letter", () => {
    expect(checkQuestion(question)).toEqual({ question: { ...question, answer: "B" } });
  });

  it("refuses an option without a letter", () => {
    expect(checkQuestion({ ...question, options: ["A) Up", "Down"] })).toEqual({ error: ADMIN_MESSAGES.optionFormat });
  });

  it("refuses an answer that is not one of the options", () => {
    expect(checkQuestion({ ...question, answer: "C" })).toEqual({ error: ADMIN_MESSAGES.answerNotOption });
  });
});
