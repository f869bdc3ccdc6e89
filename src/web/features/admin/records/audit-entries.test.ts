import { describe, expect, it } from "vitest";
import { changeLines } from "./audit-entries.tsx";

describe("changeLines", () => {
  it("reads a change of several fields as one line each, before and after, leaving out those that did not change", () => {
    const from = { plan: "free", end: null, queued: null, status: "inactive" };
    const to = { plan: "intermediate", end: "2026-12-24", queued: null, status: "inactive" };
    expect(changeLines({ from, to })).toEqual([
      { field: "plan", text: "free → intermediate" },
      { field: "end", text: "— → 2026-12-24" },
    ]);
  });

  it("names nested fields by their path, in words, and lists what is not a change as it is", () => {
    expect(
      changeLines({
        programId: "beginner",
        title: { from: "Basics", to: "Beginner Program" },
        refund: { amountMinor: 5000, status: "success" },
        modules: ["m1", "m2"],
        beginner: { from: { watched: 1 }, to: {} },
      }),
    ).toEqual([
      { field: "program id", text: "beginner" },
      { field: "title", text: "Basics → Beginner Program" },
      { field: "refund › amount minor", text: "5000" },
      { field: "refund › status", text: "success" },
      { field: "modules", text: "m1, m2" },
      { field: "beginner › watched", text: "1 → —" },
    ]);
  });

  it("lists the fields beside a change first, and shows instants in the reader's time zone", () => {
    const end = "2026-12-24T10:00:00.000Z";
    expect(changeLines({ track: "advanced", from: { plan: "free", end: null }, to: { plan: "advanced", end } })).toEqual([
      { field: "track", text: "advanced" },
      { field: "plan", text: "free → advanced" },
      { field: "end", text: `— → ${new Date(end).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" })}` },
    ]);
  });

  it("has nothing to say of an entry without changes, and shows a bare value as it is", () => {
    expect(changeLines(null)).toEqual([]);
    expect(changeLines({})).toEqual([]);
    expect(changeLines("admitted")).toEqual([{ field: null, text: "admitted" }]);
    expect(changeLines({ from: "free", to: "advanced" })).toEqual([{ field: null, text: "free → advanced" }]);
  });
});
