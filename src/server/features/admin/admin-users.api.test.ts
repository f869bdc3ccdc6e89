// The Users tab as an administrator uses it: the list (a few thousand users, filtered, sorted and
// paged by the server), plan changes, Admit from Waitlist, Edit Progress and the Fix tool.
import { addMonths } from "date-fns/addMonths";
import { and, asc, count, eq, isNull, sql } from "drizzle-orm";
import type { InjectOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_MESSAGES, USERS_PAGE_SIZE, type AdminUser, type UserSort } from "../../../shared/contracts/admin.ts";
import type { PaidPlan, Plan, Provider, SubscriptionStatus } from "../../../shared/plans.ts";
import { auditLog, modules, programs, quizSittings, quizzes, userProgress, users, waitlist } from "../../db/schema.ts";
import { placeOnWaitlist } from "../../testing/waitlist.ts";
import { createTestUsers, ipAllocator, mailsTo, type TestUser } from "../../testing/accounts.ts";
import { auditEntries, userRow } from "../../testing/billing.ts";
import { createTestApp, type TestApp } from "../../testing/test-app.ts";

const nextIp = ipAllocator(52);

// ---- A few thousand users, made by one INSERT ... SELECT generate_series ----------------------

const BULK = 3000;
const BASE = new Date("2025-06-01T12:00:00.000Z");
const MINUTE = 60_000;
const PROVIDER_CYCLE: (Provider | null)[] = ["email", "google", "mql5", null];
const PLAN_CYCLE: (Plan | null)[] = ["legacyFree", "intermediate", "advanced", "admin", null];
const pad = (n: number) => String(n).padStart(5, "0");

/** Bulk user i (1..BULK) as the list should show it; the SQL below makes the same rows. */
function bulkUser(i: number): AdminUser {
  const plan = PLAN_CYCLE[i % 5] ?? null;
  const paid = plan === "intermediate" || plan === "advanced";
  const status: SubscriptionStatus = paid ? "active" : "inactive";
  return {
    id: `bulk-${pad(i)}`,
    // The email order is a shuffle of the creation order (1013 is coprime with 3000).
    email: `Bulk-${pad((i * 1013) % BULK)}@Example.com`,
    plan,
    provider: PROVIDER_CYCLE[i % 4] ?? null,
    status,
    subscriptionEnd: paid ? new Date(BASE.getTime() + 30 * 24 * 60 * MINUTE).toISOString() : null,
    queued: null,
    lastActiveAt: i % 3 === 0 ? null : new Date(BASE.getTime() - ((i * 7919) % BULK) * MINUTE).toISOString(),
    waitlistPaid: i % 6 === 0,
    waitlistAdmitted: i % 12 === 0,
    createdAt: new Date(BASE.getTime() - i * MINUTE).toISOString(),
  };
}
const BULK_USERS = Array.from({ length: BULK }, (_, index) => bulkUser(index + 1));

async function insertBulkUsers(t: TestApp) {
  await t.database.db.execute(sql`
    insert into users (id, email, name, email_verified, provider, subscription_plan, subscription_status,
                       subscription_start, subscription_end, last_active_at, waitlist_paid, waitlist_admitted, created_at)
    select 'bulk-' || lpad(i::text, 5, '0'),
           'Bulk-' || lpad(((i * 1013) % ${BULK})::text, 5, '0') || '@Example.com',
           'Bulk ' || i, true,
           (array['email', 'google', 'mql5', null]::provider[])[1 + i % 4],
           plan,
           case when plan in ('intermediate', 'advanced') then 'active' else 'inactive' end::subscription_status,
           case when plan in ('intermediate', 'advanced') then ${BASE.toISOString()}::timestamptz end,
           case when plan in ('intermediate', 'advanced') then ${BASE.toISOString()}::timestamptz + interval '30 days' end,
           case when i % 3 <> 0 then ${BASE.toISOString()}::timestamptz - ((i * 7919) % ${BULK}) * interval '1 minute' end,
           i % 6 = 0, i % 12 = 0,
           ${BASE.toISOString()}::timestamptz - i * interval '1 minute'
    from generate_series(1, ${BULK}) as i,
         lateral (select (array['legacyFree', 'intermediate', 'advanced', 'admin', null]::plan[])[1 + i % 5] as plan) as p`);
}

/** Emails with the LIKE wildcards and the escape character in them, and near-misses. */
const ODD_EMAILS = ["per%cent@odd.test", "perXcent@odd.test", "under_score@odd.test", "underXscore@odd.test", "back\\slash@odd.test"];

