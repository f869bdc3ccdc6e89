// Before paying, the page says what the payment will do (docs/subscriptions.md, "Before paying"):
// the server's quote is the price checkout charges and the dates crediting writes.
import { describe, expect, it } from "vitest";
import { checkoutDisclosure, type SubscriptionQuote } from "../../../shared/contracts/billing.ts";
import { ipAllocator, type TestUser, type TestUserPlan } from "../../testing/accounts.ts";
import { useBillingApp, userRow } from "../../testing/billing.ts";

const nextIp = ipAllocator(177);
const DAY_MS = 24 * 60 * 60 * 1000;
const inDays = (days: number) => new Date(Date.now() + days * DAY_MS);
/** Dates as the page writes them, in UTC so the test reads the same anywhere. */
const day = (iso: string) => new Date(iso).toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });

const USERS = {
  free: {},
  upgrader: { plan: "intermediate", subscriptionEnd: inDays(26.5) },
  renewer: { plan: "intermediate", subscriptionEnd: inDays(3) },
  downgrader: { plan: "advanced", subscriptionEnd: inDays(5) },
  early: { plan: "intermediate", subscriptionEnd: inDays(20) },
  admin: { plan: "admin" },
} satisfies Record<string, TestUserPlan>;

/** Two instants a moment apart (the quote, then the payment) are the same instant to a test. */
function expectNear(iso: string | undefined, date: Date | null) {
  expect(iso).toBeDefined();
  expect(date).not.toBeNull();
  expect(Math.abs(new Date(iso ?? 0).getTime() - (date?.getTime() ?? 0))).toBeLessThan(60_000);
}

