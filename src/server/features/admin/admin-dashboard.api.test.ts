// The dashboard (docs/admin.md, "Dashboard"): every figure against a dataset whose answers are
// known, the funnel's period and its refusals. The data is written straight into the tables, as
// payments, refunds, learning and expiry leave it, around the real clock (the route reads it).
import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DASHBOARD_CAPTIONS, DASHBOARD_MESSAGES, addDays, type Dashboard } from "../../../shared/contracts/admin-dashboard.ts";
import { sectionTitle } from "../../../shared/section-title.ts";
import { auditLog, certificates, modules, payments, refunds, userProgress, users } from "../../db/schema.ts";
import { createTestUsers, ipAllocator, type TestUser } from "../../testing/accounts.ts";
import { createTestApp, type TestApp } from "../../testing/test-app.ts";
import { placeOnWaitlist } from "../../testing/waitlist.ts";

const nextIp = ipAllocator(118);
const DAY_MS = 24 * 60 * 60 * 1000;

const now = new Date();
const daysFromNow = (days: number) => new Date(now.getTime() + days * DAY_MS);
/** The first instant of the month `offset` months from this one (UTC, the academy's calendar). */
const monthStart = (offset: number) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1));
const monthKey = (offset: number) => monthStart(offset).toISOString().slice(0, 7);
const plusDays = (date: Date, days: number) => new Date(date.getTime() + days * DAY_MS);

type Learner = Partial<typeof users.$inferInsert> & { id: string };

async function addLearners(t: TestApp, learners: Learner[]) {
  await t.database.db.insert(users).values(learners.map((learner) => ({ email: `${learner.id}@example.com`, ...learner })));
}

let paymentCount = 0;
function payment(overrides: Partial<typeof payments.$inferInsert> & { amountMinor: number }) {
  paymentCount++;
  return {
    reference: `LTF-INTERMEDIATE-${paymentCount}`,
    userEmail: "payer@example.com",
    kind: "subscription" as const,
    plan: "intermediate" as const,
    priceUsdCents: 3500,
    exchangeRate: "15.000000",
    status: "success" as const,
    ...overrides,
  };
}

