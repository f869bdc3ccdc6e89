// Prices are computed on the server (docs/subscriptions.md, "Pricing"): the programs' USD prices
// times the cached USD -> GHS rate, rounded to whole cedis. Also what happens when the rate service
// is down and when payments are switched off.
import { createServer, type Server } from "node:http";
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { nextCohort } from "../../../shared/billing.ts";
import { config, payments, programs } from "../../db/schema.ts";
import { createSignedInUser, ipAllocator, type TestUser } from "../../testing/accounts.ts";
import { billingApi, checkoutReference, paymentRow, paystackTransaction } from "../../testing/billing.ts";
import { createTestApp, type TestApp } from "../../testing/test-app.ts";
import { randomSecret } from "../../testing/secrets.ts";

const nextIp = ipAllocator(42);

/** Nothing listens on port 1: every fetch of the rate fails at once. */
const RATE_SERVICE_DOWN = "http://127.0.0.1:1/v6/latest/USD";
const HOUR_MS = 60 * 60 * 1000;
const SECRET = randomSecret();

async function setCachedRate(t: TestApp, ghsPerUsd: number, fetchedAt: Date) {
  const value = { ghsPerUsd, fetchedAt: fetchedAt.toISOString() };
  await t.database.db
    .insert(config)
    .values({ key: "exchange_rate", value })
    .onConflictDoUpdate({ target: config.key, set: { value } });
}

async function cachedRate(t: TestApp): Promise<unknown> {
  const [row] = await t.database.db.select().from(config).where(eq(config.key, "exchange_rate"));
  return row?.value;
}

