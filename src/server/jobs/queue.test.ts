import { describe, expect, it } from "vitest";
import { retryDelayMs } from "./queue.ts";

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

describe("retryDelayMs", () => {
  it("waits 30 s after the first failure and doubles after each one", () => {
    expect(retryDelayMs(1)).toBe(30 * SECOND);
    expect(retryDelayMs(2)).toBe(1 * MINUTE);
    expect(retryDelayMs(3)).toBe(2 * MINUTE);
    expect(retryDelayMs(4)).toBe(4 * MINUTE);
    expect(retryDelayMs(7)).toBe(32 * MINUTE);
  });

  it("is capped at one hour", () => {
    expect(retryDelayMs(8)).toBe(HOUR);
    expect(retryDelayMs(20)).toBe(HOUR);
    expect(retryDelayMs(1000)).toBe(HOUR);
  });

  it("never goes below 30 s", () => {
    expect(retryDelayMs(0)).toBe(30 * SECOND);
    expect(retryDelayMs(-3)).toBe(30 * SECOND);
  });
});
