// Expiry (docs/subscriptions.md, "Expiry and reminders"): a paid month that is over reverts access
// to Free, with an audit entry and a reminder email; the operator command does the same as the
// server's timer.
import { addMonths } from "date-fns/addMonths";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXPIRY_REMINDER_JOB } from "./billing-expiry.ts";
import { runOperatorCommand } from "../../cli/commands.ts";
import { jobs } from "../../db/schema.ts";
import { createSignedInUser, ipAllocator, mailsTo, me, type TestUser, type TestUserPlan } from "../../testing/accounts.ts";
import type { billingApi} from "../../testing/billing.ts";
import { auditEntries, checkoutReference, simulatePayment, userRow, startBillingApp } from "../../testing/billing.ts";
import type { TestApp } from "../../testing/test-app.ts";

const nextIp = ipAllocator(44);

const DAY_MS = 24 * 60 * 60 * 1000;
const yesterday = new Date(Date.now() - DAY_MS);
const tenDaysAgo = new Date(Date.now() - 10 * DAY_MS);

const USERS = {
  lapsed: { plan: "intermediate", status: "active", subscriptionEnd: yesterday },
  lapsedAdvanced: { plan: "advanced", status: "active", subscriptionEnd: tenDaysAgo },
  running: { plan: "intermediate", status: "active", subscriptionEnd: new Date(Date.now() + 20 * DAY_MS) },
  endingSoon: { plan: "advanced", status: "active", subscriptionEnd: new Date(Date.now() + 2 * DAY_MS) },
  admin: { plan: "admin" },
  free: {},
} satisfies Record<string, TestUserPlan>;
type UserKey = keyof typeof USERS;

const ENDED_SUBJECT = "Your Trading Academy plan has ended";

