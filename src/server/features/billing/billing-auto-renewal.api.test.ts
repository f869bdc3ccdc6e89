// Automatic renewal (docs/subscriptions.md, "Automatic renewal"): a card payer who turned it on is
// charged once on the day the period ends, by Charge Authorization, across two instances and a
// restart; a decline or Paystack unreachable adds nothing, tells the learner, and is tried once
// more the next day; turning it off takes effect at once; cards Paystack marks not reusable and
// mobile money are refused with a sentence. Paystack here is the simulator served on its own, so
// it outlives the app instances, as the real one does.
import Fastify, { type FastifyInstance } from "fastify";
import { and, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { exchangeRateFake } from "../../../../dev/fakes/exchange-rate.ts";
import { paystackSimulator, type CHARGE_MODES } from "../../../../dev/fakes/paystack-simulator.ts";
import { autoRenewalSchema, AUTO_RENEWAL_MESSAGES } from "../../../shared/contracts/billing.ts";
import { cardAuthorizations, config, payments, renewalCharges, users } from "../../db/schema.ts";
import { createScheduler } from "../../jobs/scheduler.ts";
import { BILLING_SCHEDULES } from "./billing.feature.ts";
import { createSignedInUser, ipAllocator, mailsTo, type TestUser } from "../../testing/accounts.ts";
import { receiptJobs } from "../../testing/billing.ts";
import { metricValue, scrapeMetrics, TEST_METRICS_TOKEN } from "../../testing/metrics.ts";
import { createTestApp, type TestApp } from "../../testing/test-app.ts";
import { enqueueJob } from "../../jobs/queue.ts";
import { claimAutoRenewals } from "./billing-auto-renewal.ts";
import { EXPIRY_REMINDER_JOB } from "./billing-expiry.ts";

const nextIp = ipAllocator(177);
const SECRET_KEY = "sk_test_auto_renewal_simulator";
const DAY = 86_400_000;

let paystack: FastifyInstance;
let paystackUrl = "";
let chargeCalls = 0;
let a: TestApp;
let b: TestApp;

beforeAll(async () => {
  paystack = Fastify({ logger: false });
  // No webhook reaches the apps: what they learn, they learn from their own calls.
  await paystack.register(paystackSimulator, { prefix: "/paystack", secretKey: SECRET_KEY, webhookUrl: "http://127.0.0.1:9/none" });
  await paystack.register(exchangeRateFake, { prefix: "/rate" });
  paystack.addHook("onRequest", async (request) => {
    if (request.url === "/paystack/transaction/charge_authorization") chargeCalls++;
  });
  await paystack.listen({ port: 0, host: "127.0.0.1" });
  const address = paystack.server.address();
  if (typeof address !== "object" || address === null) throw new Error("no port");
  paystackUrl = `http://127.0.0.1:${address.port}`;
  a = await createTestApp({ env: appEnv() });
  b = await createTestApp({ database: a.database, env: appEnv() });
});
afterAll(async () => {
  await b.close();
  await a.close();
  await paystack.close();
});

function appEnv(): Record<string, string> {
  return {
    PAYSTACK_SECRET_KEY: SECRET_KEY,
    PAYSTACK_API_URL: `${paystackUrl}/paystack`,
    EXCHANGE_RATE_URL: `${paystackUrl}/rate/v6/latest/USD`,
    METRICS_TOKEN: TEST_METRICS_TOKEN,
  };
}

async function simulator(path: string, body: object) {
  const response = await fetch(`${paystackUrl}/paystack${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${SECRET_KEY}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
}

const chargesAnswer = (mode: (typeof CHARGE_MODES)[number], reason?: string) =>
  simulator("/simulate/charge-authorization-mode", { mode, reason });

/** A learner who bought Intermediate through the checkout, paid by card or mobile money. */
async function paidLearner(name: string, paid: { channel: "card" | "mobile_money"; reusable?: boolean }): Promise<TestUser> {
  const user = await createSignedInUser(a, { email: `${name}@example.com`, nextIp });
  const checkout = await a.app.inject({
    method: "POST",
    url: "/api/subscription-management",
    remoteAddress: nextIp(),
    headers: { cookie: user.cookie },
    payload: { action: "create_subscription", planId: "intermediate" },
  });
  expect(checkout.statusCode).toBe(200);
  const { reference } = z.object({ reference: z.string() }).parse(checkout.json());
  await simulator(`/simulate/${reference}`, { outcome: "success", deliverWebhook: false, ...paid });
  const verified = await a.app.inject({
    method: "GET",
    url: `/api/verify-paystack?reference=${reference}`,
    remoteAddress: nextIp(),
    headers: { cookie: user.cookie },
  });
  expect(verified.statusCode).toBe(200);
  return user;
}

/** The paid month ends today (UTC), as if it had been bought a month ago. */
async function endsToday(user: TestUser): Promise<Date> {
  const dayEnd = Math.floor(Date.now() / DAY) * DAY + DAY;
  const end = new Date(Math.min(Date.now() + 60 * 60_000, dayEnd - 1000));
  await a.database.db.update(users).set({ subscriptionEnd: end }).where(eq(users.id, user.id));
  return end;
}

function autoRenewal(app: TestApp, user: TestUser, enabled?: boolean) {
  return app.app.inject({
    method: enabled === undefined ? "GET" : "PUT",
    url: "/api/subscription/auto-renewal",
    remoteAddress: nextIp(),
    headers: { cookie: user.cookie },
    ...(enabled === undefined ? {} : { payload: { enabled } }),
  });
}

async function turnOn(user: TestUser) {
  const response = await autoRenewal(a, user, true);
  expect(response.statusCode, response.body).toBe(200);
  return autoRenewalSchema.parse(response.json());
}

/** The server's own way, on every instance at once: the schedule claims, the job runners charge. */
async function runEverywhere(apps: TestApp[]) {
  await a.database.db.delete(config).where(eq(config.key, "schedule:auto-renewal"));
  const schedule = BILLING_SCHEDULES.find((candidate) => candidate.name === "auto-renewal");
  if (!schedule) throw new Error("no auto-renewal schedule");
  await Promise.all(apps.map((app) => createScheduler({ db: app.database.db, log: app.app.log, schedules: [schedule] }).runDue()));
  await Promise.all(apps.map((app) => app.services.jobs.runDue()));
}

const renewalPayments = (user: TestUser) =>
  a.database.db
    .select()
    .from(payments)
    .where(and(eq(payments.userId, user.id), like(payments.reference, "LTF-RENEW-%")));
const chargesOf = (user: TestUser) => a.database.db.select().from(renewalCharges).where(eq(renewalCharges.userId, user.id));
const endOf = async (user: TestUser) => (await a.database.db.select().from(users).where(eq(users.id, user.id)))[0]?.subscriptionEnd;

describe("automatic renewal by card", () => {
  it("is off by default, and its consent names the amount at today's rate and the day; the card shows by brand and last 4 only", async () => {
    const learner = await paidLearner("consent", { channel: "card" });
    const before = await autoRenewal(a, learner);
    expect(before.statusCode).toBe(200);
    expect(before.body).not.toContain("AUTH_");
    const state = autoRenewalSchema.parse(before.json());
    expect(state).toMatchObject({ available: true, enabled: false, card: { brand: "Visa", last4: "4081" } });
    const day = new Date(state.charge?.day ?? "").toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });
    expect(state.consent).toContain(`On ${day}`);
    expect(state.consent).toContain("GH₵ 541.00 at today's rate of 15.45 cedis per dollar");
    expect(state.consent).toContain("US$ 35.00 in cedis at that day's rate");

    expect((await turnOn(learner)).enabled).toBe(true);
    // Read by the other instance: the choice is in the database.
    expect(autoRenewalSchema.parse((await autoRenewal(b, learner)).json()).enabled).toBe(true);
    const off = await autoRenewal(b, learner, false);
    expect(autoRenewalSchema.parse(off.json()).enabled).toBe(false);
  });

  it("charges once across two instances and a restart, at today's price, and credits it with a receipt", async () => {
    await chargesAnswer("success");
    const learner = await paidLearner("renews", { channel: "card" });
    const end = await endsToday(learner);
    await turnOn(learner);
    const callsBefore = chargeCalls;

    // Three days before, the reminder says what will happen instead of asking to renew.
    await enqueueJob(a.database.db, EXPIRY_REMINDER_JOB, { userId: learner.id, periodEnd: end.toISOString(), kind: "ending-soon" });
    await a.services.jobs.runDue();
    const [reminder] = (await mailsTo(a, learner.email)).filter((sent) => sent.subject.startsWith("Your Trading Academy plan ends on"));
    expect(reminder?.text).toContain("Automatic renewal is on: on that day we will charge your Visa card ending in 4081 for the next month");
    expect(reminder?.text).not.toContain("Renew before then");

    await runEverywhere([a, b]);
    await b.close();
    b = await createTestApp({ database: a.database, env: appEnv() });
    await runEverywhere([a, b]);

    expect(chargeCalls - callsBefore).toBe(1);
    const [payment, ...more] = await renewalPayments(learner);
    expect(more).toEqual([]);
    expect(payment).toMatchObject({ status: "success", amountMinor: 54_100, priceUsdCents: 3500, methodChannel: "card" });
    expect(Number(payment?.exchangeRate)).toBe(15.45);
    expect((await endOf(learner))?.getTime()).toBeGreaterThan(end.getTime() + 27 * DAY);
    expect(await receiptJobs(a, payment?.reference ?? "")).toHaveLength(1);
    expect((await chargesOf(learner)).map((charge) => charge.status)).toEqual(["success"]);
  });

  it("a charge the bank declines adds nothing, tells the learner in words, and is tried once more the next day only", async () => {
    await chargesAnswer("failed", "Insufficient Funds");
    const learner = await paidLearner("declined", { channel: "card" });
    const end = await endsToday(learner);
    await turnOn(learner);

    await runEverywhere([a, b]);
    expect((await renewalPayments(learner)).map((payment) => payment.status)).toEqual(["failed"]);
    expect((await endOf(learner))?.getTime()).toBe(end.getTime());
    const [mail] = (await mailsTo(a, learner.email)).filter((sent) => sent.subject === "We could not renew your Trading Academy plan");
    expect(mail?.text).toContain("Your bank declined the charge: Insufficient Funds.");
    expect(mail?.text).toContain("We will try once more tomorrow.");
    const state = autoRenewalSchema.parse((await autoRenewal(a, learner)).json());
    expect(state.lastFailure).toMatchObject({ message: "Your bank declined the charge: Insufficient Funds.", retryTomorrow: true });

    // The next day: one more try, which goes through; the day after, nothing more.
    await chargesAnswer("success");
    const tomorrow = new Date(Date.now() + DAY);
    expect(await a.database.db.transaction((tx) => claimAutoRenewals(tx, tomorrow))).toBeGreaterThanOrEqual(1);
    await a.services.jobs.runDue();
    expect((await chargesOf(learner)).map((charge) => [charge.attempt, charge.status]).sort()).toEqual([
      [1, "failed"],
      [2, "success"],
    ]);
    expect((await endOf(learner))?.getTime()).toBeGreaterThan(end.getTime() + 27 * DAY);
    await a.database.db.transaction((tx) => claimAutoRenewals(tx, new Date(Date.now() + 2 * DAY)));
    expect(await chargesOf(learner)).toHaveLength(2);
  });

  it("a second try that fails too is the last", async () => {
    await chargesAnswer("failed", "Do Not Honor");
    const learner = await paidLearner("twice", { channel: "card" });
    await endsToday(learner);
    await turnOn(learner);
    const failedCharges = async () => metricValue(await scrapeMetrics(a), "auto_renewals_total", { outcome: "failed" });
    const failedBefore = await failedCharges();
    await runEverywhere([a]);
    await a.database.db.transaction((tx) => claimAutoRenewals(tx, new Date(Date.now() + DAY)));
    await a.services.jobs.runDue();
    await a.database.db.transaction((tx) => claimAutoRenewals(tx, new Date(Date.now() + 2 * DAY)));
    await a.services.jobs.runDue();
    expect((await chargesOf(learner)).map((charge) => charge.status)).toEqual(["failed", "failed"]);
    expect((await failedCharges()) - failedBefore).toBe(2);
    const mails = (await mailsTo(a, learner.email)).filter((sent) => sent.subject === "We could not renew your Trading Academy plan");
    expect(mails.map((sent) => sent.text.includes("We will not try again."))).toContain(true);
  });

  it("an answer lost in a timeout after Paystack charged the card is found by its reference and credited once", async () => {
    await chargesAnswer("timeout");
    const learner = await paidLearner("timeout", { channel: "card" });
    const end = await endsToday(learner);
    await turnOn(learner);
    const callsBefore = chargeCalls;

    await runEverywhere([a, b]);
    await runEverywhere([a, b]);

    expect(chargeCalls - callsBefore).toBe(1);
    expect((await renewalPayments(learner)).map((payment) => payment.status)).toEqual(["success"]);
    expect((await endOf(learner))?.getTime()).toBeGreaterThan(end.getTime() + 27 * DAY);
  });

  it("a server that crashed after Paystack charged the card verifies the reference on restart and never charges again", async () => {
    await chargesAnswer("success");
    const learner = await paidLearner("crashed", { channel: "card" });
    const end = await endsToday(learner);
    await turnOn(learner);
    await a.database.db.transaction((tx) => claimAutoRenewals(tx, new Date()));
    const [claimed] = await chargesOf(learner);
    const [card] = await a.database.db.select().from(cardAuthorizations).where(eq(cardAuthorizations.userId, learner.id));
    if (!claimed || !card) throw new Error("no claim or no card");
    // What the job does before the crash: the pending payment, the charge marked, Paystack asked.
    await a.database.db.insert(payments).values({
      reference: claimed.reference,
      userId: learner.id,
      userEmail: learner.email,
      kind: "subscription",
      plan: "intermediate",
      amountMinor: 54_100,
      priceUsdCents: 3500,
      exchangeRate: "15.45",
    });
    await a.database.db.update(renewalCharges).set({ status: "charging" }).where(eq(renewalCharges.id, claimed.id));
    await simulator("/transaction/charge_authorization", {
      email: card.email,
      amount: 54_100,
      currency: "GHS",
      authorization_code: card.authorizationCode,
      reference: claimed.reference,
    });
    const callsBefore = chargeCalls;

    // After the restart, the job runs again.
    await b.close();
    b = await createTestApp({ database: a.database, env: appEnv() });
    await b.services.jobs.runDue();
    await runEverywhere([a, b]);

    expect(chargeCalls).toBe(callsBefore);
    expect((await renewalPayments(learner)).map((payment) => payment.status)).toEqual(["success"]);
    expect((await chargesOf(learner)).map((charge) => charge.status)).toEqual(["success"]);
    expect((await endOf(learner))?.getTime()).toBeGreaterThan(end.getTime() + 27 * DAY);
  });

  it("Paystack unreachable on the day: no access granted, the learner told", async () => {
    await chargesAnswer("unreachable");
    const learner = await paidLearner("unreachable", { channel: "card" });
    const end = await endsToday(learner);
    await turnOn(learner);

    await runEverywhere([a, b]);

    expect((await renewalPayments(learner)).map((payment) => payment.status)).toEqual(["failed"]);
    expect((await endOf(learner))?.getTime()).toBe(end.getTime());
    const [charge] = await chargesOf(learner);
    expect(charge?.failure).toBe("Paystack, our payment provider, could not be reached to charge your card.");
    const mails = await mailsTo(a, learner.email);
    expect(mails.some((sent) => sent.text.includes("could not be reached"))).toBe(true);
    await chargesAnswer("success");
  });

  it("turning it off takes effect at once, even for a charge already claimed for today", async () => {
    await chargesAnswer("success");
    const learner = await paidLearner("changed-mind", { channel: "card" });
    const end = await endsToday(learner);
    await turnOn(learner);
    await a.database.db.transaction((tx) => claimAutoRenewals(tx, new Date()));
    const callsBefore = chargeCalls;

    await autoRenewal(b, learner, false);
    await a.services.jobs.runDue();

    expect(chargeCalls).toBe(callsBefore);
    expect(await renewalPayments(learner)).toEqual([]);
    expect((await chargesOf(learner)).map((charge) => charge.status)).toEqual(["cancelled"]);
    expect((await endOf(learner))?.getTime()).toBe(end.getTime());
  });

  it("refuses a card Paystack marks not reusable, and mobile money, with a sentence", async () => {
    const notReusable = await paidLearner("not-reusable", { channel: "card", reusable: false });
    const refused = await autoRenewal(a, notReusable, true);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ error: { message: AUTO_RENEWAL_MESSAGES.notReusable } });

    const wallet = await paidLearner("wallet", { channel: "mobile_money" });
    const state = autoRenewalSchema.parse((await autoRenewal(a, wallet)).json());
    expect(state).toMatchObject({ available: false, enabled: false, unavailableReason: AUTO_RENEWAL_MESSAGES.mobileMoney });
    const walletRefused = await autoRenewal(a, wallet, true);
    expect(walletRefused.statusCode).toBe(409);
    expect(walletRefused.json()).toMatchObject({ error: { message: AUTO_RENEWAL_MESSAGES.mobileMoney } });
  });
});
