// The server starts only on a supported Node, and the tests themselves run on one
// (docs/operations.md, "Runtime").
import { describe, expect, it } from "vitest";
import { OLDEST_SUPPORTED_NODE, unsupportedNodeProblem } from "./runtime.ts";

describe("the Node the server runs on", () => {
  it("is Node 24 or newer, as package.json's engines say", () => {
    expect(OLDEST_SUPPORTED_NODE).toBeGreaterThanOrEqual(24);
  });

  it("refuses a release past its end of life in one line naming it and the one to run", () => {
    expect(unsupportedNodeProblem("20.20.2")).toBe("Node 20.20.2 is past its end of life: run the server on Node 24 or newer.");
    expect(unsupportedNodeProblem("22.11.0")).toMatch(/^Node 22\.11\.0 is past its end of life/);
  });

  it("accepts the supported release and later ones", () => {
    expect(unsupportedNodeProblem("24.0.0")).toBeNull();
    expect(unsupportedNodeProblem("26.10.0")).toBeNull();
  });

  it("is what this suite runs on: the npm scripts run the project's own Node", () => {
    expect(unsupportedNodeProblem()).toBeNull();
  });
});
