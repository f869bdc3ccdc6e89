// docs/architecture.md's seams table is the one `npm run docs:seams` makes from the *.seam.ts files:
// a seam added, dropped or used by a new feature changes the page in the same commit.
import { describe, expect, it } from "vitest";
import { findSeams, seamsTable, tableInPage } from "../scripts/seams.ts";

describe("the seams table", () => {
  it("is in docs/architecture.md as the seam files make it (npm run docs:seams writes it)", () => {
    expect(tableInPage()).toBe(seamsTable());
  });

  it("names, for every seam, what it offers, who uses it and why", () => {
    for (const seam of findSeams()) {
      expect(seam.offers.length, seam.path).toBeGreaterThan(0);
      expect(seam.usedBy.length, `${seam.path}: a seam nobody uses is dead code`).toBeGreaterThan(0);
      expect(seam.why.length, `${seam.path}: its opening comment says why it is shared`).toBeGreaterThan(20);
    }
  });
});
