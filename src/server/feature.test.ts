import { describe, expect, it } from "vitest";
import { jobTable } from "./feature.ts";

const done = async () => undefined;

describe("jobTable", () => {
  it("gathers every feature's jobs by kind", () => {
    const receipt = async () => undefined;
    expect(jobTable([{ jobs: { receipt } }, {}, { jobs: { "sms.send": done } }])).toEqual({ receipt, "sms.send": done });
  });

  it("refuses a kind two features both handle", () => {
    expect(() => jobTable([{ jobs: { receipt: done } }, { jobs: { receipt: done } }])).toThrow('Two features handle the job kind "receipt"');
  });
});
