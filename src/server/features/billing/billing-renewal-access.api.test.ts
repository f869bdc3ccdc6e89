// A plan being renewed automatically keeps its access (docs/subscriptions.md, "Automatic renewal",
// "Access while it renews"): from the period's end until the day's renewal run has charged the card,
// the learner keeps the plan and is told nothing of an end; the month bought starts at the old end;
// only a renewal that failed ends the plan, and only then is "Your plan has ended" sent. Each test
// follows one learner's days on the server's clock (the schedules and jobs run as the server runs
// them, every 15 minutes), worked out by hand below; the tests follow each other in time, as the
// server's schedules remember when they last ran.
import { and, eq, like } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { payments, users } from "../../db/schema.ts";
import { cookieHeader, createSignedInUser, ipAllocator, mailsTo, me, PASSWORD, signIn, type TestUser } from "../../testing/accounts.ts";
import { billingApi, checkoutReference, simulatePayment, simulatorSecretKey } from "../../testing/billing.ts";
import { createTestApp, type TestApp } from "../../testing/test-app.ts";

const nextIp = ipAllocator(183);

const ENDED = "Your Trading Academy plan has ended";
const NOT_RENEWED = "We could not renew your Trading Academy plan";

let t: TestApp;
let api: ReturnType<typeof billingApi>;

beforeAll(async () => {
  t = await createTestApp({ listen: true });
  api = billingApi(t, nextIp);
});
afterAll(() => t.close());
afterEach(() => {
  vi.useRealTimers();
});

/** The server's clock, and every other in this process, stands at `iso` until moved again. */
function clockAt(iso: string) {
  vi.useFakeTimers({ toFake: ["Date"], now: new Date(iso) });
}

/** How the simulator answers the next Charge Authorization calls. */
async function chargesAnswer(mode: "success" | "failed", reason?: string) {
  const response = await fetch(`${t.baseUrl}/dev/fakes/paystack/simulate/charge-authorization-mode`, {
    method: "POST",
    headers: { authorization: `Bearer ${simulatorSecretKey(t)}`, "content-type": "application/json" },
    body: JSON.stringify({ mode, reason }),
  });
  expect(response.status).toBe(200);
}

/** A learner who buys a month of Intermediate by card now, and chooses automatic renewal or not. */
async function cardPayer(name: string, autoRenew: boolean): Promise<TestUser> {
  const learner = await createSignedInUser(t, { email: `${name}@example.com`, nextIp });
  const reference = checkoutReference(await api.buy(learner, "intermediate"));
  await simulatePayment(t, reference, { outcome: "success", channel: "card", deliverWebhook: false });
  expect((await api.verify(learner, reference)).statusCode).toBe(200);
  if (autoRenew) {
    const on = await api.call(learner, { method: "PUT", url: "/api/subscription/auto-renewal", payload: { enabled: true } });
    expect(on.statusCode, on.body).toBe(200);
  }
  return learner;
}

/** Signed in again (a session lasts days, the timeline a month). */
async function signedInAgain(learner: TestUser): Promise<TestUser> {
  const response = await signIn(t, learner.email, PASSWORD, nextIp());
  expect(response.statusCode, response.body).toBe(200);
  return { ...learner, cookie: cookieHeader(response.headers["set-cookie"]) };
}

/** The run the server makes every 15 minutes: its schedules (expiry, then renewal claims), then the jobs they queued. */
async function serverRuns() {
  await t.services.scheduler.runDue();
  await t.services.jobs.runDue();
}

/** What the learner notices: their plan, whether Intermediate opens, and the page's period end. */
async function access(learner: TestUser) {
  const track = await api.call(learner, { method: "GET", url: "/api/programs/intermediate" });
  const subscription = z
    .object({ plan: z.object({ name: z.string() }), currentPeriodEnd: z.string().nullable() })
    .parse((await api.readSubscription(learner)).json());
  return { plan: (await me(t, learner.cookie))?.plan, intermediateOpens: track.statusCode === 200, periodEnd: subscription.currentPeriodEnd };
}

const subjects = async (learner: TestUser) => (await mailsTo(t, learner.email)).map((mail) => mail.subject);
const periodEnd = async (learner: TestUser) =>
  (await t.database.db.select({ end: users.subscriptionEnd }).from(users).where(eq(users.id, learner.id)))[0]?.end?.toISOString();
const renewalPayments = (learner: TestUser) =>
  t.database.db
    .select()
    .from(payments)
    .where(and(eq(payments.userId, learner.id), like(payments.reference, "LTF-RENEW-%")));

