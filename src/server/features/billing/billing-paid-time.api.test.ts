// No learner loses paid time (docs/subscriptions.md, "Paid time is never lost";
// docs/decisions/010): the higher plan runs first and the paid time of a lower plan is queued
// after it, then takes over when the higher one ends, with no reminder for a period that goes on.
import { addDays } from "date-fns/addDays";
import { addMonths } from "date-fns/addMonths";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { jobs, users } from "../../db/schema.ts";
import { ipAllocator, mailsTo, me, type TestUser, type TestUserPlan } from "../../testing/accounts.ts";
import { auditEntries, postWebhook, useBillingApp, userRow } from "../../testing/billing.ts";
import { expireSubscriptions, EXPIRY_REMINDER_JOB } from "./billing-expiry.ts";

const nextIp = ipAllocator(47);
const DAY_MS = 24 * 60 * 60 * 1000;
const inDays = (days: number) => new Date(Date.now() + days * DAY_MS);

const USERS = {
  lateCharge: {},
  downgrader: { plan: "advanced", subscriptionEnd: inDays(5) },
  upgrader: { plan: "intermediate", subscriptionEnd: inDays(20) },
  renewer: { plan: "advanced", subscriptionEnd: inDays(5) },
  handedOver: { plan: "advanced", subscriptionEnd: new Date(Date.now() - 60_000) },
} satisfies Record<string, TestUserPlan>;

