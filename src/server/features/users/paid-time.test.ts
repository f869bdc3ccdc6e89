// addPaidMonth and planSetByAdmin, the rules of docs/subscriptions.md, "Paid time is never lost", case by case.
import { describe, expect, it } from "vitest";
import { addPaidMonth, paidMonthOf, planSetByAdmin } from "./users.service.ts";

const at = (iso: string) => new Date(iso);
const now = at("2027-01-20T12:00:00.000Z");
const base = {
  subscriptionPlan: "legacyFree" as const,
  subscriptionStatus: "inactive" as const,
  subscriptionStart: null,
  subscriptionEnd: null,
  queuedPlan: null,
  queuedEnd: null,
};

describe("addPaidMonth", () => {
  // An Intermediate month that ended 20 January 2027 at 11:55, 5 minutes before now, running on
  // for its automatic renewal (docs/subscriptions.md, "Automatic renewal").
  const renewing = {
    ...base,
    subscriptionPlan: "intermediate" as const,
    subscriptionStatus: "active" as const,
    subscriptionStart: at("2026-12-20T11:55:00.000Z"),
    subscriptionEnd: at("2027-01-20T11:55:00.000Z"),
    autoRenew: true,
    renewalFailedFor: null,
  };

  it("a period running on for its renewal: the renewed month starts at its end, not now", () => {
    expect(addPaidMonth(renewing, "intermediate", now)).toMatchObject({
      subscriptionStart: renewing.subscriptionStart,
      subscriptionEnd: at("2027-02-20T11:55:00.000Z"),
      queuedPlan: null,
    });
    expect(paidMonthOf(renewing, "intermediate", now)).toEqual({ start: at("2027-01-20T11:55:00.000Z"), end: at("2027-02-20T11:55:00.000Z") });
  });

  it("an upgrade while a period runs on for its renewal starts now, with nothing left of it to queue", () => {
    expect(addPaidMonth(renewing, "advanced", now)).toEqual({
      ...base,
      subscriptionPlan: "advanced",
      subscriptionStatus: "active",
      subscriptionStart: now,
      subscriptionEnd: at("2027-02-20T12:00:00.000Z"),
    });
  });

  it("with nothing running, starts a month now", () => {
    expect(addPaidMonth(base, "intermediate", now)).toEqual({
      ...base,
      subscriptionPlan: "intermediate",
      subscriptionStatus: "active",
      subscriptionStart: now,
      subscriptionEnd: at("2027-02-20T12:00:00.000Z"),
    });
  });

  it("the same plan: a month at its end, and the queued time moved by as much (a short month included)", () => {
    const running = {
      ...base,
      subscriptionPlan: "advanced" as const,
      subscriptionStatus: "active" as const,
      subscriptionStart: at("2026-12-31T09:00:00.000Z"),
      subscriptionEnd: at("2027-01-31T09:00:00.000Z"),
      queuedPlan: "intermediate" as const,
      queuedEnd: at("2027-02-10T09:00:00.000Z"),
    };
    const next = addPaidMonth(running, "advanced", now);
    expect(next).toMatchObject({ subscriptionPlan: "advanced", subscriptionStart: running.subscriptionStart, queuedPlan: "intermediate" });
    const end = next.subscriptionEnd;
    if (!end || !next.queuedEnd) throw new Error("no period");
    // January 31st plus a month is February's last day; the 10 queued days stay 10 days.
    expect(end.toISOString()).toBe("2027-02-28T09:00:00.000Z");
    expect(next.queuedEnd.getTime() - end.getTime()).toBe(10 * 24 * 3_600_000);
  });

  it("a lower plan: queued after the period, then a month more of it", () => {
    const running = {
      ...base,
      subscriptionPlan: "advanced" as const,
      subscriptionStatus: "active" as const,
      subscriptionStart: at("2027-01-01T00:00:00.000Z"),
      subscriptionEnd: at("2027-02-01T00:00:00.000Z"),
    };
    const once = addPaidMonth(running, "intermediate", now);
    expect(once).toEqual({ ...running, queuedPlan: "intermediate", queuedEnd: at("2027-03-01T00:00:00.000Z") });
    expect(addPaidMonth(once, "intermediate", now)).toEqual({ ...once, queuedEnd: at("2027-04-01T00:00:00.000Z") });
  });

  it("a higher plan: starts now, with the lower plan's unused time queued after it", () => {
    const running = {
      ...base,
      subscriptionPlan: "intermediate" as const,
      subscriptionStatus: "active" as const,
      subscriptionStart: at("2027-01-10T00:00:00.000Z"),
      subscriptionEnd: at("2027-02-10T00:00:00.000Z"),
    };
    expect(addPaidMonth(running, "advanced", now)).toEqual({
      subscriptionPlan: "advanced",
      subscriptionStatus: "active",
      subscriptionStart: now,
      subscriptionEnd: at("2027-02-20T12:00:00.000Z"),
      queuedPlan: "intermediate",
      // 20 days and 12 hours were left of Intermediate.
      queuedEnd: at("2027-03-13T00:00:00.000Z"),
    });
  });

  it("after the period ended but before the expiry job ran, the queued plan is what runs", () => {
    const handedOver = {
      ...base,
      subscriptionPlan: "advanced" as const,
      subscriptionStatus: "active" as const,
      subscriptionStart: at("2026-12-20T00:00:00.000Z"),
      subscriptionEnd: at("2027-01-20T00:00:00.000Z"),
      queuedPlan: "intermediate" as const,
      queuedEnd: at("2027-02-20T00:00:00.000Z"),
    };
    expect(addPaidMonth(handedOver, "intermediate", now)).toEqual({
      ...base,
      subscriptionPlan: "intermediate",
      subscriptionStatus: "active",
      subscriptionStart: at("2027-01-20T00:00:00.000Z"),
      subscriptionEnd: at("2027-03-20T00:00:00.000Z"),
    });
  });

  it("an administrator keeps the admin plan", () => {
    const admin = { ...base, subscriptionPlan: "admin" as const };
    expect(addPaidMonth(admin, "advanced", now)).toEqual(admin);
  });
});

