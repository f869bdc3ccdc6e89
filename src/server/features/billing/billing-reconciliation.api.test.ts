// Reconciliation (docs/subscriptions.md, "Reconciliation"): a payment still pending 10 minutes
// after checkout is asked about at Paystack. A lost webhook with a closed tab is credited exactly
// once, through the same crediting as the webhook; failed and old unpaid checkouts are closed; a
// gateway that does not answer changes nothing and is counted.
import { createServer, type Server } from "node:http";
import { addMonths } from "date-fns/addMonths";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runOperatorCommand } from "../../cli/commands.ts";
import { config, jobs, payments, users } from "../../db/schema.ts";
import { paystackClientFor } from "../../integrations/paystack.ts";
import { createScheduler } from "../../jobs/scheduler.ts";
import { BILLING_SCHEDULES } from "./billing.feature.ts";
import { ipAllocator, mailsTo, me, type TestUser, type TestUserPlan } from "../../testing/accounts.ts";
import {
  auditEntries,
  NOTHING_PAID,
  paymentRow,
  postWebhook,
  receiptJobs,
  simulatePayment,
  useBillingApp,
  userRow,
} from "../../testing/billing.ts";
import { metricValue, scrapeMetrics, TEST_METRICS_TOKEN } from "../../testing/metrics.ts";
import { createTestApp, type TestApp } from "../../testing/test-app.ts";
import { RECONCILE_JOB, reconcilePayments, type ReconcileDeps } from "./billing-reconciliation.ts";

const nextIp = ipAllocator(48);
const MINUTE = 60_000;

const USERS = {
  lostWebhook: {},
  declined: {},
  walkedAway: {},
  racer: {},
  operator: {},
} satisfies Record<string, TestUserPlan>;

/** Counts what reconciliation reports to the metrics, for runs outside the app. */
function countingMetrics() {
  const reconciled: string[] = [];
  return {
    reconciled,
    paymentCredited() {},
    refundReconciled() {},
    paymentReconciled(outcome: string) {
      reconciled.push(outcome);
    },
  };
}

/** As if the checkout had been started `minutes` ago. */
async function backdate(t: TestApp, reference: string, minutes: number) {
  await t.database.db
    .update(payments)
    .set({ createdAt: new Date(Date.now() - minutes * MINUTE) })
    .where(eq(payments.reference, reference));
}

