import { describe, expect, it } from "vitest";
import { sectionTitle } from "./section-title.ts";

describe("sectionTitle (docs/product.md, Track page)", () => {
  it("numbers a module by its place", () => {
    expect(sectionTitle(2, "Risk management")).toBe("Section 2: Risk management");
  });

  it("never shows a number twice, whatever number the title was typed with", () => {
    expect(sectionTitle(1, "Section 1: Welcome to the markets")).toBe("Section 1: Welcome to the markets");
    expect(sectionTitle(3, "section 1 - Welcome")).toBe("Section 3: Welcome");
    expect(sectionTitle(1, "  Section 12. Welcome")).toBe("Section 1: Welcome");
  });

  it("keeps a title that only mentions sections", () => {
    expect(sectionTitle(1, "Sections of a chart")).toBe("Section 1: Sections of a chart");
    expect(sectionTitle(1, "Section 1")).toBe("Section 1: Section 1");
  });
});
