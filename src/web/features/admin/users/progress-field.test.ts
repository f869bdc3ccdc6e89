import { describe, expect, it } from "vitest";
import type { UserProgress } from "../../../../shared/contracts/admin.ts";
import { initialMarks, progressUpdate, withMark } from "./progress-field.ts";

const TRACKS: UserProgress["tracks"] = [
  {
    track: "beginner",
    title: "Beginner Program",
    modules: [
      { id: "b1", title: "Welcome", watched: true },
      { id: "b2", title: "Candles", watched: false },
    ],
    quiz: null,
  },
  { track: "intermediate", title: "Intermediate Program", modules: [{ id: "i1", title: "Patterns", watched: false }], quiz: null },
];

describe("Edit Progress's form (docs/product.md, Admin console)", () => {
  it("opens with the stored videos ticked", () => {
    const marks = initialMarks(TRACKS);
    expect([...(marks.get("beginner") ?? [])]).toEqual(["b1"]);
    expect([...(marks.get("intermediate") ?? [])]).toEqual([]);
  });

  it("sends nothing when nothing changed", () => {
    expect(progressUpdate(TRACKS, initialMarks(TRACKS))).toEqual({});
  });

  it("sends each changed program with every one of its videos true or false", () => {
    let marks = withMark(initialMarks(TRACKS), "beginner", "b1", false);
    marks = withMark(marks, "beginner", "b2", true);
    expect(progressUpdate(TRACKS, marks)).toEqual({ beginner: { b1: false, b2: true } });

    marks = withMark(marks, "intermediate", "i1", true);
    expect(progressUpdate(TRACKS, marks)).toEqual({ beginner: { b1: false, b2: true }, intermediate: { i1: true } });
  });

  it("sends a program ticked back to how it was as unchanged", () => {
    const marks = withMark(withMark(initialMarks(TRACKS), "beginner", "b2", true), "beginner", "b2", false);
    expect(progressUpdate(TRACKS, marks)).toEqual({});
  });
});
