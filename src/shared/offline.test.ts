// What the service worker keeps for offline (docs/product.md, "Offline"): the reads a page opened
// before shows again, and never a write or anything else.
import { describe, expect, it } from "vitest";
import { isCachedApiRead } from "./offline.ts";

describe("isCachedApiRead", () => {
  it("keeps a lesson's notes and its chart exercise, the bars the learner was shown (docs/trading.md, \"Exercises\")", () => {
    expect(isCachedApiRead("/api/programs/beginner/modules/m-1")).toBe(true);
    expect(isCachedApiRead("/api/programs/beginner/modules/m-1/exercise")).toBe(true);
  });

  it("keeps nothing else of an exercise: its steps, answers and attempts are writes, its bars by place a read of its own", () => {
    for (const path of ["step", "submissions", "attempts", "bars"]) {
      expect(isCachedApiRead(`/api/programs/beginner/modules/m-1/exercise/${path}`), path).toBe(false);
    }
    expect(isCachedApiRead("/api/admin/price-data")).toBe(false);
  });
});