describe("paid time is never lost", () => {
  const { t, api, user, buy, paidAtPaystack } = useBillingApp(nextIp, USERS);

  /** Pays a checkout at Paystack and lets the browser's verify credit it. */
  async function payAndVerify(who: TestUser, reference: string) {
    await paidAtPaystack(reference);
    const response = await api.verify(who, reference);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ data: { currentPeriodEnd: string | null } }>();
  }

  const remindersFor = async (who: TestUser) =>
    (await t.database.db.select().from(jobs).where(eq(jobs.kind, EXPIRY_REMINDER_JOB))).filter(
      (job) => (job.payload as { userId?: string }).userId === who.id,
    );

  function periodOf(row: Awaited<ReturnType<typeof userRow>>) {
    const { subscriptionStart: start, subscriptionEnd: end, queuedEnd } = row;
    if (!start || !end) throw new Error("no running period");
    return { start, end, queuedEnd };
  }

  it("moving from Advanced to Intermediate in the renewal window keeps the Advanced days left", async () => {
    const who = user("downgrader");
    const before = periodOf(await userRow(t, who.id));
    expect((await api.checkEligibility(who, "intermediate")).json()).toEqual({ canChange: true, reason: null, daysToWait: 0 });

    const answer = await payAndVerify(who, await buy(who, "intermediate"));
    expect(await userRow(t, who.id)).toMatchObject({
      subscriptionPlan: "advanced",
      subscriptionStart: before.start,
      subscriptionEnd: before.end,
      queuedPlan: "intermediate",
      queuedEnd: addMonths(before.end, 1),
    });
    expect(answer.data.currentPeriodEnd).toBe(before.end.toISOString());
    expect(await me(t, who.cookie)).toMatchObject({ plan: "advanced" });
    expect((await api.call(who, { method: "GET", url: "/api/programs/advanced" })).statusCode).toBe(200);
  });

  it("an upgrade starts Advanced now and queues the unused Intermediate days after it", async () => {
    const who = user("upgrader");
    const before = periodOf(await userRow(t, who.id));

    await payAndVerify(who, await buy(who, "advanced"));
    const after = periodOf(await userRow(t, who.id));
    expect(await userRow(t, who.id)).toMatchObject({ subscriptionPlan: "advanced", queuedPlan: "intermediate" });
    expect(after.end.toISOString()).toBe(addMonths(after.start, 1).toISOString());
    // Exactly the Intermediate time left at the upgrade, to the millisecond.
    expect(after.queuedEnd?.getTime()).toBe(after.end.getTime() + (before.end.getTime() - after.start.getTime()));
    expect(after.queuedEnd && after.queuedEnd.getTime() - after.end.getTime()).toBeGreaterThan(19 * DAY_MS);
  });

  it("renewing the running plan moves the queued time by as much, keeping its length", async () => {
    const who = user("renewer");
    const { end } = periodOf(await userRow(t, who.id));
    const queuedEnd = addDays(end, 12);
    await t.database.db.update(users).set({ queuedPlan: "intermediate", queuedEnd }).where(eq(users.id, who.id));

    await payAndVerify(who, await buy(who, "advanced"));
    const renewed = addMonths(end, 1);
    expect(await userRow(t, who.id)).toMatchObject({
      subscriptionPlan: "advanced",
      subscriptionEnd: renewed,
      queuedPlan: "intermediate",
      queuedEnd: addDays(renewed, 12),
    });
  });

  it("once the current period is over, the queued plan gives access even before the expiry job has run", async () => {
    const who = user("handedOver");
    const queuedEnd = inDays(20);
    await t.database.db.update(users).set({ queuedPlan: "intermediate", queuedEnd }).where(eq(users.id, who.id));

    expect(await me(t, who.cookie)).toMatchObject({ plan: "intermediate", tracks: ["beginner", "intermediate"] });
    expect((await api.call(who, { method: "GET", url: "/api/programs/intermediate" })).statusCode).toBe(200);
    expect((await api.call(who, { method: "GET", url: "/api/programs/advanced" })).statusCode).toBe(403);
    expect((await api.getSubscription(who)).json()).toMatchObject({
      status: "active",
      plan: { name: "intermediate" },
      currentPeriodEnd: queuedEnd.toISOString(),
      queued: null,
    });

    expect(await expireSubscriptions(t.database.db, new Date())).toBe(0);
    expect(await userRow(t, who.id)).toMatchObject({ subscriptionPlan: "intermediate", subscriptionEnd: queuedEnd, queuedPlan: null });
    expect(await remindersFor(who)).toEqual([]);
  });

  // Last: its expiry runs a month ahead, which ends the other tests' periods too.
  it("an old Intermediate checkout paid after Advanced was bought: Advanced stays, Intermediate is queued after it and takes over at its end", async () => {
    const who = user("lateCharge");
    // Two checkouts: Intermediate left open, then Advanced paid.
    const intermediate = await buy(who, "intermediate");
    const advanced = await buy(who, "advanced");
    await payAndVerify(who, advanced);
    const { start, end } = periodOf(await userRow(t, who.id));

    // The Intermediate charge goes through late (a mobile-money prompt answered later); its webhook arrives.
    const data = await paidAtPaystack(intermediate);
    expect((await postWebhook(t, { event: "charge.success", data })).statusCode).toBe(200);

    const queuedEnd = addMonths(end, 1);
    expect(await userRow(t, who.id)).toMatchObject({
      subscriptionPlan: "advanced",
      subscriptionStatus: "active",
      subscriptionStart: start,
      subscriptionEnd: end,
      queuedPlan: "intermediate",
      queuedEnd,
    });
    expect(await me(t, who.cookie)).toMatchObject({ plan: "advanced", tracks: ["beginner", "intermediate", "advanced"] });
    expect((await api.getSubscription(who)).json()).toMatchObject({
      plan: { name: "advanced" },
      currentPeriodEnd: end.toISOString(),
      queued: { plan: { name: "intermediate", label: "Intermediate" }, startsAt: end.toISOString(), endsAt: queuedEnd.toISOString() },
    });
    const audit = await auditEntries(t, who.id);
    expect(audit.map((entry) => entry.action)).toEqual(["payment.credited", "payment.credited"]);
    expect(audit[1]?.changes).toEqual({
      from: { plan: "advanced", status: "active", end: end.toISOString(), queued: null },
      to: { plan: "advanced", status: "active", end: end.toISOString(), queued: { plan: "intermediate", end: queuedEnd.toISOString() } },
    });
    await t.services.jobs.runDue();
    const receipt = (await mailsTo(t, who.email)).find((mail) => mail.subject.includes(intermediate));
    expect(receipt?.text).toContain("Then Intermediate until:");

    // Three days before Advanced ends: no "ends soon" reminder, access goes on.
    // (Each run below also ends the other tests' periods: only this learner is looked at.)
    await expireSubscriptions(t.database.db, addDays(end, -2));
    expect(await remindersFor(who)).toEqual([]);

    // Advanced ends: Intermediate runs from its end to the queued end, with no reminder or email.
    await expireSubscriptions(t.database.db, new Date(end.getTime() + 1000));
    expect(await userRow(t, who.id)).toMatchObject({
      subscriptionPlan: "intermediate",
      subscriptionStatus: "active",
      subscriptionStart: end,
      subscriptionEnd: queuedEnd,
      queuedPlan: null,
      queuedEnd: null,
    });
    const handOver = (await auditEntries(t, who.id)).at(-1);
    expect(handOver).toMatchObject({
      action: "subscription.continued",
      actorId: null,
      changes: { from: { plan: "advanced", end: end.toISOString() }, to: { plan: "intermediate", end: queuedEnd.toISOString() } },
    });
    expect(await remindersFor(who)).toEqual([]);
    await t.services.jobs.runDue();
    expect((await mailsTo(t, who.email)).filter((mail) => mail.subject.includes("plan"))).toEqual([]);

    // And the Intermediate month ends like any other.
    await expireSubscriptions(t.database.db, new Date(queuedEnd.getTime() + 1000));
    expect(await userRow(t, who.id)).toMatchObject({ subscriptionPlan: "intermediate", subscriptionStatus: "expired" });
  });
});
