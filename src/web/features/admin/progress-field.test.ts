import { describe, expect, it } from "vitest";
import { formatProgressField, parseProgressField } from "./progress-field.ts";

describe("parseProgressField (docs/product.md, Admin console: JSON when valid, else text)", () => {
  it("parses a JSON map of watched videos", () => {
    expect(parseProgressField('{ "m1": true, "m2": true }')).toEqual({ m1: true, m2: true });
  });

  it("parses any valid JSON value, surrounding blanks included", () => {
    expect(parseProgressField("  [1, 2]\n")).toEqual([1, 2]);
    expect(parseProgressField("42")).toBe(42);
    expect(parseProgressField('"done"')).toBe("done");
    expect(parseProgressField("null")).toBeNull();
  });

  it("keeps text that is not JSON exactly as typed", () => {
    expect(parseProgressField("finished week 2 ")).toBe("finished week 2 ");
    expect(parseProgressField('{ "m1": true, }')).toBe('{ "m1": true, }');
  });

  it("saves an empty or blank field as an empty map", () => {
    expect(parseProgressField("")).toEqual({});
    expect(parseProgressField(" \n\t")).toEqual({});
  });
});

describe("formatProgressField", () => {
  it("shows nothing for a track without an entry", () => {
    expect(formatProgressField(null)).toBe("");
    expect(formatProgressField(undefined)).toBe("");
  });

  it("shows a text entry as its raw text", () => {
    expect(formatProgressField("finished week 2")).toBe("finished week 2");
  });

  it("shows anything else as indented JSON that parses back to the same value", () => {
    const data = { m1: true, quiz: { score: 3 } };
    const text = formatProgressField(data);
    expect(text).toBe('{\n  "m1": true,\n  "quiz": {\n    "score": 3\n  }\n}');
    expect(parseProgressField(text)).toEqual(data);
    expect(formatProgressField({})).toBe("{}");
  });
});