describe("prices with the exchange-rate service up", () => {
  let t: TestApp;
  let api: ReturnType<typeof billingApi>;
  let buyer: TestUser;

  beforeAll(async () => {
    t = await createTestApp({ listen: true, env: { AUTH_SECRET: SECRET } });
    api = billingApi(t, nextIp);
    buyer = await createSignedInUser(t, { email: "prices-buyer@example.com", nextIp });
  });
  afterAll(() => t.close());

  it("prices both plans from the programs at the live rate (15.45 in the stand-in), public, test mode", async () => {
    const before = Date.now();
    const response = await api.prices();
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body).toEqual({
      rate: { ghsPerUsd: 15.45, fetchedAt: expect.any(String) },
      // 35 x 15.45 = 540.75 -> 541; 50 x 15.45 = 772.5 -> 773.
      subscription: { intermediate: { usd: 35, ghs: 541 }, advanced: { usd: 50, ghs: 773 } },
      // The waitlist charges the programs' prices too; the default 100/200 USD apply only to a program without one.
      waitlist: { intermediate: { usd: 35, ghs: 541 }, advanced: { usd: 50, ghs: 773 } },
      cohort: nextCohort(new Date()),
      payments: { enabled: true, testMode: true, inlineScriptUrl: `${t.baseUrl}/dev/fakes/paystack/inline.js` },
    });
    expect(Date.parse(body.rate.fetchedAt)).toBeGreaterThanOrEqual(before - 1000);
    // The rate is cached in the database for every app server.
    expect(await cachedRate(t)).toEqual(body.rate);
  });

  it("names the cohort by the next quarter start", async () => {
    const { cohort } = (await api.prices()).json<{ cohort: { name: string; startsOn: string } }>();
    const now = new Date();
    const month = now.getUTCMonth();
    const year = now.getUTCFullYear();
    const expected =
      month < 3 ? `April ${year}` : month < 6 ? `July ${year}` : month < 9 ? `October ${year}` : `January ${year + 1}`;
    expect(cohort.name).toBe(expected);
  });

  it("reuses a rate fetched within the hour instead of asking the service again", async () => {
    const fetchedAt = new Date(Date.now() - 30 * 60 * 1000);
    await setCachedRate(t, 16, fetchedAt);
    const body = (await api.prices()).json();
    expect(body.rate).toEqual({ ghsPerUsd: 16, fetchedAt: fetchedAt.toISOString() });
    expect(body.subscription).toEqual({ intermediate: { usd: 35, ghs: 560 }, advanced: { usd: 50, ghs: 800 } });

    // The checkout charges the same cached rate the page showed.
    const reference = checkoutReference(await api.buy(buyer, "intermediate"));
    expect(await paymentRow(t, reference)).toMatchObject({ amountMinor: 56_000, exchangeRate: "16.000000" });
  });

  it("fetches a fresh rate once the cached one is over an hour old", async () => {
    await setCachedRate(t, 16, new Date(Date.now() - HOUR_MS - 1000));
    const before = Date.now();
    const body = (await api.prices()).json();
    expect(body.rate.ghsPerUsd).toBe(15.45);
    expect(Date.parse(body.rate.fetchedAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(await cachedRate(t)).toEqual(body.rate);
  });

  it("follows the program's price when an administrator changes it, and the spec's defaults without one", async () => {
    const db = t.database.db;
    try {
      await db.update(programs).set({ priceUsdCents: 4000 }).where(eq(programs.id, "intermediate"));
      await db.update(programs).set({ priceUsdCents: null }).where(eq(programs.id, "advanced"));
      const body = (await api.prices()).json();
      expect(body.subscription).toEqual({ intermediate: { usd: 40, ghs: 618 }, advanced: { usd: 50, ghs: 773 } });
      expect(body.waitlist).toEqual({ intermediate: { usd: 40, ghs: 618 }, advanced: { usd: 200, ghs: 3090 } });

      const waitlist = checkoutReference(await api.joinWaitlist(buyer, "advanced"));
      expect(await paymentRow(t, waitlist)).toMatchObject({ amountMinor: 309_000, priceUsdCents: 20_000 });
    } finally {
      await db.update(programs).set({ priceUsdCents: 3500 }).where(eq(programs.id, "intermediate"));
      await db.update(programs).set({ priceUsdCents: 5000 }).where(eq(programs.id, "advanced"));
    }
  });

  describe("with payments disabled (production without PAYSTACK_SECRET_KEY)", () => {
    let production: TestApp;
    let productionApi: ReturnType<typeof billingApi>;
    let productionBuyer: TestUser;

    beforeAll(async () => {
      // The same database and AUTH_SECRET: the session made above is valid on this server too.
      production = await createTestApp({
        database: t.database,
        env: { NODE_ENV: "production", AUTH_SECRET: SECRET, EXCHANGE_RATE_URL: RATE_SERVICE_DOWN },
      });
      productionApi = billingApi(production, nextIp);
      // Production cookies are always __Secure- prefixed: the browser would carry the session under that name.
      productionBuyer = { ...buyer, cookie: buyer.cookie.replace(/(^|; )ta\./g, "$1__Secure-ta.") };
    });
    afterAll(() => production.close());

    it("says so in the prices", async () => {
      const response = await productionApi.prices();
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().payments).toEqual({ enabled: false, testMode: false, inlineScriptUrl: null });
    });

    it("answers 503 to every checkout and verify, and creates nothing", async () => {
      const before = await production.database.db.select().from(payments).where(eq(payments.userId, productionBuyer.id));
      const unavailable = {
        error: { code: "PAYMENTS_DISABLED", message: "Payment service is not available. Please refresh the page.", requestId: expect.any(String) },
      };
      const answers = [
        await productionApi.buy(productionBuyer, "intermediate"),
        await productionApi.joinWaitlist(productionBuyer, "advanced"),
        await productionApi.verify(productionBuyer, "LTF-INTERMEDIATE-1"),
        await productionApi.verifyWaitlist(productionBuyer, "LTF-WAITLIST-ADVANCED-1"),
      ];
      for (const answer of answers) {
        expect(answer.statusCode, answer.body).toBe(503);
        expect(answer.json()).toEqual(unavailable);
      }
      expect(await production.database.db.select().from(payments).where(eq(payments.userId, productionBuyer.id))).toEqual(before);
      // Eligibility still answers: the page can explain the plan even when it cannot sell it.
      expect((await productionApi.checkEligibility(productionBuyer, "intermediate")).statusCode).toBe(200);
    });

    it("refuses every webhook (there is no key to check it with) and serves no simulator", async () => {
      const webhook = await production.app.inject({
        method: "POST",
        url: "/api/paystack/webhook",
        headers: { "content-type": "application/json", "x-paystack-signature": "0".repeat(128) },
        payload: JSON.stringify({ event: "charge.success", data: {} }),
      });
      expect(webhook.statusCode).toBe(401);
      const simulator = await production.app.inject({ method: "GET", url: "/dev/fakes/paystack/inline.js" });
      expect(simulator.statusCode).toBe(404);
    });
  });
});

