import { describe, expect, it } from "vitest";
import { watchedModuleIds } from "./progress.ts";

const IDS = ["m1", "m2", "m3"];

describe("watchedModuleIds", () => {
  it("lists the module ids marked true, in module order", () => {
    expect(watchedModuleIds({ m3: true, m1: true }, IDS)).toEqual(["m1", "m3"]);
  });

  it("is empty for an empty map", () => {
    expect(watchedModuleIds({}, IDS)).toEqual([]);
  });

  it("counts only the value true", () => {
    expect(watchedModuleIds({ m1: false, m2: "true", m3: 1 }, IDS)).toEqual([]);
    expect(watchedModuleIds({ m1: { watched: true }, m2: [true], m3: true }, IDS)).toEqual(["m3"]);
  });

  it("ignores ids of modules that do not exist", () => {
    expect(watchedModuleIds({ gone: true, m2: true, note: "hello" }, IDS)).toEqual(["m2"]);
  });

  it.each([
    ["text", "some text"],
    ["an empty string", ""],
    ["null", null],
    ["undefined", undefined],
    ["a number", 42],
    ["a boolean", true],
    ["an array", ["m1", "m2"]],
    ["an array of booleans", [true, true, true]],
  ])("counts %s (what an admin may store) as nothing watched", (_name, data) => {
    expect(watchedModuleIds(data, IDS)).toEqual([]);
  });

  it("does not count what objects inherit", () => {
    expect(watchedModuleIds({}, ["constructor", "toString", "__proto__", "hasOwnProperty"])).toEqual([]);
  });

  it("is empty when the program has no modules", () => {
    expect(watchedModuleIds({ m1: true }, [])).toEqual([]);
  });
});
