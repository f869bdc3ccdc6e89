import { describe, expect, it } from "vitest";
import { waitInWords } from "./quiz-attempts.ts";

describe("waitInWords (docs/product.md, Quiz attempts)", () => {
  it.each([
    [0, "1 second"],
    [1_000, "1 second"],
    [44_200, "45 seconds"],
    [60_000, "1 minute"],
    [6 * 60_000 + 1, "7 minutes"],
    [60 * 60_000, "1 hour"],
    [125 * 60_000, "2 hours 5 minutes"],
    [24 * 60 * 60_000, "1 day"],
    [27 * 60 * 60_000 - 1, "1 day 3 hours"],
  ])("%i ms is %s", (ms, words) => {
    expect(waitInWords(ms)).toBe(words);
  });
});