describe("reconciling pending payments with Paystack", () => {
  const { t, api, user, buy } = useBillingApp(nextIp, USERS, { env: { METRICS_TOKEN: TEST_METRICS_TOKEN } });

  const reconciled = async (outcome: string) => metricValue(await scrapeMetrics(t), "payments_reconciled_total", { outcome });

  /** The server's own way: the schedule queues the run (a job), and the job runner runs it. */
  async function runSchedule() {
    await t.database.db.delete(config).where(eq(config.key, "schedule:payment-reconciliation"));
    const schedule = BILLING_SCHEDULES.find((candidate) => candidate.name === "payment-reconciliation");
    if (!schedule) throw new Error("no payment-reconciliation schedule");
    const outcome = await createScheduler({ db: t.database.db, log: t.app.log, schedules: [schedule] }).runDue();
    expect(outcome).toEqual({ "payment-reconciliation": "ran" });
    await t.services.jobs.runDue();
  }

  const reconcileJobs = () => t.database.db.select().from(jobs).where(eq(jobs.kind, RECONCILE_JOB));

  function directDeps(metrics = countingMetrics()): ReconcileDeps {
    return { db: t.database.db, paystack: paystackClientFor(t.services.env.paystack), metrics, log: t.app.log };
  }

  it("a payment whose webhook was lost, the tab closed: credited once by the schedule's run, one receipt", async () => {
    const who = user("lostWebhook");
    const reference = await buy(who, "intermediate");
    const { data } = await simulatePayment(t, reference, { outcome: "success", deliverWebhook: false });
    const creditedBefore = await reconciled("credited");

    // Under 10 minutes old, it is left to the checkout: no run is even queued for it.
    await runSchedule();
    expect(await paymentRow(t, reference)).toMatchObject({ status: "pending", checkedAt: null });
    expect(await reconcileJobs()).toEqual([]);

    await backdate(t, reference, 11);
    await runSchedule();
    expect(await reconcileJobs()).toMatchObject([{ status: "done" }]);
    expect(await paymentRow(t, reference)).toMatchObject({ status: "success", creditedAt: expect.any(Date), checkedAt: expect.any(Date) });
    expect(await userRow(t, who.id)).toMatchObject({ subscriptionPlan: "intermediate", subscriptionStatus: "active" });
    expect(await me(t, who.cookie)).toMatchObject({ plan: "intermediate" });
    expect((await auditEntries(t, who.id)).map((entry) => entry.action)).toEqual(["payment.credited"]);
    expect(await receiptJobs(t, reference)).toHaveLength(1);
    expect((await mailsTo(t, who.email)).filter((mail) => mail.subject.includes(reference))).toHaveLength(1);
    expect(await reconciled("credited")).toBe(creditedBefore + 1);

    // Again, and the webhook and the browser coming back late: nothing more.
    await runSchedule();
    expect((await postWebhook(t, { event: "charge.success", data })).statusCode).toBe(200);
    expect((await api.verify(who, reference)).statusCode).toBe(200);
    expect(await auditEntries(t, who.id)).toHaveLength(1);
    expect(await receiptJobs(t, reference)).toHaveLength(1);
    expect(await reconciled("credited")).toBe(creditedBefore + 1);
  });

  it("a declined payment is closed as failed, and nothing is credited", async () => {
    const who = user("declined");
    const reference = await buy(who, "advanced");
    await simulatePayment(t, reference, { outcome: "failed" });
    await backdate(t, reference, 11);
    const failedBefore = await reconciled("failed");

    await runSchedule();
    expect(await paymentRow(t, reference)).toMatchObject({ status: "failed", creditedAt: null, checkedAt: expect.any(Date) });
    expect(await userRow(t, who.id)).toMatchObject(NOTHING_PAID);
    expect(await auditEntries(t, who.id)).toEqual([]);
    expect(await receiptJobs(t, reference)).toEqual([]);
    expect(await reconciled("failed")).toBe(failedBefore + 1);
  });

  it("an unpaid checkout stays pending under an hour, is closed as abandoned after, and a late payment still credits it", async () => {
    const who = user("walkedAway");
    const [fresh, young, old] = [await buy(who), await buy(who), await buy(who)];
    await backdate(t, fresh, 5);
    await backdate(t, young, 30);
    await backdate(t, old, 2 * 60);

    await runSchedule();
    // Not due yet: not even asked.
    expect(await paymentRow(t, fresh)).toMatchObject({ status: "pending", checkedAt: null });
    // Asked, and Paystack calls it abandoned: under an hour old, the customer may still pay.
    expect(await paymentRow(t, young)).toMatchObject({ status: "pending", checkedAt: expect.any(Date) });
    expect(await paymentRow(t, old)).toMatchObject({ status: "abandoned", creditedAt: null, checkedAt: expect.any(Date) });
    expect(await userRow(t, who.id)).toMatchObject(NOTHING_PAID);

    // The customer pays the old checkout after all: its webhook credits it.
    const { webhook } = await simulatePayment(t, old, { outcome: "success", deliverWebhook: true });
    expect(webhook).toEqual({ delivered: true, statusCode: 200 });
    expect(await paymentRow(t, old)).toMatchObject({ status: "success", creditedAt: expect.any(Date) });
    expect(await userRow(t, who.id)).toMatchObject({ subscriptionPlan: "intermediate", subscriptionStatus: "active" });
    expect((await auditEntries(t, who.id)).map((entry) => entry.action)).toEqual(["payment.credited"]);
  });

  it("reconciliation, the webhook and the browser's verify arriving together credit once", async () => {
    const who = user("racer");
    const reference = await buy(who, "advanced");
    const { data } = await simulatePayment(t, reference, { outcome: "success", deliverWebhook: false });
    await backdate(t, reference, 11);
    const metrics = countingMetrics();

    const event = { event: "charge.success", data };
    const [firstRun, secondRun, ...answers] = await Promise.all([
      reconcilePayments(directDeps(metrics), new Date()),
      reconcilePayments(directDeps(metrics), new Date()),
      postWebhook(t, event),
      api.verify(who, reference),
      postWebhook(t, event),
      api.verify(who, reference),
    ]);
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
    // Each run found it either still pending and credited it, or credited by someone else already.
    expect((firstRun?.credited ?? 0) + (secondRun?.credited ?? 0)).toBeLessThanOrEqual(1);

    const row = await userRow(t, who.id);
    expect(row).toMatchObject({ subscriptionPlan: "advanced", subscriptionStatus: "active" });
    if (!row.subscriptionStart) throw new Error("not credited");
    // Credited twice, the month would have been renewed: one month from its start.
    expect(row.subscriptionEnd?.toISOString()).toBe(addMonths(row.subscriptionStart, 1).toISOString());
    expect((await auditEntries(t, who.id)).map((entry) => entry.action)).toEqual(["payment.credited"]);
    expect(await receiptJobs(t, reference)).toHaveLength(1);
    expect(await paymentRow(t, reference)).toMatchObject({ status: "success" });
  });

  it("npm run cli -- reconcile-payments does the same on demand, and says what it did", async () => {
    const who = user("operator");
    const reference = await buy(who, "intermediate");
    await simulatePayment(t, reference, { outcome: "success", deliverWebhook: false });
    await backdate(t, reference, 15);

    const { paystack } = directDeps();
    const message = await runOperatorCommand(t.database.db, { name: "reconcile-payments" }, { paystack, metrics: countingMetrics(), log: t.app.log });
    expect(message).toMatch(
      /^Asked Paystack about \d+ pending payments?: 1 credited, 0 failed, 0 closed as abandoned, \d+ left as they were\.\nAsked Paystack about 0 pending refunds: 0 settled, 0 never reached Paystack \(closed as failed\), 0 still pending at Paystack\.$/,
    );
    expect(await userRow(t, who.id)).toMatchObject({ subscriptionPlan: "intermediate", subscriptionStatus: "active" });
    expect(await receiptJobs(t, reference)).toHaveLength(1);

    const disabled = await runOperatorCommand(t.database.db, { name: "reconcile-payments" }, { paystack: null, metrics: countingMetrics(), log: t.app.log });
    expect(disabled).toBe("Payments are not set up (no Paystack key): nothing to reconcile.");
  });
});