describe("planSetByAdmin", () => {
  const advancedThenIntermediate = {
    ...base,
    subscriptionPlan: "advanced" as const,
    subscriptionStatus: "active" as const,
    subscriptionStart: at("2027-01-01T00:00:00.000Z"),
    subscriptionEnd: at("2027-01-25T12:00:00.000Z"),
    queuedPlan: "intermediate" as const,
    queuedEnd: at("2027-02-04T12:00:00.000Z"),
  };
  const tenDays = 10 * 24 * 60 * 60 * 1000;

  it("a paid plan runs a month from now, and a lower plan's queued time follows it, as long as it was", () => {
    expect(planSetByAdmin(advancedThenIntermediate, "advanced", now)).toEqual({
      subscriptionPlan: "advanced",
      subscriptionStatus: "active",
      subscriptionStart: now,
      subscriptionEnd: at("2027-02-20T12:00:00.000Z"),
      queuedPlan: "intermediate",
      queuedEnd: new Date(at("2027-02-20T12:00:00.000Z").getTime() + tenDays),
    });
  });

  it("queued time of the same plan is added to the new month", () => {
    expect(planSetByAdmin(advancedThenIntermediate, "intermediate", now)).toMatchObject({
      subscriptionPlan: "intermediate",
      subscriptionEnd: new Date(at("2027-02-20T12:00:00.000Z").getTime() + tenDays),
      queuedPlan: null,
      queuedEnd: null,
    });
  });

  it("Free or Admin ends every paid period, queued included", () => {
    for (const plan of ["legacyFree", "admin"] as const) {
      expect(planSetByAdmin(advancedThenIntermediate, plan, now)).toEqual({ ...base, subscriptionPlan: plan });
    }
  });

  it("with nothing queued, a month from now and nothing after it", () => {
    expect(planSetByAdmin(base, "intermediate", now)).toEqual({
      ...base,
      subscriptionPlan: "intermediate",
      subscriptionStatus: "active",
      subscriptionStart: now,
      subscriptionEnd: at("2027-02-20T12:00:00.000Z"),
    });
  });
});

// A cohort's month (docs/subscriptions.md, "Admit from waitlist"): counted from the cohort's start
// when admitted before it; access opens at admission all the same.
describe("addPaidMonth from a cohort's start", () => {
  const cohortStart = at("2027-04-01T00:00:00.000Z");
  const intermediateUntil = (end: string) => ({
    ...base,
    subscriptionPlan: "intermediate" as const,
    subscriptionStatus: "active" as const,
    subscriptionStart: at("2027-01-01T00:00:00.000Z"),
    subscriptionEnd: at(end),
  });

  it("with nothing running: open now, the month from the start", () => {
    expect(addPaidMonth(base, "advanced", now, cohortStart)).toMatchObject({
      subscriptionPlan: "advanced",
      subscriptionStart: now,
      subscriptionEnd: at("2027-05-01T00:00:00.000Z"),
    });
    expect(paidMonthOf(base, "advanced", now, cohortStart)).toEqual({ start: cohortStart, end: at("2027-05-01T00:00:00.000Z") });
  });

  it("the same plan ending before the start: the month from the start; ending after it: a month after its end", () => {
    expect(addPaidMonth(intermediateUntil("2027-02-10T00:00:00.000Z"), "intermediate", now, cohortStart).subscriptionEnd).toEqual(
      at("2027-05-01T00:00:00.000Z"),
    );
    expect(addPaidMonth(intermediateUntil("2027-04-10T00:00:00.000Z"), "intermediate", now, cohortStart).subscriptionEnd).toEqual(
      at("2027-05-10T00:00:00.000Z"),
    );
  });

  it("a higher plan: runs now to a month after the start, the lower plan's days left queued after it", () => {
    const next = addPaidMonth(intermediateUntil("2027-01-30T12:00:00.000Z"), "advanced", now, cohortStart);
    expect(next).toMatchObject({
      subscriptionPlan: "advanced",
      subscriptionStart: now,
      subscriptionEnd: at("2027-05-01T00:00:00.000Z"),
      queuedPlan: "intermediate",
      queuedEnd: at("2027-05-11T00:00:00.000Z"),
    });
  });

  it("a start already passed changes nothing: the month from now", () => {
    expect(addPaidMonth(base, "intermediate", now, at("2027-01-01T00:00:00.000Z"))).toEqual(addPaidMonth(base, "intermediate", now));
  });
});

