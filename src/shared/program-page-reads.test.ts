import { describe, expect, it } from "vitest";
import { programPageReads } from "./program-page-reads.ts";

describe("programPageReads", () => {
  it("is the track for a program's address, and its positions and the lesson's notes for a lesson's", () => {
    expect(programPageReads("/program/beginner")?.paths).toEqual(["/api/programs/beginner"]);
    expect(programPageReads("/program/beginner/0b6e2c1e-8d1f-4b44-9a8e-5a2d7f3c9e10")).toEqual({
      track: "beginner",
      lessonId: "0b6e2c1e-8d1f-4b44-9a8e-5a2d7f3c9e10",
      paths: [
        "/api/programs/beginner",
        "/api/programs/beginner/positions",
        "/api/programs/beginner/modules/0b6e2c1e-8d1f-4b44-9a8e-5a2d7f3c9e10",
      ],
    });
  });

  it("reads only the track on the completion step", () => {
    expect(programPageReads("/program/beginner/complete")?.paths).toEqual(["/api/programs/beginner"]);
  });

  it("keeps an address's parts encoded as the API expects them", () => {
    expect(programPageReads("/program/risk%20management/a%2Fb")?.paths).toEqual([
      "/api/programs/risk%20management",
      "/api/programs/risk%20management/positions",
      "/api/programs/risk%20management/modules/a%2Fb",
    ]);
  });

  it("is nothing for other pages, or for an address that is not valid percent-encoding", () => {
    expect(programPageReads("/program")).toBeNull();
    expect(programPageReads("/subscription")).toBeNull();
    expect(programPageReads("/program/%E0%A4%A")).toBeNull();
  });
});