describe("prices with the exchange-rate service down", () => {
  let t: TestApp;
  let api: ReturnType<typeof billingApi>;
  let buyer: TestUser;

  beforeAll(async () => {
    t = await createTestApp({ listen: true, env: { EXCHANGE_RATE_URL: RATE_SERVICE_DOWN } });
    api = billingApi(t, nextIp);
    buyer = await createSignedInUser(t, { email: "rate-down@example.com", nextIp });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.database.db.delete(config).where(inArray(config.key, ["exchange_rate", "exchange_rate_failure"]));
  });

  it("without any rate: no cedi price for subscriptions, 12 cedis per dollar for the waitlist", async () => {
    const response = await api.prices();
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      rate: { ghsPerUsd: null, fetchedAt: null },
      subscription: { intermediate: { usd: 35, ghs: null }, advanced: { usd: 50, ghs: null } },
      waitlist: { intermediate: { usd: 35, ghs: 420 }, advanced: { usd: 50, ghs: 600 } },
      payments: { enabled: true, testMode: true },
    });
    expect(await cachedRate(t)).toBeUndefined();
  });

  it("refuses to sell a subscription without a price (503), but the waitlist checkout works at 12x", async () => {
    const response = await api.buy(buyer, "intermediate");
    expect(response.statusCode, response.body).toBe(503);
    expect(response.json()).toEqual({
      error: { code: "PRICE_UNAVAILABLE", message: "Cannot process payment: price not available.", requestId: expect.any(String) },
    });
    expect(await t.database.db.select().from(payments).where(eq(payments.kind, "subscription"))).toEqual([]);

    const reference = checkoutReference(await api.joinWaitlist(buyer, "advanced"));
    expect(reference).toMatch(/^LTF-WAITLIST-ADVANCED-\d+$/);
    expect(await paymentRow(t, reference)).toMatchObject({
      kind: "waitlist",
      amountMinor: 60_000,
      priceUsdCents: 5000,
      exchangeRate: "12.000000",
    });
    expect(await paystackTransaction(t, reference)).toMatchObject({ amount: 60_000, currency: "GHS" });
  });

  it("keeps using the last good rate, even over an hour old, while the service fails", async () => {
    const fetchedAt = new Date(Date.now() - 3 * HOUR_MS);
    await setCachedRate(t, 14.8, fetchedAt);
    const body = (await api.prices()).json();
    expect(body.rate).toEqual({ ghsPerUsd: 14.8, fetchedAt: fetchedAt.toISOString() });
    // 35 x 14.8 = 518; 50 x 14.8 = 740.
    expect(body.subscription).toEqual({ intermediate: { usd: 35, ghs: 518 }, advanced: { usd: 50, ghs: 740 } });
    expect(body.waitlist).toEqual({ intermediate: { usd: 35, ghs: 518 }, advanced: { usd: 50, ghs: 740 } });
    expect(await cachedRate(t)).toEqual({ ghsPerUsd: 14.8, fetchedAt: fetchedAt.toISOString() });

    const reference = checkoutReference(await api.buy(buyer, "intermediate"));
    expect(await paymentRow(t, reference)).toMatchObject({ amountMinor: 51_800, exchangeRate: "14.800000" });
  });
});

describe("an exchange-rate service that keeps failing", () => {
  let t: TestApp;
  let service: Server;
  let calls = 0;
  let healthy = false;

  beforeAll(async () => {
    // A stand-in that counts its calls and fails (as the real one does with 429) until told otherwise.
    service = createServer((_request, response) => {
      calls++;
      response.setHeader("content-type", "application/json");
      if (!healthy) {
        response.statusCode = 429;
        response.end(JSON.stringify({ result: "error", "error-type": "rate-limited" }));
        return;
      }
      response.end(JSON.stringify({ result: "success", base_code: "USD", rates: { USD: 1, GHS: 15.6 } }));
    });
    await new Promise<void>((resolve) => service.listen(0, "127.0.0.1", resolve));
    const address = service.address();
    if (typeof address !== "object" || address === null) throw new Error("the rate service is not listening");
    t = await createTestApp({ env: { EXCHANGE_RATE_URL: `http://127.0.0.1:${address.port}/v6/latest/USD` } });
  });
  afterAll(async () => {
    await t.close();
    await new Promise((resolve) => service.close(resolve));
  });

  async function setFailedAt(at: Date) {
    const value = { at: at.toISOString() };
    await t.database.db
      .insert(config)
      .values({ key: "exchange_rate_failure", value })
      .onConflictDoUpdate({ target: config.key, set: { value } });
  }

  it("is asked again only after a pause, while the last good rate is served without waiting for it", async () => {
    const api = billingApi(t, nextIp);
    const fetchedAt = new Date(Date.now() - 2 * HOUR_MS);
    await setCachedRate(t, 14.8, fetchedAt);

    const first = (await api.prices()).json();
    expect(first.rate).toEqual({ ghsPerUsd: 14.8, fetchedAt: fetchedAt.toISOString() });
    expect(calls).toBe(1);
    // Every page load would otherwise ask again (and wait for it): a service answering 429 stays shut.
    for (let i = 0; i < 5; i++) expect((await api.prices()).json().rate.ghsPerUsd).toBe(14.8);
    expect(calls).toBe(1);

    // After the pause it is asked again; once it answers, the fresh rate is used and cached.
    healthy = true;
    await setFailedAt(new Date(Date.now() - 6 * 60 * 1000));
    const recovered = (await api.prices()).json();
    expect(calls).toBe(2);
    expect(recovered.rate.ghsPerUsd).toBe(15.6);
    expect(recovered.subscription.intermediate).toEqual({ usd: 35, ghs: 546 });
    expect(await cachedRate(t)).toEqual(recovered.rate);
  });

  it("without any rate yet, the pause applies too: the waitlist's 12x is shown at once", async () => {
    healthy = false;
    const api = billingApi(t, nextIp);
    await t.database.db.delete(config).where(inArray(config.key, ["exchange_rate", "exchange_rate_failure"]));
    calls = 0;
    expect((await api.prices()).json().rate).toEqual({ ghsPerUsd: null, fetchedAt: null });
    expect((await api.prices()).json().waitlist.advanced).toEqual({ usd: 50, ghs: 600 });
    expect(calls).toBe(1);
  });
});
