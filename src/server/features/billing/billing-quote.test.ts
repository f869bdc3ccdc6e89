// The quote's sentences for the states an API test cannot reach in a day (docs/subscriptions.md,
// "Before paying").
import { addDays } from "date-fns/addDays";
import { addMonths } from "date-fns/addMonths";
import { describe, expect, it } from "vitest";
import { checkoutDisclosure } from "../../../shared/contracts/billing.ts";
import { addPaidMonth } from "../users/users.service.ts";
import { subscriptionQuoteOf } from "./billing-quote.ts";

const now = new Date("2026-11-28T10:00:00Z");
const day = (iso: string) => new Date(iso).toISOString().slice(0, 10);
const price = { ghsPesewas: 77_300, usdCents: 5000 };

describe("subscriptionQuoteOf", () => {
  it("renewing Advanced with Intermediate queued says the queued time moves by as much, as crediting moves it", () => {
    const user = {
      subscriptionPlan: "advanced",
      subscriptionStatus: "active",
      subscriptionStart: addDays(now, -25),
      subscriptionEnd: addDays(now, 5),
      queuedPlan: "intermediate",
      queuedEnd: addDays(now, 15),
    } as const;
    const quote = subscriptionQuoteOf(user, "advanced", now, price);
    const credited = addPaidMonth(user, "advanced", now);
    expect(quote.month).toEqual({ startsAt: addDays(now, 5).toISOString(), endsAt: addMonths(addDays(now, 5), 1).toISOString() });
    expect(quote.then).toEqual({
      plan: { name: "intermediate", label: "Intermediate" },
      startsAt: credited.subscriptionEnd?.toISOString(),
      endsAt: credited.queuedEnd?.toISOString(),
    });
    expect(checkoutDisclosure(quote, day)).toEqual([
      "You pay GH₵ 773.00 (US$ 50.00) now.",
      "Your next Advanced month is added after the current one: from 2026-12-03 to 2027-01-03.",
      "Your Intermediate time waiting after it moves by as much: from 2027-01-03 to 2027-01-13.",
    ]);
  });

  it("an upgrade with one day left says so in the singular, and without a rate names the dollar price", () => {
    const user = {
      subscriptionPlan: "intermediate",
      subscriptionStatus: "active",
      subscriptionStart: addDays(now, -30),
      subscriptionEnd: new Date(now.getTime() + 12 * 60 * 60 * 1000),
      queuedPlan: null,
      queuedEnd: null,
    } as const;
    const sentences = checkoutDisclosure(subscriptionQuoteOf(user, "advanced", now, { ghsPesewas: null, usdCents: 5000 }), day);
    expect(sentences[0]).toBe("You pay US$ 50.00 a month, in cedis at the day's rate.");
    expect(sentences[2]).toBe(
      "The 1 day left of your Intermediate plan is not lost: it is queued after Advanced, from 2026-12-28 to 2026-12-28.",
    );
  });
});