describe("ending paid plans whose month is over", () => {
  let t: TestApp;
  let api: ReturnType<typeof billingApi>;
  let user: (key: UserKey) => TestUser;

  beforeAll(async () => {
    ({ t, api, user } = await startBillingApp(nextIp, USERS));
  });
  afterAll(() => t.close());

  const reminderJobs = async () =>
    (await t.database.db.select().from(jobs).where(eq(jobs.kind, EXPIRY_REMINDER_JOB))).filter(
      (job) => typeof job.payload === "object" && job.payload !== null && "kind" in job.payload && job.payload.kind === "expired",
    );
  const endedMails = async (who: TestUser) => (await mailsTo(t, who.email)).filter((mail) => mail.subject === ENDED_SUBJECT);

  it("expires lapsed plans once: audit entry, reminder email, no more access; a second run changes nothing", async () => {
    const lapsed = user("lapsed");
    const lapsedAdvanced = user("lapsedAdvanced");
    const untouched = [user("running"), user("endingSoon"), user("admin"), user("free")];
    const untouchedBefore = await Promise.all(untouched.map((who) => userRow(t, who.id)));

    expect(await runOperatorCommand(t.database.db, { name: "expire-subscriptions" })).toBe("2 subscriptions ended.");

    for (const [who, plan, end] of [
      [lapsed, "intermediate", yesterday],
      [lapsedAdvanced, "advanced", tenDaysAgo],
    ] as const) {
      // The stored plan stays (the reminder names it); the status makes the effective plan Free.
      expect(await userRow(t, who.id)).toMatchObject({ subscriptionPlan: plan, subscriptionStatus: "expired" });
      const audit = await auditEntries(t, who.id);
      expect(audit.map((entry) => entry.action)).toEqual(["subscription.expired"]);
      expect(audit[0]).toMatchObject({ actorId: null, changes: { plan, end: end.toISOString() } });
      expect(await me(t, who.cookie)).toMatchObject({ plan: "legacyFree", tracks: ["beginner"] });
    }
    for (const [index, who] of untouched.entries()) {
      expect(await userRow(t, who.id)).toEqual(untouchedBefore[index]);
      expect(await auditEntries(t, who.id)).toEqual([]);
    }

    const track = await api.call(lapsed, { method: "GET", url: "/api/programs/intermediate" });
    expect(track.statusCode, track.body).toBe(403);
    expect(track.json()).toEqual({ error: { code: "PREMIUM_ONLY", message: "Available to Premium users only", requestId: expect.any(String) } });
    expect((await api.call(lapsedAdvanced, { method: "GET", url: "/api/programs/advanced" })).statusCode).toBe(403);
    expect((await api.getSubscription(lapsed)).json()).toMatchObject({
      status: "expired",
      plan: { name: "legacyFree" },
      currentPeriodEnd: null,
    });

    expect(await reminderJobs()).toHaveLength(2);
    await t.services.jobs.runDue();
    for (const who of [lapsed, lapsedAdvanced]) {
      const mails = await endedMails(who);
      expect(mails).toHaveLength(1);
      expect(mails[0]?.text).toContain("/subscription");
    }
    expect(await endedMails(user("running"))).toEqual([]);

    // Again: nothing left to end, no new entry, job or email.
    expect(await runOperatorCommand(t.database.db, { name: "expire-subscriptions" })).toBe("0 subscriptions ended.");
    await t.services.jobs.runDue();
    expect(await reminderJobs()).toHaveLength(2);
    for (const who of [lapsed, lapsedAdvanced]) {
      expect(await auditEntries(t, who.id)).toHaveLength(1);
      expect(await endedMails(who)).toHaveLength(1);
      expect(await userRow(t, who.id)).toMatchObject({ subscriptionStatus: "expired" });
    }
  });

  it("an expired user may buy again: the new month starts now, and the pending reminder is dropped", async () => {
    const renewer = await createSignedInUser(t, {
      email: "renewer@example.com",
      nextIp,
      plan: "intermediate",
      status: "active",
      subscriptionEnd: yesterday,
    });
    expect(await runOperatorCommand(t.database.db, { name: "expire-subscriptions" })).toBe("1 subscription ended.");
    expect((await api.checkEligibility(renewer, "intermediate")).json()).toEqual({ canChange: true, reason: null, daysToWait: 0 });

    // Renewed before the reminder job ran.
    const reference = checkoutReference(await api.buy(renewer, "intermediate"));
    await simulatePayment(t, reference, { outcome: "success", deliverWebhook: false });
    const before = Date.now();
    const response = await api.verify(renewer, reference);
    expect(response.statusCode, response.body).toBe(200);

    const row = await userRow(t, renewer.id);
    expect(row).toMatchObject({ subscriptionPlan: "intermediate", subscriptionStatus: "active" });
    const start = row.subscriptionStart;
    if (!start) throw new Error("no start");
    expect(start.getTime()).toBeGreaterThanOrEqual(before - 1);
    expect(row.subscriptionEnd?.toISOString()).toBe(addMonths(start, 1).toISOString());
    expect((await api.call(renewer, { method: "GET", url: "/api/programs/intermediate" })).statusCode).toBe(200);

    await t.services.jobs.runDue();
    expect(await endedMails(renewer)).toEqual([]);
    expect((await mailsTo(t, renewer.email)).map((mail) => mail.subject)).toContain(`Your Trading Academy receipt ${reference}`);
  });

  it("reminds once, 3 days before the end, while the plan still runs", async () => {
    const soon = user("endingSoon");
    await runOperatorCommand(t.database.db, { name: "expire-subscriptions" });
    await runOperatorCommand(t.database.db, { name: "expire-subscriptions" });
    await t.services.jobs.runDue();
    const reminders = (await mailsTo(t, soon.email)).filter((mail) => mail.subject.startsWith("Your Trading Academy plan ends on"));
    expect(reminders).toHaveLength(1);
    expect(reminders[0]?.text).toContain("Renew before then to keep your access.");
    expect(await userRow(t, soon.id)).toMatchObject({ subscriptionPlan: "advanced", subscriptionStatus: "active" });
  });
});