describe("a plan being renewed automatically", () => {
  it("keeps its access past its end until the day's run renews it, the new month counted from the old end", async () => {
    // Timeline (UTC): bought Wednesday 3 February 2027 at 00:05, so the month ends Wednesday
    // 3 March 2027 at 00:05, before that day's first renewal run at 00:14. The month renewed then
    // runs from the old end, 3 March 00:05, to Saturday 3 April 2027 at 00:05 (not from 00:14).
    // Beside it, a card payer who did not choose automatic renewal: their plan ends at 00:05.
    await chargesAnswer("success");
    clockAt("2027-02-03T00:05:00Z");
    let renews = await cardPayer("renews-on-time", true);
    let manual = await cardPayer("renews-by-hand", false);
    expect(await periodEnd(renews)).toBe("2027-03-03T00:05:00.000Z");
    expect(await periodEnd(manual)).toBe("2027-03-03T00:05:00.000Z");

    // 3 March, 00:10: both periods are over; no run yet since the end.
    clockAt("2027-03-03T00:10:00Z");
    renews = await signedInAgain(renews);
    manual = await signedInAgain(manual);
    expect(await access(renews)).toEqual({ plan: "intermediate", intermediateOpens: true, periodEnd: "2027-03-03T00:05:00.000Z" });
    expect(await access(manual)).toEqual({ plan: "legacyFree", intermediateOpens: false, periodEnd: null });

    // 00:14: the day's run. The expiry ends the plan without automatic renewal, and tells its learner;
    // the other is claimed and charged, and keeps its plan throughout.
    clockAt("2027-03-03T00:14:00Z");
    await t.services.scheduler.runDue();
    expect((await access(renews)).plan).toBe("intermediate");
    await t.services.jobs.runDue();

    const [renewal, ...more] = await renewalPayments(renews);
    expect(more).toEqual([]);
    expect(renewal).toMatchObject({ status: "success", periodStart: new Date("2027-03-03T00:05:00Z"), periodEnd: new Date("2027-04-03T00:05:00Z") });
    expect(await periodEnd(renews)).toBe("2027-04-03T00:05:00.000Z");
    expect(await access(renews)).toEqual({ plan: "intermediate", intermediateOpens: true, periodEnd: "2027-04-03T00:05:00.000Z" });
    const renewedMails = await subjects(renews);
    expect(renewedMails).toContain(`Your Trading Academy receipt ${renewal?.reference}`);
    expect(renewedMails).not.toContain(ENDED);
    const [receipt] = (await mailsTo(t, renews.email)).filter((mail) => mail.subject.includes(renewal?.reference ?? "-"));
    expect(receipt?.text).toContain("For: 1 month of the Intermediate plan, 3 March 2027 to 3 April 2027");
    expect(receipt?.text).toContain("Your plan runs until: 3 April 2027");

    expect(await subjects(manual)).toContain(ENDED);

    // The next runs change nothing for the renewed learner: no end, no mail.
    clockAt("2027-03-03T00:29:00Z");
    await serverRuns();
    expect(await subjects(renews)).not.toContain(ENDED);
    expect(await periodEnd(renews)).toBe("2027-04-03T00:05:00.000Z");
  });

  it("a renewal the bank declines ends the plan then, and only then is the learner told it has ended", async () => {
    // Timeline (UTC): bought Monday 3 May 2027 at 00:05; the month ends Thursday 3 June 2027 at
    // 00:05. The run at 00:14 first finds the renewal due (the plan is not ended), then charges the
    // card, which the bank declines: the plan ends there. The run after it, at 00:29, ends it in the
    // records and sends "Your plan has ended"; the learner heard of the decline at 00:14.
    await chargesAnswer("failed", "Insufficient Funds");
    clockAt("2027-05-03T00:05:00Z");
    let declined = await cardPayer("renewal-declined", true);
    expect(await periodEnd(declined)).toBe("2027-06-03T00:05:00.000Z");

    clockAt("2027-06-03T00:10:00Z");
    declined = await signedInAgain(declined);
    expect(await access(declined)).toEqual({ plan: "intermediate", intermediateOpens: true, periodEnd: "2027-06-03T00:05:00.000Z" });

    clockAt("2027-06-03T00:14:00Z");
    await serverRuns();
    expect((await renewalPayments(declined)).map((payment) => payment.status)).toEqual(["failed"]);
    expect(await access(declined)).toEqual({ plan: "legacyFree", intermediateOpens: false, periodEnd: null });
    const atDecline = await subjects(declined);
    expect(atDecline).toContain(NOT_RENEWED);
    expect(atDecline).not.toContain(ENDED);

    clockAt("2027-06-03T00:29:00Z");
    await serverRuns();
    expect((await subjects(declined)).filter((subject) => subject === ENDED)).toHaveLength(1);
    expect(await periodEnd(declined)).toBe("2027-06-03T00:05:00.000Z");
    await chargesAnswer("success");
  });

  it("a renewal claimed on the day, and charged only after midnight, keeps the plan until it is charged", async () => {
    // Timeline (UTC): bought Saturday 3 July 2027 at 23:55; the month ends Tuesday 3 August 2027 at
    // 23:55. That day's run at 23:50 claims the renewal, and the instance stops before charging
    // it. Wednesday 4 August, 00:10: the period is over and no longer ends today, but its charge
    // is under way, so the plan runs on and the expiry leaves it. The charge goes through at
    // 00:11; the month runs from the old end, 3 August 23:55, to Friday 3 September 2027 at 23:55.
    await chargesAnswer("success");
    clockAt("2027-07-03T23:55:00Z");
    let late = await cardPayer("charged-after-midnight", true);
    expect(await periodEnd(late)).toBe("2027-08-03T23:55:00.000Z");

    clockAt("2027-08-03T23:50:00Z");
    await t.services.scheduler.runDue();

    clockAt("2027-08-04T00:10:00Z");
    late = await signedInAgain(late);
    await t.services.scheduler.runDue();
    expect(await access(late)).toEqual({ plan: "intermediate", intermediateOpens: true, periodEnd: "2027-08-03T23:55:00.000Z" });
    expect(await subjects(late)).not.toContain(ENDED);

    clockAt("2027-08-04T00:11:00Z");
    await t.services.jobs.runDue();
    expect((await renewalPayments(late)).map((payment) => [payment.status, payment.periodStart?.toISOString()])).toEqual([
      ["success", "2027-08-03T23:55:00.000Z"],
    ]);
    expect(await access(late)).toEqual({ plan: "intermediate", intermediateOpens: true, periodEnd: "2027-09-03T23:55:00.000Z" });
    expect(await subjects(late)).not.toContain(ENDED);
  });
});