describe("reconciling while Paystack is down", () => {
  let t: TestApp;
  let gateway: Server;
  let asked = 0;
  const learner: Pick<TestUser, "id" | "email"> = { id: "reconcile-down-learner", email: "down@example.com" };

  beforeAll(async () => {
    gateway = createServer((_request, response) => {
      asked++;
      response.writeHead(503, { "content-type": "application/json" }).end(JSON.stringify({ status: false, message: "Service unavailable" }));
    });
    await new Promise<void>((resolve) => gateway.listen(0, "127.0.0.1", resolve));
    const address = gateway.address();
    if (typeof address !== "object" || address === null) throw new Error("no gateway address");
    t = await createTestApp({
      seed: false,
      env: {
        PAYSTACK_SECRET_KEY: "sk_test_reconcile_gateway_down",
        PAYSTACK_API_URL: `http://127.0.0.1:${address.port}`,
        METRICS_TOKEN: TEST_METRICS_TOKEN,
      },
    });
    await t.database.db.insert(users).values({ ...learner, subscriptionPlan: "legacyFree" });
  });
  afterAll(async () => {
    await t.close();
    await new Promise<void>((resolve) => gateway.close(() => resolve()));
  });

  it("changes nothing, counts each unanswered ask, stops asking after a few errors in a row, and tries again next run", async () => {
    const references = Array.from({ length: 5 }, (_, i) => `LTF-INTERMEDIATE-${1_700_000_000_000 + i}`);
    await t.database.db.insert(payments).values(
      references.map((reference) => ({
        reference,
        userId: learner.id,
        userEmail: learner.email,
        kind: "subscription" as const,
        plan: "intermediate" as const,
        amountMinor: 54_100,
        currency: "GHS",
        priceUsdCents: 3500,
        exchangeRate: "15.45",
        createdAt: new Date(Date.now() - 2 * 60 * MINUTE),
      })),
    );
    const before = await t.database.db.select().from(payments).orderBy(payments.reference);

    await t.database.db.insert(jobs).values({ kind: RECONCILE_JOB, payload: {} });
    await t.services.jobs.runDue();
    // The run itself is done: the payments are asked about again at the next one.
    expect(await t.database.db.select({ status: jobs.status }).from(jobs).where(eq(jobs.kind, RECONCILE_JOB))).toEqual([{ status: "done" }]);
    expect(asked).toBe(3);
    expect(await t.database.db.select().from(payments).orderBy(payments.reference)).toEqual(before);
    expect(await t.database.db.select().from(users).where(eq(users.id, learner.id))).toMatchObject([{ subscriptionPlan: "legacyFree", queuedPlan: null }]);
    const metrics = await scrapeMetrics(t);
    expect(metricValue(metrics, "payments_reconciled_total", { outcome: "unavailable" })).toBe(3);
    expect(metricValue(metrics, "payments_credited_total")).toBe(0);

    // The next run asks again.
    await t.database.db.insert(jobs).values({ kind: RECONCILE_JOB, payload: {} });
    await t.services.jobs.runDue();
    expect(asked).toBe(6);
    expect(metricValue(await scrapeMetrics(t), "payments_reconciled_total", { outcome: "unavailable" })).toBe(6);
    const still = await t.database.db.select({ count: sql<number>`count(*)::int` }).from(payments).where(eq(payments.status, "pending"));
    expect(still).toEqual([{ count: 5 }]);
  });
});