describe("the dashboard", () => {
  let t: TestApp;
  let admin: TestUser;
  let learner: TestUser;
  let lessons: Record<string, string[]>;

  beforeAll(async () => {
    t = await createTestApp();
    const user = await createTestUsers(t, nextIp, { admin: { plan: "admin" }, learner: {} });
    admin = user("admin");
    learner = user("learner");
    const { db } = t.database;
    const rows = await db.select().from(modules).orderBy(modules.programId, modules.position);
    lessons = {};
    for (const row of rows) (lessons[row.programId] ??= []).push(row.id);
  });
  afterAll(() => t.close());

  async function dashboard(query: Record<string, string> = {}): Promise<Dashboard> {
    const response = await t.app.inject({ url: `/api/admin/dashboard?${new URLSearchParams(query)}`, headers: { cookie: admin.cookie } });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Dashboard>();
  }

  /** The lesson ids of a program, first to last. */
  function lessonsOf(program: string): string[] {
    const ids = lessons[program];
    if (!ids) throw new Error(`no lessons for ${program}`);
    return ids;
  }
  const watched = (program: string, ...numbers: number[]) =>
    Object.fromEntries(numbers.map((n) => [lessonsOf(program)[n - 1] ?? "", true]));

  describe("with nothing yet", () => {
    it("answers every section with zeros and empty lists, not an error", async () => {
      const answer = await dashboard({ from: "2010-01-01", to: "2010-01-31" });
      expect(answer.revenue.months).toHaveLength(12);
      expect(answer.revenue.months.every((month) => month.netMinor === 0)).toBe(true);
      expect(answer.revenue.monthToDate).toMatchObject({ thisMonthMinor: 0, lastMonthSameDaysMinor: 0, lastMonthMinor: 0 });
      expect(answer.learners).toMatchObject({ total: 0, byPlan: [{ plan: "intermediate", learners: 0 }, { plan: "advanced", learners: 0 }] });
      expect(answer.renewals).toMatchObject({ due: 0, renewed: 0, expiredNotRenewed: 0 });
      expect(answer.funnel.steps.map((step) => [step.learners, step.conversion])).toEqual([
        [0, null],
        [0, null],
        [0, null],
        [0, null],
        [0, null],
      ]);
      expect(answer.completion.programs.map((p) => [p.programId, p.started, p.finished, p.medianDaysToFinish])).toEqual([
        ["beginner", 0, 0, null],
        ["intermediate", 0, 0, null],
        ["advanced", 0, 0, null],
      ]);
      expect(answer.stops.lessons).toEqual([]);
      expect(answer.waitlist.cohorts).toEqual([]);
    });
  });

  describe("revenue", () => {
    beforeAll(async () => {
      const { db } = t.database;
      const inserted = await db
        .insert(payments)
        .values([
          // This month, at its very first instant.
          payment({ amountMinor: 50_000, paidAt: monthStart(0) }),
          // Last month: on its first day (refunded in full this month), and on its 28th.
          payment({ amountMinor: 30_000, paidAt: monthStart(-1), status: "refunded", refundedMinor: 30_000 }),
          payment({ amountMinor: 20_000, paidAt: plusDays(monthStart(-1), 27) }),
          // Three months ago, half refunded two months ago; 11 months ago, the first month shown.
          payment({ amountMinor: 40_000, paidAt: plusDays(monthStart(-3), 4), refundedMinor: 10_000 }),
          payment({ amountMinor: 10_000, paidAt: plusDays(monthStart(-11), 5), kind: "waitlist", plan: "advanced" }),
          // Not counted: a month before the chart, money that never came, a checkout still open.
          payment({ amountMinor: 99_900, paidAt: plusDays(monthStart(-12), 10) }),
          payment({ amountMinor: 77_700, status: "failed" }),
          payment({ amountMinor: 66_600, status: "pending" }),
        ])
        .returning({ id: payments.id, amountMinor: payments.amountMinor });
      const paymentOf = (amount: number) => inserted.find((row) => row.amountMinor === amount)?.id ?? "";
      await db.insert(refunds).values([
        { paymentId: paymentOf(30_000), amountMinor: 30_000, status: "processed", processedAt: monthStart(0) },
        { paymentId: paymentOf(40_000), amountMinor: 10_000, status: "processed", processedAt: plusDays(monthStart(-2), 1) },
        // Not money given back (yet): a refund Paystack has not processed, one that failed.
        { paymentId: paymentOf(40_000), amountMinor: 5_000, status: "pending" },
        { paymentId: paymentOf(20_000), amountMinor: 5_000, status: "failed", processedAt: plusDays(monthStart(-1), 27) },
      ]);
    });

    it("gives each of the last 12 months what was paid, less what was refunded, by the day each happened", async () => {
      const { revenue } = await dashboard();
      expect(revenue.caption).toBe(DASHBOARD_CAPTIONS.revenue);
      expect(revenue.months.map((month) => month.month)).toEqual(Array.from({ length: 12 }, (_, i) => monthKey(i - 11)));
      const nonZero = revenue.months.filter((month) => month.receivedMinor !== 0 || month.refundedMinor !== 0);
      expect(nonZero).toEqual([
        { month: monthKey(-11), receivedMinor: 10_000, refundedMinor: 0, netMinor: 10_000 },
        { month: monthKey(-3), receivedMinor: 40_000, refundedMinor: 0, netMinor: 40_000 },
        { month: monthKey(-2), receivedMinor: 0, refundedMinor: 10_000, netMinor: -10_000 },
        { month: monthKey(-1), receivedMinor: 50_000, refundedMinor: 0, netMinor: 50_000 },
        { month: monthKey(0), receivedMinor: 50_000, refundedMinor: 30_000, netMinor: 20_000 },
      ]);
    });

    it("sets this month so far against the same days of last month, and all of it", async () => {
      const { monthToDate } = (await dashboard()).revenue;
      const today = now.getUTCDate();
      expect(monthToDate).toMatchObject({
        days: today,
        thisMonthMinor: 20_000,
        // Last month's 28th is among "the same days" from the 28th of this month on.
        lastMonthSameDaysMinor: today >= 28 ? 50_000 : 30_000,
        lastMonthMinor: 50_000,
      });
      expect(monthToDate.caption).toBe(DASHBOARD_CAPTIONS.monthToDate(today, monthKey(0), monthKey(-1)));
    });
  });

  describe("paid learners, renewals and expiries", () => {
    beforeAll(async () => {
      const paid = (plan: "intermediate" | "advanced", end: Date) => ({
        subscriptionPlan: plan,
        subscriptionStatus: "active" as const,
        subscriptionStart: new Date(end.getTime() - 30 * DAY_MS),
        subscriptionEnd: end,
      });
      await addLearners(t, [
        { id: "runs", ...paid("intermediate", daysFromNow(20)) },
        { id: "ends-soon", ...paid("advanced", daysFromNow(3)) },
        // Ends soon, but the lower plan queued after it runs on for a month.
        { id: "queued", ...paid("advanced", daysFromNow(2)), queuedPlan: "intermediate", queuedEnd: daysFromNow(32) },
        // Over an hour ago; the expiry job has not come round yet.
        { id: "overdue", ...paid("intermediate", daysFromNow(-1 / 24)) },
        { id: "renewed", ...paid("intermediate", daysFromNow(35)) },
        { id: "renews-later", ...paid("intermediate", daysFromNow(40)) },
        { id: "first-month", ...paid("intermediate", daysFromNow(29)) },
        { id: "lapsed", subscriptionPlan: "intermediate", subscriptionStatus: "expired", subscriptionEnd: daysFromNow(-5) },
        { id: "lapsed-twice", subscriptionPlan: "advanced", subscriptionStatus: "expired", subscriptionEnd: daysFromNow(-2) },
        { id: "lapsed-long-ago", subscriptionPlan: "intermediate", subscriptionStatus: "expired", subscriptionEnd: daysFromNow(-40) },
        { id: "came-back", ...paid("intermediate", daysFromNow(27)) },
      ]);
      const credited = (subject: string, daysAgo: number, previousEnd: Date | null) => ({
        actorId: null,
        subjectUserId: subject,
        action: "payment.credited",
        reason: `payment LTF-${subject}`,
        changes: { from: { plan: previousEnd ? "intermediate" : "legacyFree", end: previousEnd }, to: { plan: "intermediate", end: daysFromNow(35) } },
        createdAt: daysFromNow(-daysAgo),
      });
      const expired = (subject: string, daysAgo: number) => ({
        actorId: null,
        subjectUserId: subject,
        action: "subscription.expired",
        reason: "the paid month ended",
        changes: { plan: "intermediate", end: daysFromNow(-daysAgo) },
        createdAt: daysFromNow(-daysAgo),
      });
      const adminId = admin.id;
      await t.database.db.insert(auditLog).values([
        // Paid two days ago for the month after one that ends in five days: due, and renewed.
        credited("renewed", 2, daysFromNow(5)),
        // Its period ended beyond the 7 days: renewed early, not due this week.
        credited("renews-later", 1, daysFromNow(10)),
        // A first purchase renews nothing.
        credited("first-month", 1, null),
        credited(adminId, 1, daysFromNow(4)),
        expired("lapsed", 5),
        expired("lapsed-twice", 25),
        expired("lapsed-twice", 2),
        expired("lapsed-long-ago", 40),
        expired("came-back", 3),
        expired(adminId, 3),
      ]);
    });

    it("counts the learners whose paid plan runs today, by plan, administrators aside", async () => {
      const answer = await dashboard();
      expect(answer.learners.byPlan).toEqual([
        { plan: "intermediate", learners: 5 },
        { plan: "advanced", learners: 2 },
      ]);
      expect(answer.learners.total).toBe(7);
      expect(answer.learners.caption).toBe(DASHBOARD_CAPTIONS.learners);
    });

    it("counts the paid time ending in the next 7 days and who of them paid again, and the expiries not renewed", async () => {
      const { renewals } = await dashboard();
      // Due: ends-soon, and renewed (whose old end was in five days).
      expect(renewals).toMatchObject({ due: 2, renewed: 1, expiredNotRenewed: 2 });
      expect(renewals.caption).toBe(DASHBOARD_CAPTIONS.renewals);
      expect(renewals.expiriesCaption).toBe(DASHBOARD_CAPTIONS.expiries);
    });
  });

  describe("the funnel", () => {
    const day = (date: string, time = "12:00:00") => new Date(`${date}T${time}Z`);
    beforeAll(async () => {
      const { db } = t.database;
      const registered = (id: string, createdAt: Date, emailVerified = true): Learner => ({ id, createdAt, emailVerified });
      await addLearners(t, [
        registered("f-unverified", day("2025-01-05"), false),
        registered("f-verified", day("2025-01-06")),
        registered("f-started", day("2025-01-07")),
        registered("f-finished", day("2025-01-08")),
        registered("f-paid", day("2025-01-09")),
        registered("f-revoked", day("2025-01-10")),
        // Paid, but never verified (an administrator's doing): a funnel keeps to its steps.
        registered("f-paid-unverified", day("2025-01-11"), false),
        registered("f-last-second", day("2025-01-31", "23:59:59")),
        registered("f-not-started", day("2025-01-12")),
        // Outside the period, by a second either side.
        registered("f-after", day("2025-02-01", "00:00:00")),
        registered("f-before", day("2024-12-31", "23:59:59")),
        { ...registered("f-admin", day("2025-01-15")), subscriptionPlan: "admin" },
      ]);
      const started = (userId: string, startedAt: Date, data: Record<string, boolean> = watched("beginner", 1)) => ({
        userId,
        programId: "beginner",
        data,
        startedAt,
      });
      await db.insert(userProgress).values([
        started("f-started", day("2025-01-10")),
        started("f-finished", day("2025-01-10"), watched("beginner", 1, 2, 3)),
        started("f-paid", day("2025-01-10"), watched("beginner", 1, 2, 3)),
        started("f-revoked", day("2025-01-10"), watched("beginner", 1, 2, 3)),
        started("f-after", day("2025-02-02")),
        started("f-admin", day("2025-01-16")),
        { userId: "f-not-started", programId: "beginner", data: {} },
      ]);
      const certificate = (userId: string, issuedAt: Date, revokedAt: Date | null = null) => ({
        id: `TA-${userId.toUpperCase().replace(/[^A-Z]/g, "").padEnd(10, "X").slice(0, 10)}`,
        userId,
        holderName: userId,
        programId: "beginner",
        programTitle: "Beginner Program",
        issuedAt,
        revokedAt,
      });
      await db.insert(certificates).values([
        certificate("f-finished", day("2025-01-12")),
        certificate("f-paid", day("2025-01-20")),
        certificate("f-revoked", day("2025-01-12"), day("2025-01-13")),
        certificate("f-admin", day("2025-01-17")),
      ]);
      await db.insert(payments).values([
        payment({ amountMinor: 1_000, userId: "f-paid", paidAt: day("2024-03-01") }),
        payment({ amountMinor: 1_000, userId: "f-revoked", paidAt: day("2024-03-01") }),
        payment({ amountMinor: 1_000, userId: "f-paid-unverified", paidAt: day("2024-03-01") }),
        payment({ amountMinor: 1_000, userId: "f-started", status: "abandoned" }),
      ]);
    });

    it("follows the learners who registered in the period, each step among those of the step before", async () => {
      const { funnel } = await dashboard({ from: "2025-01-01", to: "2025-01-31" });
      expect(funnel).toMatchObject({ from: "2025-01-01", to: "2025-01-31", caption: DASHBOARD_CAPTIONS.funnel("2025-01-01", "2025-01-31") });
      expect(funnel.steps).toEqual([
        { step: "registered", label: "Registered", learners: 9, conversion: null },
        { step: "verified", label: "Verified their email", learners: 7, conversion: 7 / 9 },
        { step: "startedBeginner", label: "Started Beginner", learners: 4, conversion: 4 / 7 },
        { step: "finishedBeginner", label: "Finished Beginner", learners: 2, conversion: 0.5 },
        { step: "paid", label: "Paid", learners: 1, conversion: 0.5 },
      ]);
    });

    it("keeps the days of the period whole, on the academy's calendar", async () => {
      const oneDay = await dashboard({ from: "2025-01-31", to: "2025-01-31" });
      expect(oneDay.funnel.steps[0]?.learners).toBe(1);
      const nextDay = await dashboard({ from: "2025-02-01", to: "2025-02-01" });
      expect(nextDay.funnel.steps.map((step) => step.learners)).toEqual([1, 1, 1, 0, 0]);
    });

    it("answers a period without registrations with zeros", async () => {
      const { funnel } = await dashboard({ from: "2019-06-01", to: "2019-06-30" });
      expect(funnel.steps.map((step) => step.learners)).toEqual([0, 0, 0, 0, 0]);
    });

    it("follows each learner as they move after the period: a certificate revoked, progress reset, a payment settled", async () => {
      const { db } = t.database;
      const march = { from: "2025-03-01", to: "2025-03-31" };
      const steps = async () => (await dashboard(march)).funnel.steps.map((step) => step.learners);
      await addLearners(t, [
        { id: "m-started", createdAt: day("2025-03-02"), emailVerified: true },
        { id: "m-finished", createdAt: day("2025-03-03"), emailVerified: true },
        { id: "m-payer", createdAt: day("2025-03-04"), emailVerified: true },
      ]);
      await db.insert(userProgress).values(
        ["m-started", "m-finished", "m-payer"].map((userId) => ({ userId, programId: "beginner", data: {}, startedAt: day("2025-03-05") })),
      );
      const certificate = (userId: string) => ({
        id: `TA-${userId.toUpperCase().replace(/[^A-Z]/g, "").padEnd(10, "Y").slice(0, 10)}`,
        userId,
        holderName: userId,
        programId: "beginner",
        programTitle: "Beginner Program",
      });
      await db.insert(certificates).values([certificate("m-finished"), certificate("m-payer")]);
      await db.insert(payments).values(payment({ amountMinor: 1_000, userId: "m-payer", status: "pending" }));
      expect(await steps()).toEqual([3, 3, 3, 2, 0]);

      await db.update(certificates).set({ revokedAt: new Date() }).where(eq(certificates.userId, "m-finished"));
      await db.delete(userProgress).where(eq(userProgress.userId, "m-started"));
      await db.update(payments).set({ status: "success", paidAt: new Date() }).where(eq(payments.userId, "m-payer"));
      expect(await steps()).toEqual([3, 3, 2, 1, 1]);

      // A refund keeps the payment (the money came); the payment gone, so is the step.
      await db.update(payments).set({ status: "refunded" }).where(eq(payments.userId, "m-payer"));
      expect(await steps()).toEqual([3, 3, 2, 1, 1]);
      await db.delete(payments).where(eq(payments.userId, "m-payer"));
      expect(await steps()).toEqual([3, 3, 2, 1, 0]);

      // Gone again, so that the other sections' counts are theirs alone.
      const movers = ["m-started", "m-finished", "m-payer"];
      await db.delete(certificates).where(inArray(certificates.userId, movers));
      await db.delete(users).where(inArray(users.id, movers));
    });

    it("defaults to the last 30 days, today included", async () => {
      const today = new Date().toISOString().slice(0, 10);
      const { funnel } = await dashboard();
      expect(funnel).toMatchObject({ from: addDays(today, -29), to: today });
      // Only `from`: to today; only `to`: the 30 days up to it.
      expect((await dashboard({ from: "2025-01-01" })).funnel).toMatchObject({ from: "2025-01-01", to: today });
      expect((await dashboard({ to: "2025-01-31" })).funnel).toMatchObject({ from: "2025-01-02", to: "2025-01-31" });
    });
  });

  describe("completion and where learners stop", () => {
    beforeAll(async () => {
      const { db } = t.database;
      await addLearners(t, [{ id: "s-second" }, { id: "s-second-too" }, { id: "s-skipped-first" }, { id: "i-finished" }, { id: "i-third" }]);
      const at = new Date("2025-06-01T00:00:00Z");
      await db.insert(userProgress).values([
        { userId: "s-second", programId: "beginner", data: watched("beginner", 1), startedAt: at },
        { userId: "s-second-too", programId: "beginner", data: watched("beginner", 1), startedAt: at },
        // Watched the second video, not the first: stands at the first.
        { userId: "s-skipped-first", programId: "beginner", data: watched("beginner", 2), startedAt: at },
        { userId: "i-finished", programId: "intermediate", data: watched("intermediate", 1, 2, 3), startedAt: at },
        { userId: "i-third", programId: "intermediate", data: watched("intermediate", 1, 2), startedAt: at },
        { userId: admin.id, programId: "intermediate", data: watched("intermediate", 1), startedAt: at },
      ]);
      await db.insert(certificates).values({
        id: "TA-IFINISHED0",
        userId: "i-finished",
        holderName: "I Finished",
        programId: "intermediate",
        programTitle: "Intermediate Program",
        issuedAt: plusDays(at, 4),
      });
    });

    it("counts per program who started, who finished and the median days between", async () => {
      const { completion } = await dashboard();
      expect(completion.caption).toBe(DASHBOARD_CAPTIONS.completion);
      // Beginner: the funnel's five starters (f-finished done after 2 days, f-paid after 10) and three here.
      expect(completion.programs).toEqual([
        { programId: "beginner", title: "Beginner Program", started: 8, finished: 2, medianDaysToFinish: 6 },
        { programId: "intermediate", title: "Intermediate Program", started: 2, finished: 1, medianDaysToFinish: 4 },
        { programId: "advanced", title: "Advanced Program", started: 0, finished: 0, medianDaysToFinish: null },
      ]);
    });

    it("counts the days to finish from the start the certificate was issued with, whatever the progress says since", async () => {
      const { db } = t.database;
      const intermediate = async () => (await dashboard()).completion.programs.find((program) => program.programId === "intermediate");
      const progressOf = and(eq(userProgress.userId, "i-finished"), eq(userProgress.programId, "intermediate"));
      // An administrator resets the progress and the learner starts again, months later.
      await db.update(userProgress).set({ startedAt: new Date("2025-10-01T00:00:00Z") }).where(progressOf);
      try {
        expect(await intermediate()).toMatchObject({ started: 2, finished: 1, medianDaysToFinish: 4 });
      } finally {
        await db.update(userProgress).set({ startedAt: new Date("2025-06-01T00:00:00Z") }).where(progressOf);
      }
    });

    it("lists the first video not watched by those who have not finished, the most common first", async () => {
      const { db } = t.database;
      const title = async (program: string, n: number) => {
        const [row] = await db.select({ title: modules.title }).from(modules).where(eq(modules.id, lessonsOf(program)[n - 1] ?? ""));
        return sectionTitle(n, row?.title ?? "");
      };
      const { stops } = await dashboard();
      expect(stops.caption).toBe(DASHBOARD_CAPTIONS.stops);
      expect(stops.lessons).toEqual([
        // f-started, f-after, s-second, s-second-too.
        { programId: "beginner", programTitle: "Beginner Program", lesson: await title("beginner", 2), learners: 4 },
        { programId: "beginner", programTitle: "Beginner Program", lesson: await title("beginner", 1), learners: 1 },
        // f-revoked watched every video; its certificate was revoked: the quiz again.
        { programId: "beginner", programTitle: "Beginner Program", lesson: DASHBOARD_MESSAGES.quizStop, learners: 1 },
        { programId: "intermediate", programTitle: "Intermediate Program", lesson: await title("intermediate", 3), learners: 1 },
      ]);
    });
  });

  describe("the waitlist", () => {
    beforeAll(async () => {
      const quarters = ["January", "April", "July", "October"];
      // Ten cohorts, from January 2023 to April 2025, one intermediate place each; April 2025 has more.
      const cohorts = Array.from({ length: 10 }, (_, i) => `${quarters[i % 4]} ${2023 + Math.floor(i / 4)}`);
      const ids = cohorts.map((_, i) => `w-${i}`);
      await addLearners(t, [...ids, "w-a", "w-b", "w-c"].map((id) => ({ id })));
      await placeOnWaitlist(t.database.db, [
        ...cohorts.map((cohort, i) => ({ userId: ids[i] ?? "", plan: "intermediate" as const, cohort })),
        { userId: "w-a", plan: "advanced", cohort: "April 2025", admitted: true },
        { userId: "w-b", plan: "advanced", cohort: "April 2025" },
        { userId: "w-c", plan: "intermediate", cohort: "April 2025", admitted: true },
      ]);
    });

    it("counts paid places and admissions per cohort and track, the 8 latest cohorts first", async () => {
      const { waitlist } = await dashboard();
      expect(waitlist.caption).toBe(DASHBOARD_CAPTIONS.waitlist);
      expect(waitlist.cohorts.map((cohort) => cohort.cohort)).toEqual([
        "April 2025",
        "January 2025",
        "October 2024",
        "July 2024",
        "April 2024",
        "January 2024",
        "October 2023",
        "July 2023",
      ]);
      expect(waitlist.cohorts[0]).toEqual({
        cohort: "April 2025",
        startsOn: "2025-04-01",
        tracks: [
          { track: "intermediate", paid: 2, admitted: 1 },
          { track: "advanced", paid: 2, admitted: 1 },
        ],
      });
      expect(waitlist.cohorts[1]?.tracks).toEqual([
        { track: "intermediate", paid: 1, admitted: 0 },
        { track: "advanced", paid: 0, admitted: 0 },
      ]);
    });
  });

  describe("refuses", () => {
    async function refusal(query: Record<string, string>, cookie = admin.cookie) {
      const response = await t.app.inject({ url: `/api/admin/dashboard?${new URLSearchParams(query)}`, headers: { cookie } });
      return { status: response.statusCode, error: response.json<{ error: { code: string; message: string } }>().error };
    }

    it("a date that is not a day, with the way to write one", async () => {
      for (const from of ["2025-13-01", "2025-02-30", "yesterday", "2025-1-5", ""]) {
        expect(await refusal({ from, to: "2025-03-01" }), from).toEqual({
          status: 400,
          error: expect.objectContaining({ message: DASHBOARD_MESSAGES.dateInvalid }) as unknown,
        });
      }
    });

    it("a period that ends before it starts", async () => {
      expect(await refusal({ from: "2025-03-02", to: "2025-03-01" })).toEqual({
        status: 400,
        error: expect.objectContaining({ code: "PERIOD_INVALID", message: DASHBOARD_MESSAGES.periodReversed }) as unknown,
      });
    });

    it("a learner, and a visitor", async () => {
      expect((await refusal({}, learner.cookie)).status).toBe(403);
      expect((await t.app.inject({ url: "/api/admin/dashboard" })).statusCode).toBe(401);
    });
  });
});
