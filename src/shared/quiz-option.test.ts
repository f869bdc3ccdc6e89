import { describe, expect, it } from "vitest";
import { optionLetterOrPosition } from "./quiz-option.ts";

describe("optionLetterOrPosition", () => {
  it("is the option's own letter, wherever the option stands", () => {
    expect(optionLetterOrPosition("c) Hold", 0)).toBe("C");
  });

  it("is the position's letter for an option without one", () => {
    expect(optionLetterOrPosition("Hold", 0)).toBe("A");
    expect(optionLetterOrPosition("Hold", 2)).toBe("C");
  });
});
