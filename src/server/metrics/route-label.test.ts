import { describe, expect, it } from "vitest";
import { routeLabel } from "./metrics.routes.ts";

describe("the route label of the request metrics", () => {
  it("keeps the API's route patterns", () => {
    expect(routeLabel("/api/programs/:track")).toBe("/api/programs/:track");
    expect(routeLabel("/metrics")).toBe("/metrics");
    expect(routeLabel("/dev/mail")).toBe("/dev/mail");
  });

  it("names every file of the built web app alike, whatever the build called it", () => {
    expect(routeLabel("/assets/vendor-sHGDSY1g.js")).toBe("static");
    expect(routeLabel("/assets/vendor-sHGDSY1g.js.br")).toBe("static");
    expect(routeLabel("/favicon.svg")).toBe("static");
  });

  it("says unmatched when no route answered", () => {
    expect(routeLabel(undefined)).toBe("unmatched");
  });
});