const ascending = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The orders the server promises (the bulk users' ids, emails and ISO dates compare as plain text). */
const SORTS: Record<UserSort, (a: AdminUser, b: AdminUser) => number> = {
  newest: (a, b) => ascending(b.createdAt, a.createdAt) || ascending(b.id, a.id),
  email: (a, b) => ascending(a.email.toLowerCase(), b.email.toLowerCase()),
  lastActive: (a, b) => {
    if (a.lastActiveAt === b.lastActiveAt) return ascending(a.id, b.id);
    if (a.lastActiveAt === null) return 1;
    if (b.lastActiveAt === null) return -1;
    return ascending(b.lastActiveAt, a.lastActiveAt);
  },
};

type Listing = { page: number; pageSize: number; total: number; users: AdminUser[] };

describe("the admin Users tab", () => {
  let t: TestApp;
  let user: (key: "admin" | "learner" | "demoted" | "progressLearner" | "queued") => TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    user = await createTestUsers(t, nextIp, {
      admin: { plan: "admin" },
      learner: {},
      demoted: { plan: "admin" },
      progressLearner: {},
      queued: {},
    });
    const started = performance.now();
    await insertBulkUsers(t);
    await t.database.db.insert(users).values(ODD_EMAILS.map((email, index) => ({ id: `odd-${index}`, email, createdAt: BASE })));
    console.info(`inserted ${BULK} users in ${Math.round(performance.now() - started)} ms`);
  });
  afterAll(() => t.close());

  function asAdmin(options: InjectOptions) {
    return t.app.inject({ ...options, headers: { ...options.headers, cookie: user("admin").cookie } });
  }

  async function list(query: Record<string, string>): Promise<Listing> {
    const response = await asAdmin({ url: `/api/admin/users?${new URLSearchParams(query)}` });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Listing>();
  }

  async function userCount(where?: ReturnType<typeof and>) {
    const [row] = await t.database.db.select({ n: count() }).from(users).where(where);
    return row?.n ?? 0;
  }

  describe("the list", () => {
    function expectedPage(filter: (u: AdminUser) => boolean, sort: UserSort, page: number) {
      const matching = BULK_USERS.filter(filter).sort(SORTS[sort]);
      return {
        page,
        pageSize: USERS_PAGE_SIZE,
        total: matching.length,
        users: matching.slice((page - 1) * USERS_PAGE_SIZE, page * USERS_PAGE_SIZE),
      };
    }
    const isBulk = (u: AdminUser) => u.id.startsWith("bulk-");

    it("shows 10 users a page, newest first, with the count of every user", async () => {
      const started = performance.now();
      const first = await list({});
      console.info(`first users page of ${await userCount()} in ${Math.round(performance.now() - started)} ms`);
      expect(first.total).toBe(await userCount());
      expect(first.total).toBe(BULK + ODD_EMAILS.length + 5);
      expect(first.pageSize).toBe(10);
      expect(first.users).toHaveLength(10);
      // The five people who signed up today come before the imported accounts.
      expect(first.users.slice(0, 5).map((u) => u.email).sort()).toEqual(
        (["admin", "demoted", "learner", "progressLearner", "queued"] as const).map((key) => user(key).email).sort(),
      );
      expect(first.users.map((u) => u.createdAt)).toEqual([...first.users.map((u) => u.createdAt)].sort().reverse());
    });

    it.each<[UserSort, number]>([
      ["newest", 1],
      ["newest", 2],
      ["newest", 300],
      ["email", 1],
      ["email", 157],
      ["lastActive", 1],
      ["lastActive", 200],
      ["lastActive", 300],
    ])("sorts by %s in the database (page %i)", async (sort, page) => {
      expect(await list({ search: "bulk-", sort, page: String(page) })).toEqual(expectedPage(isBulk, sort, page));
    });

    it("searches a part of the email, whatever its case", async () => {
      for (const search of ["BULK-0004", "bulk-00042@", "0@example.COM"]) {
        const matches = (u: AdminUser) => u.email.toLowerCase().includes(search.toLowerCase());
        expect(await list({ search })).toEqual(expectedPage(matches, "newest", 1));
      }
      expect(await list({ search: "  bulk-00042@  " })).toEqual(
        expectedPage((u) => u.email.startsWith("Bulk-00042@"), "newest", 1),
      );
    });

    it("takes %, _ and \\ in a search literally", async () => {
      const emailsFor = async (search: string) => (await list({ search })).users.map((u) => u.email);
      expect(await emailsFor("%")).toEqual(["per%cent@odd.test"]);
      expect(await emailsFor("r%c")).toEqual(["per%cent@odd.test"]);
      expect(await emailsFor("_")).toEqual(["under_score@odd.test"]);
      expect(await emailsFor("r_s")).toEqual(["under_score@odd.test"]);
      expect(await emailsFor("\\")).toEqual(["back\\slash@odd.test"]);
      expect(await emailsFor("k\\s")).toEqual(["back\\slash@odd.test"]);
    });

    it("shows only the paid, not yet admitted waitlist users when asked", async () => {
      const pending = (u: AdminUser) => u.waitlistPaid && !u.waitlistAdmitted;
      const all = await list({ waitlistPending: "true" });
      expect(all.total).toBe(await userCount(and(eq(users.waitlistPaid, true), eq(users.waitlistAdmitted, false))));
      expect(all.total).toBe(250);
      expect(all).toEqual(expectedPage(pending, "newest", 1));
      expect(await list({ waitlistPending: "true", sort: "email", page: "25" })).toEqual(expectedPage(pending, "email", 25));
      expect(await list({ waitlistPending: "true", search: "bulk-0000" })).toEqual(
        expectedPage((u) => pending(u) && u.email.toLowerCase().includes("bulk-0000"), "newest", 1),
      );
      expect((await list({ waitlistPending: "false" })).total).toBe(await userCount());
    });

    it("answers an empty page past the end, with the total", async () => {
      expect(await list({ search: "bulk-", page: "301" })).toEqual({ page: 301, pageSize: 10, total: BULK, users: [] });
      expect(await list({ search: "%", page: "2" })).toEqual({ page: 2, pageSize: 10, total: 1, users: [] });
      expect(await list({ search: "nobody-has-this" })).toEqual({ page: 1, pageSize: 10, total: 0, users: [] });
    });

    it.each([["page=0"], ["page=-1"], ["page=1.5"], ["page=abc"], ["sort=oldest"], ["waitlistPending=maybe"]])(
      "refuses %s",
      async (query) => {
        const response = await asAdmin({ url: `/api/admin/users?${query}` });
        expect(response.statusCode).toBe(400);
        expect(response.json().error.code).toBe("VALIDATION");
      },
    );
  });

  describe("changing a plan", () => {
    function setPlan(userId: string, payload: unknown) {
      return asAdmin({ method: "PUT", url: `/api/admin/users/${encodeURIComponent(userId)}/plan`, payload: payload as object });
    }

    it("gives a paid plan for one month from now, and records who did it", async () => {
      const learner = user("learner");
      const before = new Date();
      const response = await setPlan(learner.id, { plan: "advanced" });
      const after = new Date();
      expect(response.statusCode, response.body).toBe(200);
      const answer = response.json<{ user: AdminUser }>().user;
      expect(answer).toMatchObject({ id: learner.id, email: learner.email, plan: "advanced", status: "active" });

      const row = await userRow(t, learner.id);
      expect(row).toMatchObject({ subscriptionPlan: "advanced", subscriptionStatus: "active" });
      expect(row.subscriptionStart?.getTime()).toBeGreaterThanOrEqual(before.getTime());
      expect(row.subscriptionStart?.getTime()).toBeLessThanOrEqual(after.getTime());
      expect(row.subscriptionEnd).toEqual(addMonths(row.subscriptionStart ?? 0, 1));
      expect(answer.subscriptionEnd).toBe(row.subscriptionEnd?.toISOString());

      const [entry] = await auditEntries(t, learner.id);
      expect(entry).toMatchObject({
        actorId: user("admin").id,
        action: "plan.set",
        reason: "admin",
        changes: {
          from: { plan: "legacyFree", end: null },
          to: { plan: "advanced", end: row.subscriptionEnd?.toISOString() },
        },
      });
    });

    it("keeps the paid time queued after the period it replaces, and records it", async () => {
      const learner = user("queued");
      const end = new Date(Date.now() + 3 * 24 * 60 * MINUTE);
      const queuedEnd = addMonths(end, 1);
      await t.database.db
        .update(users)
        .set({ subscriptionPlan: "advanced", subscriptionStatus: "active", subscriptionStart: new Date(), subscriptionEnd: end, queuedPlan: "intermediate", queuedEnd })
        .where(eq(users.id, learner.id));
      const answer = await setPlan(learner.id, { plan: "advanced" });
      expect(answer.statusCode).toBe(200);
      const row = await userRow(t, learner.id);
      // The console shows what runs after the period.
      expect(answer.json<{ user: AdminUser }>().user.queued).toEqual({ plan: "intermediate", end: row.queuedEnd?.toISOString() });
      const newEnd = row.subscriptionEnd ?? new Date(0);
      expect(row).toMatchObject({ subscriptionPlan: "advanced", queuedPlan: "intermediate" });
      expect(row.queuedEnd?.getTime()).toBe(newEnd.getTime() + (queuedEnd.getTime() - end.getTime()));
      const [entry] = await auditEntries(t, learner.id);
      expect(entry?.changes).toMatchObject({ from: { queued: { plan: "intermediate" } }, to: { queued: { plan: "intermediate" } } });

      // Intermediate now: the queued Intermediate time is added to the new month instead.
      expect((await setPlan(learner.id, { plan: "intermediate" })).statusCode).toBe(200);
      const merged = await userRow(t, learner.id);
      expect(merged).toMatchObject({ subscriptionPlan: "intermediate", queuedPlan: null, queuedEnd: null });
      const monthFromStart = addMonths(merged.subscriptionStart ?? 0, 1).getTime();
      expect(merged.subscriptionEnd?.getTime()).toBe(monthFromStart + (queuedEnd.getTime() - end.getTime()));
    });

    it("takes a paid plan away: free, inactive, no dates", async () => {
      const learner = user("learner");
      const response = await setPlan(learner.id, { plan: "legacyFree" });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().user).toMatchObject({ plan: "legacyFree", status: "inactive", subscriptionEnd: null });
      expect(await userRow(t, learner.id)).toMatchObject({ subscriptionStart: null, subscriptionEnd: null });
      expect((await auditEntries(t, learner.id)).map((entry) => entry.action)).toEqual(["plan.set", "plan.set"]);
    });

    it("may demote another administrator", async () => {
      const response = await setPlan(user("demoted").id, { plan: "intermediate" });
      expect(response.statusCode, response.body).toBe(200);
      const panel = await t.app.inject({ url: "/api/admin/summary", headers: { cookie: user("demoted").cookie } });
      expect(panel.statusCode).toBe(403);
    });

    it("refuses an administrator's own plan, so the last one cannot lock everyone out", async () => {
      const response = await setPlan(user("admin").id, { plan: "legacyFree" });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({ error: { code: "OWN_PLAN", message: ADMIN_MESSAGES.ownPlan, requestId: expect.any(String) } });
      expect(await userRow(t, user("admin").id)).toMatchObject({ subscriptionPlan: "admin" });
      expect(await auditEntries(t, user("admin").id)).toEqual([]);
    });

    it("answers 404 for an unknown user and 400 for a plan that does not exist", async () => {
      const unknown = await setPlan("no-such-user", { plan: "advanced" });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toEqual({ error: { code: "USER_NOT_FOUND", message: ADMIN_MESSAGES.userNotFound, requestId: expect.any(String) } });

      for (const payload of [{ plan: "premium" }, { plan: null }, {}]) {
        const invalid = await setPlan(user("learner").id, payload);
        expect(invalid.statusCode, JSON.stringify(payload)).toBe(400);
        expect(invalid.json().error.code).toBe("VALIDATION");
      }
      expect(await userRow(t, user("learner").id)).toMatchObject({ subscriptionPlan: "legacyFree" });
    });
  });

  describe("Admit from Waitlist", () => {
    type Waitlisted = {
      paid: PaidPlan;
      plan?: Plan;
      status?: SubscriptionStatus;
      start?: Date | null;
      end?: Date | null;
      waitlistPaid?: boolean;
    };

    // A cohort that has started: its month runs from admission. A month counted from a cohort's
    // start still to come is cohorts-admin.api.test.ts's "the month an admission gives".
    const STARTED_COHORT = "January 2025";

    /** A user who paid for the waitlist (a users row and a waitlist place, as crediting makes them). */
    async function waitlisted(id: string, options: Waitlisted) {
      const { db } = t.database;
      await db.insert(users).values({
        id,
        email: `${id}@waitlist.test`,
        subscriptionPlan: options.plan ?? "legacyFree",
        subscriptionStatus: options.status ?? "inactive",
        subscriptionStart: options.start ?? null,
        subscriptionEnd: options.end ?? null,
        waitlistPaid: options.waitlistPaid ?? true,
        intermediatePaid: options.paid === "intermediate",
        advancedPaid: options.paid === "advanced",
      });
      await placeOnWaitlist(db, [{ userId: id, plan: options.paid, cohort: STARTED_COHORT }]);
      return id;
    }

    function admit(userId: string) {
      return asAdmin({ method: "POST", url: `/api/admin/users/${encodeURIComponent(userId)}/admit` });
    }

    async function place(userId: string) {
      const [row] = await t.database.db.select().from(waitlist).where(eq(waitlist.userId, userId));
      return row;
    }

    /** The cohort welcome emails the learner received once the queued jobs ran. */
    async function welcomes(userId: string) {
      await t.services.jobs.runDue();
      const sent = await mailsTo(t, `${userId}@waitlist.test`);
      return sent.filter((mail) => mail.subject.startsWith("Welcome to the "));
    }

    it.each<PaidPlan>(["intermediate", "advanced"])(
      "gives a user who paid for %s that track for one month from now",
      async (paid) => {
        const id = await waitlisted(`admit-${paid}`, { paid });
        const before = new Date();
        const response = await admit(id);
        const after = new Date();
        expect(response.statusCode, response.body).toBe(200);

        const row = await userRow(t, id);
        expect(row).toMatchObject({ subscriptionPlan: paid, subscriptionStatus: "active", waitlistAdmitted: true });
        expect(row.subscriptionStart?.getTime()).toBeGreaterThanOrEqual(before.getTime());
        expect(row.subscriptionStart?.getTime()).toBeLessThanOrEqual(after.getTime());
        expect(row.subscriptionEnd).toEqual(addMonths(row.subscriptionStart ?? 0, 1));
        expect(response.json()).toEqual({
          user: {
            id,
            email: `${id}@waitlist.test`,
            plan: paid,
            provider: null,
            status: "active",
            subscriptionEnd: row.subscriptionEnd?.toISOString(),
            queued: null,
            lastActiveAt: null,
            waitlistPaid: true,
            waitlistAdmitted: true,
            createdAt: row.createdAt.toISOString(),
          },
        });

        const entry = await place(id);
        expect(entry?.admitted).toBe(true);
        expect(entry?.admittedAt).toEqual(row.subscriptionStart);
        expect(await auditEntries(t, id)).toMatchObject([
          {
            actorId: user("admin").id,
            action: "waitlist.admitted",
            reason: "admin",
            changes: { from: { plan: "legacyFree", end: null }, to: { plan: paid, end: row.subscriptionEnd?.toISOString() } },
          },
        ]);
        // Welcomed to the cohort as Admit all welcomes (docs/admin.md, "Cohorts").
        const [welcome, ...more] = await welcomes(id);
        expect(more).toEqual([]);
        expect(welcome?.subject).toBe(`Welcome to the ${entry?.cohort} cohort of Trading Academy`);
        expect(welcome?.text).toContain(`/program/${paid}`);
      },
    );

    it("admits once: a second click is refused and changes nothing", async () => {
      const id = await waitlisted("admit-twice", { paid: "intermediate" });
      expect((await admit(id)).statusCode).toBe(200);
      const admitted = await userRow(t, id);
      const again = await admit(id);
      expect(again.statusCode).toBe(409);
      expect(again.json()).toEqual({ error: { code: "ALREADY_ADMITTED", message: ADMIN_MESSAGES.alreadyAdmitted, requestId: expect.any(String) } });
      expect(await userRow(t, id)).toEqual(admitted);
      expect(await auditEntries(t, id)).toHaveLength(1);
      expect(await welcomes(id)).toHaveLength(1);
    });

    it("two administrators clicking at once admit once", async () => {
      const id = await waitlisted("admit-race", { paid: "advanced" });
      const answers = await Promise.all([admit(id), admit(id), admit(id)]);
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409, 409]);
      expect(await auditEntries(t, id)).toHaveLength(1);
      expect(await welcomes(id)).toHaveLength(1);
    });

    it("refuses a user who is not on the waitlist", async () => {
      const notListed = await admit(user("learner").id);
      expect(notListed.statusCode).toBe(409);
      expect(notListed.json()).toEqual({ error: { code: "NOT_ON_WAITLIST", message: ADMIN_MESSAGES.notOnWaitlist, requestId: expect.any(String) } });

      // A place whose payment is not recorded on the user does not count either.
      const unpaid = await waitlisted("admit-unpaid", { paid: "intermediate", waitlistPaid: false });
      expect((await admit(unpaid)).json().error.code).toBe("NOT_ON_WAITLIST");
      expect(await userRow(t, unpaid)).toMatchObject({ subscriptionPlan: "legacyFree", waitlistAdmitted: false });
      expect(await place(unpaid)).toMatchObject({ admitted: false, admittedAt: null });

      const unknown = await admit("no-such-user");
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toEqual({ error: { code: "USER_NOT_FOUND", message: ADMIN_MESSAGES.userNotFound, requestId: expect.any(String) } });
    });

    it("an administrator stays an administrator", async () => {
      const id = await waitlisted("admit-admin", { paid: "advanced", plan: "admin" });
      const response = await admit(id);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().user).toMatchObject({ plan: "admin", status: "inactive", subscriptionEnd: null, waitlistAdmitted: true });
      expect(await place(id)).toMatchObject({ admitted: true });
    });

    it("an Advanced subscriber admitted to Intermediate keeps Advanced and its dates, with the Intermediate month queued after it", async () => {
      const start = new Date(Date.now() - 5 * 24 * 60 * MINUTE);
      const end = new Date(Date.now() + 20 * 24 * 60 * MINUTE);
      const id = await waitlisted("admit-higher", { paid: "intermediate", plan: "advanced", status: "active", start, end });
      expect((await admit(id)).statusCode).toBe(200);
      expect(await userRow(t, id)).toMatchObject({
        subscriptionPlan: "advanced",
        subscriptionStatus: "active",
        subscriptionStart: start,
        subscriptionEnd: end,
        queuedPlan: "intermediate",
        queuedEnd: addMonths(end, 1),
        waitlistAdmitted: true,
      });
    });

    it("a running subscription to the same track gains a month at its end, not from today", async () => {
      const start = new Date(Date.now() - 10 * 24 * 60 * MINUTE);
      const end = new Date(Date.now() + 20 * 24 * 60 * MINUTE);
      const id = await waitlisted("admit-extend", { paid: "intermediate", plan: "intermediate", status: "active", start, end });
      expect((await admit(id)).statusCode).toBe(200);
      expect(await userRow(t, id)).toMatchObject({
        subscriptionPlan: "intermediate",
        subscriptionStatus: "active",
        subscriptionStart: start,
        subscriptionEnd: addMonths(end, 1),
      });
    });

    it("an expired subscription to the same track starts afresh today", async () => {
      const end = new Date(Date.now() - 24 * 60 * MINUTE);
      const id = await waitlisted("admit-expired", { paid: "advanced", plan: "advanced", status: "expired", start: addMonths(end, -1), end });
      const before = new Date();
      expect((await admit(id)).statusCode).toBe(200);
      const row = await userRow(t, id);
      expect(row).toMatchObject({ subscriptionPlan: "advanced", subscriptionStatus: "active" });
      expect(row.subscriptionStart?.getTime()).toBeGreaterThanOrEqual(before.getTime());
    });
  });

  describe("Edit Progress", () => {
    type Shown = {
      track: string;
      title: string;
      modules: { id: string; title: string; watched: boolean }[];
      quiz: { title: string; questions: number; correct: number; passMark: number; passed: boolean } | null;
    };

    function getProgress(userId: string) {
      return asAdmin({ url: `/api/admin/users/${encodeURIComponent(userId)}/progress` });
    }
    function putProgress(userId: string, progress: unknown) {
      return asAdmin({ method: "PUT", url: `/api/admin/users/${encodeURIComponent(userId)}/progress`, payload: { progress } });
    }
    async function stored(userId: string) {
      return t.database.db
        .select({ track: userProgress.programId, data: userProgress.data })
        .from(userProgress)
        .where(eq(userProgress.userId, userId))
        .orderBy(asc(userProgress.programId));
    }
    async function videoIds(track: string) {
      const rows = await t.database.db
        .select({ id: modules.id })
        .from(modules)
        .where(eq(modules.programId, track))
        .orderBy(asc(modules.position));
      return rows.map((row) => row.id);
    }
    async function shown(userId: string): Promise<Shown[]> {
      const response = await getProgress(userId);
      expect(response.statusCode, response.body).toBe(200);
      return response.json<{ tracks: Shown[] }>().tracks;
    }
    async function progressEdits(userId: string) {
      return (await auditEntries(t, userId)).filter((entry) => entry.action === "progress.edited");
    }
    /** Expects a 400 with `message`, and that nothing was stored or audited. */
    async function expectRefused(userId: string, progress: unknown, message: string) {
      const [before, editsBefore] = [await stored(userId), (await progressEdits(userId)).length];
      const response = await putProgress(userId, progress);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toEqual({ error: { code: "VALIDATION", message, requestId: expect.any(String) } });
      expect(await stored(userId)).toEqual(before);
      expect(await progressEdits(userId)).toHaveLength(editsBefore);
    }

    it("shows every program in display order: its videos by title, watched or not, and its quiz", async () => {
      const tracks = await shown(user("progressLearner").id);
      expect(tracks.map(({ track, title }) => [track, title])).toEqual([
        ["beginner", "Beginner Program"],
        ["intermediate", "Intermediate Program"],
        ["advanced", "Advanced Program"],
      ]);
      const [beginner] = tracks;
      expect(beginner?.modules).toEqual([
        { id: expect.any(String), title: "Welcome to the markets", watched: false },
        { id: expect.any(String), title: "Reading candlestick charts", watched: false },
        { id: expect.any(String), title: "Support and resistance", watched: false },
      ]);
      expect(beginner?.modules.map((module) => module.id)).toEqual(await videoIds("beginner"));
      expect(beginner?.quiz).toEqual({ title: "Beginner Program Quiz", questions: expect.any(Number), correct: 0, passMark: expect.any(Number), passed: false });
    });

    it("stores the ticked videos of each program given, shows them back and audits the change", async () => {
      const learner = user("progressLearner");
      const [b1, b2, b3] = await videoIds("beginner");
      const [i1 = "", i2 = ""] = await videoIds("intermediate");
      const response = await putProgress(learner.id, {
        beginner: { [b1 ?? ""]: true, [b2 ?? ""]: false, [b3 ?? ""]: true },
        intermediate: { [i2]: true },
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ ok: true });
      expect(await stored(learner.id)).toEqual([
        { track: "beginner", data: { [b1 ?? ""]: true, [b3 ?? ""]: true } },
        { track: "intermediate", data: { [i2]: true } },
      ]);

      const tracks = await shown(learner.id);
      expect(tracks[0]?.modules.map((module) => module.watched)).toEqual([true, false, true]);
      expect(tracks[1]?.modules.map((module) => [module.id, module.watched]).slice(0, 2)).toEqual([
        [i1, false],
        [i2, true],
      ]);

      const edits = await progressEdits(learner.id);
      expect(edits).toHaveLength(1);
      expect(edits[0]).toMatchObject({
        actorId: user("admin").id,
        reason: "admin",
        changes: {
          beginner: { from: {}, to: { [b1 ?? ""]: true, [b3 ?? ""]: true } },
          intermediate: { from: null, to: { [i2]: true } },
        },
      });

      // What the learner sees is what the admin set.
      const mine = await t.app.inject({ url: "/api/progress", headers: { cookie: learner.cookie } });
      expect(mine.json().programs.beginner).toMatchObject({ watched: 2 });
    });

    it("changes only the programs it is given, and a video left out is not watched", async () => {
      const learner = user("progressLearner");
      const before = await stored(learner.id);
      const [b1 = ""] = await videoIds("beginner");
      expect((await putProgress(learner.id, { beginner: { [b1]: true } })).statusCode).toBe(200);
      expect(await stored(learner.id)).toEqual(before.map((row) => (row.track === "beginner" ? { ...row, data: { [b1]: true } } : row)));
    });

    it("shows the learner's quiz as it stands: the best attempt's score, passed once it reaches the mark", async () => {
      const learner = user("progressLearner");
      const [quiz] = await t.database.db.select().from(quizzes).where(eq(quizzes.programId, "beginner"));
      const count = quiz?.questions.length ?? 0;
      const firstAnswers = (correct: (index: number) => boolean) =>
        Object.fromEntries(Array.from({ length: count }, (_, index) => [String(index), correct(index)]));
      await t.database.db.insert(quizSittings).values([
        { userId: learner.id, programId: "beginner", number: 1, startedAt: new Date(), firstAnswers: firstAnswers((index) => index === 0), answeredAt: new Date() },
        { userId: learner.id, programId: "beginner", number: 2, startedAt: new Date(), firstAnswers: firstAnswers(() => true), answeredAt: new Date() },
      ]);
      const [beginner] = await shown(learner.id);
      expect(beginner?.quiz).toEqual({ title: "Beginner Program Quiz", questions: count, correct: count, passMark: count, passed: true });
    });

    it("refuses what is not a video of that program, or not true or false, and stores nothing", async () => {
      const learner = user("progressLearner");
      const [b1 = ""] = await videoIds("beginner");
      const [i1 = ""] = await videoIds("intermediate");
      const changed = ADMIN_MESSAGES.progressModulesChanged("Beginner Program");
      await expectRefused(learner.id, { beginner: { [i1]: true } }, changed);
      await expectRefused(learner.id, { beginner: { "no-such-video": true } }, changed);
      // One bad program refuses the good one with it.
      await expectRefused(learner.id, { intermediate: { [i1]: true }, beginner: { [b1]: false, nope: true } }, changed);
      for (const bad of [{ beginner: { [b1]: "yes" } }, { beginner: { [b1]: 1 } }, { beginner: { [b1]: null } }, { beginner: "watched the first two" }, { beginner: [b1] }, "everything"]) {
        await expectRefused(learner.id, bad, ADMIN_MESSAGES.progressInvalid);
      }
      await expectRefused(learner.id, { expert: {} }, "There is no expert program.");
    });

    it("answers 404 for an unknown user", async () => {
      for (const response of [await getProgress("no-such-user"), await putProgress("no-such-user", { beginner: {} })]) {
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({ error: { code: "USER_NOT_FOUND", message: ADMIN_MESSAGES.userNotFound, requestId: expect.any(String) } });
      }
    });

    it("shows an entry stored before progress was checked (text, other JSON) as nothing watched, and replaces it", async () => {
      const learner = user("progressLearner");
      await t.database.db
        .update(userProgress)
        .set({ data: sql`'"watched the first two at the meetup"'::jsonb` })
        .where(and(eq(userProgress.userId, learner.id), eq(userProgress.programId, "beginner")));
      const [beginner] = await shown(learner.id);
      expect(beginner?.modules.every((module) => !module.watched)).toBe(true);
      const [b2 = ""] = await videoIds("beginner");
      expect((await putProgress(learner.id, { beginner: { [b2]: true } })).statusCode).toBe(200);
      expect((await stored(learner.id)).find((row) => row.track === "beginner")?.data).toEqual({ [b2]: true });
    });
  });

  describe("Fix Missing Subscription Plans", () => {
    it("gives Free to every user without a plan, once, with an audit entry each", async () => {
      const missing = await userCount(isNull(users.subscriptionPlan));
      expect(missing).toBe(BULK / 5);

      const started = performance.now();
      const response = await asAdmin({ method: "POST", url: "/api/admin/users/fix-missing-plans" });
      console.info(`fixed ${missing} users in ${Math.round(performance.now() - started)} ms`);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ fixed: missing });
      expect(await userCount(isNull(users.subscriptionPlan))).toBe(0);
      expect(await userRow(t, "bulk-00004")).toMatchObject({ subscriptionPlan: "legacyFree" });

      const entries = await t.database.db.select().from(auditLog).where(eq(auditLog.action, "plan.fixed"));
      expect(entries).toHaveLength(missing);
      expect(new Set(entries.map((entry) => entry.subjectUserId)).size).toBe(missing);
      expect(entries[0]).toMatchObject({
        actorId: user("admin").id,
        reason: "admin",
        changes: { from: { plan: null }, to: { plan: "legacyFree" } },
      });

      const again = await asAdmin({ method: "POST", url: "/api/admin/users/fix-missing-plans" });
      expect(again.json()).toEqual({ fixed: 0 });
      expect(await t.database.db.$count(auditLog, eq(auditLog.action, "plan.fixed"))).toBe(missing);
    });
  });

  // Last: it deletes a program.
  describe("progress for a program that is gone", () => {
    it("is refused as a whole, and the track disappears from the form", async () => {
      const learner = user("progressLearner");
      const [before] = await t.database.db
        .select({ data: userProgress.data })
        .from(userProgress)
        .where(and(eq(userProgress.userId, learner.id), eq(userProgress.programId, "beginner")));
      await t.database.db.delete(programs).where(eq(programs.id, "advanced"));
      const response = await asAdmin({
        method: "PUT",
        url: `/api/admin/users/${learner.id}/progress`,
        payload: { progress: { beginner: {}, advanced: {} } },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error: { code: "VALIDATION", message: "There is no advanced program.", requestId: expect.any(String) } });
      const [beginner] = await t.database.db
        .select({ data: userProgress.data })
        .from(userProgress)
        .where(and(eq(userProgress.userId, learner.id), eq(userProgress.programId, "beginner")));
      expect(beginner?.data).toEqual(before?.data);

      const shown = await asAdmin({ url: `/api/admin/users/${learner.id}/progress` });
      expect(shown.json().tracks.map((entry: { track: string }) => entry.track)).toEqual(["beginner", "intermediate"]);
    });
  });
});
