import { describe, expect, it } from "vitest";
import {
  cediAmountPesewas,
  checkEligibility,
  nextCohort,
  priceAtRateText,
  paymentReference,
  remainingDays,
  remainingDaysLabel,
  subscriptionPaymentOutcome,
} from "./billing.ts";
import { paymentOutcomeMessage } from "./contracts/billing.ts";

const at = (iso: string) => new Date(iso);
const DAY = 24 * 60 * 60 * 1000;

describe("cediAmountPesewas", () => {
  it("multiplies by the rate, rounds to whole cedis, then converts to pesewas", () => {
    expect(cediAmountPesewas(35, 15.45)).toBe(54_100); // 540.75 -> 541 cedis
    expect(cediAmountPesewas(50, 15.45)).toBe(77_300); // 772.5 -> 773 cedis (half rounds up)
    expect(cediAmountPesewas(100, 12)).toBe(120_000);
    expect(cediAmountPesewas(35, 15.41)).toBe(53_900); // 539.35 -> 539 cedis
  });
});

describe("remainingDays", () => {
  const now = at("2026-11-21T12:00:00Z");
  it("is the ceiling of the days left, never negative", () => {
    expect(remainingDays(new Date(now.getTime() + 10 * DAY), now)).toBe(10);
    expect(remainingDays(new Date(now.getTime() + 10 * DAY - 1), now)).toBe(10);
    expect(remainingDays(new Date(now.getTime() + 1), now)).toBe(1);
    expect(remainingDays(now, now)).toBe(0);
    expect(remainingDays(new Date(now.getTime() - DAY), now)).toBe(0);
  });
  it("reads as the spec says", () => {
    expect(remainingDaysLabel(0)).toBe("Expires Today");
    expect(remainingDaysLabel(1)).toBe("1 day");
    expect(remainingDaysLabel(12)).toBe("12 days");
  });
});

describe("nextCohort", () => {
  it.each([
    ["2026-01-01T00:00:00Z", "April 2026"],
    ["2026-03-31T23:59:59Z", "April 2026"],
    ["2026-04-01T00:00:00Z", "July 2026"],
    ["2026-06-30T23:59:59Z", "July 2026"],
    ["2026-07-01T00:00:00Z", "October 2026"],
    ["2026-09-30T23:59:59Z", "October 2026"],
    ["2026-10-01T00:00:00Z", "January 2027"],
    ["2026-12-31T23:59:59Z", "January 2027"],
  ])("on %s the next cohort is %s", (date, name) => {
    expect(nextCohort(at(date)).name).toBe(name);
  });
  it("gives the start date", () => {
    expect(nextCohort(at("2026-11-21T00:00:00Z")).startsOn).toBe("2027-01-01");
  });
});

describe("paymentReference", () => {
  it("follows LTF-{PLAN}-{timestamp} and LTF-WAITLIST-{PLAN}-{timestamp}", () => {
    expect(paymentReference("subscription", "intermediate", 1795263013137)).toBe("LTF-INTERMEDIATE-1795263013137");
    expect(paymentReference("waitlist", "advanced", 1795263013137)).toBe("LTF-WAITLIST-ADVANCED-1795263013137");
    expect(paymentReference("waitlist", "advanced", 1)).toMatch(/^[A-Za-z0-9.=-]+$/);
  });
});

describe("checkEligibility", () => {
  const now = at("2026-11-21T12:00:00Z");
  const endIn = (days: number) => new Date(now.getTime() + days * DAY);

  it("lets free and lapsed users buy any paid plan", () => {
    expect(checkEligibility({ plan: "legacyFree", subscriptionEnd: null }, "advanced", now).canChange).toBe(true);
    expect(checkEligibility({ plan: "legacyFree", subscriptionEnd: endIn(-3) }, "intermediate", now).canChange).toBe(true);
  });
  it("lets Intermediate move up to Advanced at any time", () => {
    expect(checkEligibility({ plan: "intermediate", subscriptionEnd: endIn(25) }, "advanced", now)).toEqual({
      canChange: true,
      reason: null,
      daysToWait: 0,
    });
  });
  it("opens renewal and changes in the last 7 days", () => {
    expect(checkEligibility({ plan: "intermediate", subscriptionEnd: endIn(7) }, "intermediate", now).canChange).toBe(true);
    expect(checkEligibility({ plan: "advanced", subscriptionEnd: endIn(3) }, "intermediate", now).canChange).toBe(true);
  });
  it("otherwise says how long to wait", () => {
    const result = checkEligibility({ plan: "advanced", subscriptionEnd: endIn(20) }, "intermediate", now);
    expect(result.canChange).toBe(false);
    expect(result.daysToWait).toBe(13);
    expect(result.reason).toMatch(/last 7 days/);
    expect(checkEligibility({ plan: "intermediate", subscriptionEnd: endIn(8) }, "intermediate", now).daysToWait).toBe(1);
  });
  it("has nothing to sell to an administrator", () => {
    expect(checkEligibility({ plan: "admin", subscriptionEnd: null }, "advanced", now).canChange).toBe(false);
  });
});

describe("subscriptionPaymentOutcome (docs/subscriptions.md, Paid time is never lost)", () => {
  it("calls a month of the plan held a renewal, of a lower plan queued, and anything else an upgrade", () => {
    expect(subscriptionPaymentOutcome("intermediate", "intermediate")).toBe("renewed");
    expect(subscriptionPaymentOutcome("advanced", "intermediate")).toBe("queued");
    expect(subscriptionPaymentOutcome("intermediate", "advanced")).toBe("success");
    expect(subscriptionPaymentOutcome("legacyFree", "intermediate")).toBe("success");
    expect(subscriptionPaymentOutcome(null, "advanced")).toBe("success");
  });

  it("has a sentence for each outcome on the program list, the spec's for an upgrade", () => {
    expect(paymentOutcomeMessage("success")).toBe("Payment verified! Your plan has been upgraded.");
    expect(paymentOutcomeMessage("renewed")).toMatch(/renewed/);
    expect(paymentOutcomeMessage("renewed")).not.toMatch(/upgraded/);
    expect(paymentOutcomeMessage("queued")).not.toMatch(/upgraded/);
    expect(paymentOutcomeMessage("toString")).toBeNull();
    expect(paymentOutcomeMessage(null)).toBeNull();
  });
});

describe("priceAtRateText", () => {
  it("shows the rate to at most 4 decimals, without trailing zeros", () => {
    expect(priceAtRateText(3500, "15.450000")).toBe("US$ 35.00 at 15.45 cedis per dollar");
    expect(priceAtRateText(5000, "15.123456")).toBe("US$ 50.00 at 15.1235 cedis per dollar");
    expect(priceAtRateText(10_000, "12.000000")).toBe("US$ 100.00 at 12 cedis per dollar");
  });
});