describe("the quote before paying", () => {
  const { t, api, user, buy, paidAtPaystack } = useBillingApp(nextIp, USERS);

  async function quoteFor(who: TestUser, planId: string) {
    return api.call(who, { method: "POST", url: "/api/subscription-management", payload: { action: "quote_subscription", planId } });
  }

  async function quoted(who: TestUser, planId: "intermediate" | "advanced"): Promise<SubscriptionQuote> {
    const response = await quoteFor(who, planId);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<SubscriptionQuote>();
  }

  async function pay(who: TestUser, planId: "intermediate" | "advanced") {
    const reference = await buy(who, planId);
    await paidAtPaystack(reference);
    expect((await api.verify(who, reference)).statusCode).toBe(200);
    return reference;
  }

  it("an upgrade names the price, the new month and the days left queued after it, and the payment does exactly that", async () => {
    const who = user("upgrader");
    const quote = await quoted(who, "advanced");
    const prices = (await api.prices()).json<{ subscription: { advanced: { usd: number; ghs: number } } }>();
    expect(quote).toMatchObject({
      plan: { name: "advanced", label: "Advanced" },
      outcome: "success",
      price: { usdCents: prices.subscription.advanced.usd * 100, ghsPesewas: prices.subscription.advanced.ghs * 100 },
      current: { plan: { name: "intermediate" }, daysLeft: 27 },
      then: { plan: { name: "intermediate" } },
    });
    const [price, starts, queued] = checkoutDisclosure(quote, day);
    expect(price).toBe(`You pay GH₵ ${(prices.subscription.advanced.ghs).toFixed(2)} (US$ 50.00) now.`);
    expect(starts).toBe(`Advanced starts now and runs from ${day(quote.month.startsAt)} to ${day(quote.month.endsAt)}.`);
    expect(queued).toBe(
      `The 27 days left of your Intermediate plan are not lost: they are queued after Advanced, from ${day(quote.month.endsAt)} to ${day(quote.then?.endsAt ?? "")}.`,
    );

    await pay(who, "advanced");
    const row = await userRow(t, who.id);
    expect(row).toMatchObject({ subscriptionPlan: "advanced", queuedPlan: "intermediate" });
    expectNear(quote.month.startsAt, row.subscriptionStart);
    expectNear(quote.month.endsAt, row.subscriptionEnd);
    expectNear(quote.then?.startsAt, row.subscriptionEnd);
    expectNear(quote.then?.endsAt, row.queuedEnd);
  });

  it("a learner with nothing running is told the month starts now, and nothing of queued days", async () => {
    const who = user("free");
    const quote = await quoted(who, "intermediate");
    expect(quote).toMatchObject({ outcome: "success", current: null, then: null });
    const sentences = checkoutDisclosure(quote, day);
    expect(sentences).toHaveLength(2);
    expect(sentences[1]).toBe(`Intermediate starts now and runs from ${day(quote.month.startsAt)} to ${day(quote.month.endsAt)}.`);
    expect(sentences.join(" ")).not.toMatch(/left|queued/);

    await pay(who, "intermediate");
    const row = await userRow(t, who.id);
    expectNear(quote.month.startsAt, row.subscriptionStart);
    expectNear(quote.month.endsAt, row.subscriptionEnd);
  });

  it("a renewal adds the month after the current end", async () => {
    const who = user("renewer");
    const end = (await userRow(t, who.id)).subscriptionEnd;
    const quote = await quoted(who, "intermediate");
    expect(quote).toMatchObject({ outcome: "renewed", then: null });
    expectNear(quote.month.startsAt, end);
    expect(checkoutDisclosure(quote, day)[1]).toBe(
      `Your next Intermediate month is added after the current one: from ${day(quote.month.startsAt)} to ${day(quote.month.endsAt)}.`,
    );
    await pay(who, "intermediate");
    expectNear(quote.month.endsAt, (await userRow(t, who.id)).subscriptionEnd);
  });

  it("a lower plan in the renewal window is queued after the current one", async () => {
    const who = user("downgrader");
    const end = (await userRow(t, who.id)).subscriptionEnd;
    const quote = await quoted(who, "intermediate");
    expect(quote).toMatchObject({ outcome: "queued", current: { plan: { name: "advanced" }, daysLeft: 5 } });
    expectNear(quote.month.startsAt, end);
    expect(checkoutDisclosure(quote, day)[1]).toBe(
      `Intermediate is queued after your Advanced plan: from ${day(quote.month.startsAt)} to ${day(quote.month.endsAt)}.`,
    );
    await pay(who, "intermediate");
    expectNear(quote.month.endsAt, (await userRow(t, who.id)).queuedEnd);
  });

  it("refuses in words what checkout refuses, and a plan that is not sold", async () => {
    const early = await quoteFor(user("early"), "intermediate");
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ error: { code: "NOT_ELIGIBLE", message: expect.stringContaining("in the last 7 days") } });
    const admin = await quoteFor(user("admin"), "advanced");
    expect(admin.statusCode).toBe(409);
    expect(admin.json()).toMatchObject({ error: { message: "Administrators already have every program." } });
    const unknown = await quoteFor(user("free"), "platinum");
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ error: { message: expect.any(String) } });
    const signedOut = await api.call(null, {
      method: "POST",
      url: "/api/subscription-management",
      payload: { action: "quote_subscription", planId: "advanced" },
    });
    expect(signedOut.statusCode).toBe(401);
  });

  it("is limited per learner, not per address: one learner at the limit leaves the next on the same network free", async () => {
    const shared = nextIp();
    const ask = (who: TestUser) =>
      t.app.inject({
        method: "POST",
        url: "/api/subscription-management",
        remoteAddress: shared,
        headers: { cookie: who.cookie },
        payload: { action: "get_subscription" },
      });
    let last = await ask(user("early"));
    for (let i = 0; i < 70 && last.statusCode !== 429; i++) last = await ask(user("early"));
    expect(last.statusCode).toBe(429);
    const neighbour = await ask(user("free"));
    expect(neighbour.statusCode, neighbour.body).toBe(200);
  });
});
