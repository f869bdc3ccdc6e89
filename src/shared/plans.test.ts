// The effective plan while an automatic renewal is due or under way (docs/subscriptions.md,
// "Automatic renewal"), at the edges of its hold, worked out by hand.
import { describe, expect, it } from "vitest";
import { effectivePlan, paidTime, renewalHoldEnd, type Entitlement } from "./plans.ts";

const at = (iso: string) => new Date(iso);

// An Intermediate month ending Wednesday 3 March 2027 at 00:05 UTC. Its renewal is due that day;
// the hold runs out at the end of the next day, Friday 5 March 2027 at 00:00 UTC.
const END = at("2027-03-03T00:05:00Z");
const month: Entitlement = {
  subscriptionPlan: "intermediate",
  subscriptionStatus: "active",
  subscriptionStart: at("2027-02-03T00:05:00Z"),
  subscriptionEnd: END,
  queuedPlan: null,
  queuedEnd: null,
};
const renewing: Entitlement = { ...month, autoRenew: true, renewalFailedFor: null };

describe("a period whose automatic renewal is due or under way", () => {
  it("runs on from its end to the end of the next UTC day, and no further", () => {
    expect(renewalHoldEnd(END)).toEqual(at("2027-03-05T00:00:00Z"));
    expect(effectivePlan(renewing, at("2027-03-03T00:05:00Z"))).toBe("intermediate");
    expect(effectivePlan(renewing, at("2027-03-04T23:59:59.999Z"))).toBe("intermediate");
    expect(effectivePlan(renewing, at("2027-03-05T00:00:00Z"))).toBe("legacyFree");
    // Still the same period, ending where it ended: the renewed month is added at that end.
    expect(paidTime(renewing, at("2027-03-03T00:14:00Z")).current).toEqual({ plan: "intermediate", start: month.subscriptionStart, end: END });
  });

  it("ends at its end without automatic renewal, once its renewal failed, or once it expired", () => {
    const now = at("2027-03-03T00:10:00Z");
    expect(effectivePlan(month, now)).toBe("legacyFree");
    expect(effectivePlan({ ...renewing, autoRenew: false }, now)).toBe("legacyFree");
    expect(effectivePlan({ ...renewing, renewalFailedFor: END }, now)).toBe("legacyFree");
    expect(effectivePlan({ ...renewing, subscriptionStatus: "expired" }, now)).toBe("legacyFree");
    // A failure of an earlier period's renewal does not end this one.
    expect(effectivePlan({ ...renewing, renewalFailedFor: at("2027-02-03T00:05:00Z") }, now)).toBe("intermediate");
  });

  it("is the last paid time: Intermediate queued after Advanced runs on past its own end", () => {
    // Advanced to 3 March 00:05, then Intermediate queued to 13 March 00:05.
    const queued: Entitlement = { ...renewing, subscriptionPlan: "advanced", queuedPlan: "intermediate", queuedEnd: at("2027-03-13T00:05:00Z") };
    expect(effectivePlan(queued, at("2027-03-13T00:10:00Z"))).toBe("intermediate");
    expect(effectivePlan(queued, at("2027-03-15T00:00:00Z"))).toBe("legacyFree");
  });
});
