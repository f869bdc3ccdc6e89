// Cohorts in the admin console (docs/admin.md, "Cohorts"): create and edit them, see their paid
// places by track, and "Admit all", which admits each paid learner of a cohort's track once,
// however often and however many times at once it is started or its job is run.
import { and, count, eq, sql } from "drizzle-orm";
import type { InjectOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addMonths } from "date-fns/addMonths";
import { COHORT_MESSAGES, formatAcademyDay, type AdmissionRun, type Cohort, type CohortList } from "../../../shared/contracts/cohorts.ts";
import { effectivePlan, type PaidPlan } from "../../../shared/plans.ts";
import { auditLog, cohortAdmissions, jobs, users, waitlist } from "../../db/schema.ts";
import { createTestUsers, ipAllocator, mailsTo, type TestUser } from "../../testing/accounts.ts";
import { userRow } from "../../testing/billing.ts";
import { createTestApp, type TestApp } from "../../testing/test-app.ts";
import { placeOnWaitlist } from "../../testing/waitlist.ts";
import { admitBatch, COHORT_WELCOME_JOB, runAdmitAll } from "./cohort-admissions.ts";
import { startAdmitAll } from "./cohorts.service.ts";

const nextIp = ipAllocator(71);

describe("cohorts in the admin console", () => {
  let t: TestApp;
  let user: (key: "admin" | "learner") => TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    user = await createTestUsers(t, nextIp, { admin: { plan: "admin" }, learner: {} });
  });
  afterAll(() => t.close());

  function asAdmin(options: InjectOptions) {
    return t.app.inject({ ...options, headers: { ...options.headers, cookie: user("admin").cookie } });
  }

  const cohortUrl = (name: string) => `/api/admin/cohorts/${encodeURIComponent(name)}`;

  function createCohort(payload: Record<string, unknown>) {
    return asAdmin({ method: "POST", url: "/api/admin/cohorts", payload });
  }

  function admitAll(cohort: string, track: PaidPlan) {
    return asAdmin({ method: "POST", url: `${cohortUrl(cohort)}/admit-all`, payload: { track } });
  }

  async function cohortNamed(name: string): Promise<Cohort> {
    for (let page = 1; ; page++) {
      const response = await asAdmin({ url: `/api/admin/cohorts?page=${page}` });
      expect(response.statusCode, response.body).toBe(200);
      const list = response.json<CohortList>();
      const found = list.cohorts.find((cohort) => cohort.name === name);
      if (found) return found;
      if (list.cohorts.length === 0) throw new Error(`no cohort ${name}`);
    }
  }

  /** Paid learners on the waitlist of `cohort` for `track`, made as crediting makes them. */
  async function waitlisted(prefix: string, cohort: string, track: PaidPlan, howMany: number): Promise<string[]> {
    const ids = Array.from({ length: howMany }, (_, index) => `${prefix}-${String(index).padStart(3, "0")}`);
    await t.database.db.insert(users).values(
      ids.map((id) => ({
        id,
        email: `${id}@cohort.test`,
        name: `Learner ${id}`,
        waitlistPaid: true,
        intermediatePaid: track === "intermediate",
        advancedPaid: track === "advanced",
      })),
    );
    await placeOnWaitlist(t.database.db, ids.map((userId) => ({ userId, plan: track, cohort })));
    return ids;
  }

  async function admissionsOf(userId: string) {
    const [row] = await t.database.db
      .select({ n: count() })
      .from(auditLog)
      .where(and(eq(auditLog.subjectUserId, userId), eq(auditLog.action, "waitlist.admitted")));
    return row?.n ?? 0;
  }

  async function welcomeJobsOf(userId: string) {
    const [row] = await t.database.db
      .select({ n: count() })
      .from(jobs)
      .where(and(eq(jobs.kind, COHORT_WELCOME_JOB), sql`${jobs.payload}->>'userId' = ${userId}`));
    return row?.n ?? 0;
  }

  async function bulkAuditEntries(cohort: string) {
    return t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "waitlist.admitted-all"), sql`${auditLog.changes}->>'cohort' = ${cohort}`));
  }

  async function runsOf(cohort: string) {
    return t.database.db.select().from(cohortAdmissions).where(eq(cohortAdmissions.cohort, cohort));
  }

  async function admittedFlags(ids: string[]) {
    const rows = await t.database.db.select({ admitted: waitlist.admitted }).from(waitlist).where(sql`${waitlist.userId} in ${ids}`);
    return rows.map((row) => row.admitted);
  }

  function expectError(response: { statusCode: number; json(): unknown }, status: number, code: string, message: string) {
    expect(response.statusCode).toBe(status);
    expect(response.json()).toEqual({ error: { code, message, requestId: expect.any(String) } });
  }

  describe("creating and editing a cohort", () => {
    it("creates a cohort with its start and tracks, audited, and lists it with no places yet", async () => {
      const response = await createCohort({ name: "  October 2030 ", startsOn: "2030-10-05", tracks: ["advanced", "intermediate", "advanced"] });
      expect(response.statusCode, response.body).toBe(201);
      const expected = {
        name: "October 2030",
        startsOn: "2030-10-05",
        tracks: ["intermediate", "advanced"],
        byTrack: [
          { track: "intermediate", offered: true, paid: 0, admitted: 0, lastRun: null },
          { track: "advanced", offered: true, paid: 0, admitted: 0, lastRun: null },
        ],
      };
      expect(response.json()).toEqual({ cohort: expected });
      expect(await cohortNamed("October 2030")).toEqual(expected);
      const [entry] = await t.database.db.select().from(auditLog).where(eq(auditLog.action, "cohort.created"));
      expect(entry).toMatchObject({
        actorId: user("admin").id,
        changes: { cohort: "October 2030", to: { startsOn: "2030-10-05", tracks: ["intermediate", "advanced"] } },
      });
    });

    it.each([
      ["no start date", { name: "A", tracks: ["advanced"] }, COHORT_MESSAGES.startRequired],
      ["an empty start date", { name: "A", startsOn: "", tracks: ["advanced"] }, COHORT_MESSAGES.startRequired],
      ["a day that does not exist", { name: "A", startsOn: "2031-02-30", tracks: ["advanced"] }, COHORT_MESSAGES.startRequired],
      ["a date and time", { name: "A", startsOn: "2031-01-01T00:00:00Z", tracks: ["advanced"] }, COHORT_MESSAGES.startRequired],
      ["no name", { name: "   ", startsOn: "2031-01-01", tracks: ["advanced"] }, COHORT_MESSAGES.nameRequired],
      ["no track", { name: "A", startsOn: "2031-01-01", tracks: [] }, COHORT_MESSAGES.tracksRequired],
      ["a track that is not one", { name: "A", startsOn: "2031-01-01", tracks: ["beginner"] }, COHORT_MESSAGES.tracksRequired],
    ])("refuses %s with a sentence, creating nothing", async (_case, payload, message) => {
      const response = await createCohort(payload);
      expectError(response, 400, "VALIDATION", message);
      const list = (await asAdmin({ url: "/api/admin/cohorts" })).json<CohortList>();
      expect(list.cohorts.map((cohort) => cohort.name)).not.toContain("A");
    });

    it("refuses a name already taken, in any case", async () => {
      expect((await createCohort({ name: "January 2031", startsOn: "2031-01-03", tracks: ["advanced"] })).statusCode).toBe(201);
      expectError(
        await createCohort({ name: "january 2031", startsOn: "2031-02-01", tracks: ["intermediate"] }),
        409,
        "COHORT_EXISTS",
        COHORT_MESSAGES.exists("January 2031"),
      );
      expect(await cohortNamed("January 2031")).toMatchObject({ startsOn: "2031-01-03", tracks: ["advanced"] });
    });

    it("edits the start and tracks, audited; a track with paid places stays", async () => {
      await createCohort({ name: "April 2031", startsOn: "2031-04-01", tracks: ["intermediate", "advanced"] });
      await waitlisted("edit", "April 2031", "advanced", 2);

      const moved = await asAdmin({ method: "PUT", url: cohortUrl("April 2031"), payload: { startsOn: "2031-04-14", tracks: ["advanced"] } });
      expect(moved.statusCode, moved.body).toBe(200);
      expect(moved.json<{ cohort: Cohort }>().cohort).toMatchObject({ startsOn: "2031-04-14", tracks: ["advanced"] });
      const [entry] = await t.database.db.select().from(auditLog).where(eq(auditLog.action, "cohort.updated"));
      expect(entry?.changes).toEqual({
        cohort: "April 2031",
        from: { startsOn: "2031-04-01", tracks: ["intermediate", "advanced"] },
        to: { startsOn: "2031-04-14", tracks: ["advanced"] },
      });

      const refused = await asAdmin({ method: "PUT", url: cohortUrl("April 2031"), payload: { startsOn: "2031-05-01", tracks: ["intermediate"] } });
      expectError(refused, 409, "TRACK_HAS_PLACES", COHORT_MESSAGES.trackHasPlaces("April 2031", "advanced", 2));
      expect(await cohortNamed("April 2031")).toMatchObject({ startsOn: "2031-04-14", tracks: ["advanced"] });

      expectError(
        await asAdmin({ method: "PUT", url: cohortUrl("April 2031"), payload: { tracks: ["advanced"] } }),
        400,
        "VALIDATION",
        COHORT_MESSAGES.startRequired,
      );
      expectError(
        await asAdmin({ method: "PUT", url: cohortUrl("No Such 2031"), payload: { startsOn: "2031-05-01", tracks: ["advanced"] } }),
        404,
        "COHORT_NOT_FOUND",
        COHORT_MESSAGES.notFound("No Such 2031"),
      );
    });

    it("is for administrators only", async () => {
      const response = await t.app.inject({ url: "/api/admin/cohorts", headers: { cookie: user("learner").cookie } });
      expect(response.statusCode).toBe(403);
    });
  });

  describe("Admit all", () => {
    it("admits exactly the paid, not yet admitted learners of the cohort and track, emails each a welcome, and audits it", async () => {
      await createCohort({ name: "July 2031", startsOn: "2031-07-06", tracks: ["intermediate", "advanced"] });
      const advanced = await waitlisted("jul-adv", "July 2031", "advanced", 5);
      const intermediate = await waitlisted("jul-int", "July 2031", "intermediate", 2);
      const otherCohort = await waitlisted("oct-adv", "October 2030", "advanced", 2);
      // Admitted by hand before (and welcomed then): not admitted again, not welcomed again.
      const [handAdmitted = ""] = advanced;
      expect((await asAdmin({ method: "POST", url: `/api/admin/users/${handAdmitted}/admit` })).statusCode).toBe(200);
      // On the waitlist but refunded since (no longer paid): left alone.
      const [unpaid] = await waitlisted("jul-unpaid", "July 2031", "advanced", 1);
      await t.database.db.update(users).set({ waitlistPaid: false }).where(eq(users.id, unpaid ?? ""));

      expect(await cohortNamed("July 2031")).toMatchObject({
        byTrack: [
          { track: "intermediate", paid: 2, admitted: 0, lastRun: null },
          { track: "advanced", paid: 5, admitted: 1, lastRun: null },
        ],
      });

      const started = await admitAll("July 2031", "advanced");
      expect(started.statusCode, started.body).toBe(202);
      const { run } = started.json<{ run: AdmissionRun }>();
      expect(run).toMatchObject({ cohort: "July 2031", track: "advanced", status: "running", total: 4, admitted: 0, failed: 0 });
      await t.services.jobs.runDue();

      const followed = await asAdmin({ url: `/api/admin/cohort-admissions/${run.id}` });
      expect(followed.statusCode).toBe(200);
      expect(followed.json<{ run: AdmissionRun }>().run).toMatchObject({
        status: "done",
        total: 4,
        admitted: 4,
        failed: 0,
        finishedAt: expect.any(String),
      });

      expect(await admittedFlags(advanced)).toEqual([true, true, true, true, true]);
      expect(await admittedFlags(intermediate)).toEqual([false, false]);
      expect(await admittedFlags(otherCohort)).toEqual([false, false]);
      expect(await admittedFlags([unpaid ?? ""])).toEqual([false]);
      for (const id of advanced) {
        expect(await admissionsOf(id)).toBe(1);
        expect(await userRow(t, id)).toMatchObject({ subscriptionPlan: "advanced", subscriptionStatus: "active", waitlistAdmitted: true });
      }

      // One welcome each for the four the run admitted, naming the cohort, track and start; the
      // learner admitted by hand has the one of that admission only.
      for (const id of advanced) {
        const mails = await mailsTo(t, `${id}@cohort.test`);
        expect(mails).toHaveLength(1);
        const [mail] = mails;
        expect(mail?.subject).toBe("Welcome to the July 2031 cohort of Trading Academy");
        expect(mail?.text).toContain(`Hello Learner ${id},`);
        expect(mail?.text).toContain("You have been admitted to the Advanced track of the July 2031 cohort. The cohort starts on Sunday 6 July 2031.");
        expect(mail?.text).toContain(`${t.services.env.appUrl}/program/advanced`);
      }
      for (const id of [...intermediate, ...otherCohort]) expect(await mailsTo(t, `${id}@cohort.test`)).toEqual([]);

      const [entry, ...more] = await bulkAuditEntries("July 2031");
      expect(more).toEqual([]);
      expect(entry).toMatchObject({
        actorId: user("admin").id,
        subjectUserId: null,
        changes: { cohort: "July 2031", track: "advanced", status: "done", total: 4, admitted: 4, failed: 0 },
      });
      const perLearner = await t.database.db
        .select({ actorId: auditLog.actorId, reason: auditLog.reason })
        .from(auditLog)
        .where(and(eq(auditLog.subjectUserId, advanced[1] ?? ""), eq(auditLog.action, "waitlist.admitted")));
      expect(perLearner).toEqual([{ actorId: user("admin").id, reason: "admit all" }]);

      expect(await cohortNamed("July 2031")).toMatchObject({
        byTrack: [
          { track: "intermediate", paid: 2, admitted: 0, lastRun: null },
          { track: "advanced", paid: 5, admitted: 5, lastRun: { id: run.id, status: "done", admitted: 4, total: 4 } },
        ],
      });
    });

    it("on a cohort already admitted: says so, starts nothing and sends nothing", async () => {
      const before = await runsOf("July 2031");
      const again = await admitAll("July 2031", "advanced");
      expectError(again, 409, "EVERYONE_ADMITTED", COHORT_MESSAGES.everyoneAdmitted("July 2031", "advanced"));
      expect(again.json<{ error: { message: string } }>().error.message).toBe("Everyone on the July 2031 Advanced waitlist is already admitted.");
      await t.services.jobs.runDue();
      expect(await runsOf("July 2031")).toEqual(before);
      expect(await mailsTo(t, "jul-adv-001@cohort.test")).toHaveLength(1);
      expect(await bulkAuditEntries("July 2031")).toHaveLength(1);
    });

    it("refuses an unknown cohort, a track that is not one and a run that does not exist", async () => {
      expectError(await admitAll("Never 2040", "advanced"), 404, "COHORT_NOT_FOUND", COHORT_MESSAGES.notFound("Never 2040"));
      const badTrack = await asAdmin({ method: "POST", url: `${cohortUrl("July 2031")}/admit-all`, payload: { track: "beginner" } });
      expectError(badTrack, 400, "VALIDATION", COHORT_MESSAGES.tracksRequired);
      expectError(
        await asAdmin({ url: "/api/admin/cohort-admissions/00000000-0000-4000-8000-000000000000" }),
        404,
        "RUN_NOT_FOUND",
        COHORT_MESSAGES.runNotFound,
      );
      expectError(await asAdmin({ url: "/api/admin/cohort-admissions/not-a-run" }), 400, "VALIDATION", COHORT_MESSAGES.runNotFound);
    });

    it("Admit all idempotent under two concurrent starts: one run, each learner admitted and welcomed once", async () => {
      await createCohort({ name: "January 2032", startsOn: "2032-01-05", tracks: ["intermediate"] });
      const learners = await waitlisted("jan-int", "January 2032", "intermediate", 60);

      const answers = await Promise.all([admitAll("January 2032", "intermediate"), admitAll("January 2032", "intermediate")]);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([202, 409]);
      // The second is refused: while the first run goes on, or, if it already ended, because
      // nobody is left to admit.
      const refused = answers.find((answer) => answer.statusCode === 409)?.json<{ error: { code: string; message: string } }>().error;
      expect([
        { code: "ADMIT_ALL_RUNNING", message: COHORT_MESSAGES.alreadyRunning("January 2032", "intermediate") },
        { code: "EVERYONE_ADMITTED", message: COHORT_MESSAGES.everyoneAdmitted("January 2032", "intermediate") },
      ]).toContainEqual({ code: refused?.code, message: refused?.message });
      await t.services.jobs.runDue();

      const runs = await runsOf("January 2032");
      expect(runs).toHaveLength(1);
      expect(runs[0]).toMatchObject({ status: "done", total: 60, admitted: 60, failed: 0 });
      for (const id of learners) {
        expect(await admissionsOf(id)).toBe(1);
        expect(await welcomeJobsOf(id)).toBe(1);
      }
      expect(await admittedFlags(learners)).toEqual(learners.map(() => true));
      expect(await bulkAuditEntries("January 2032")).toHaveLength(1);
    });

    it("a job run again after a crash, and twice at once, admits nobody twice", async () => {
      await createCohort({ name: "April 2032", startsOn: "2032-04-05", tracks: ["advanced"] });
      const learners = await waitlisted("apr-adv", "April 2032", "advanced", 7);
      const run = await startAdmitAll(t.database.db, user("admin"), { cohort: "April 2032", track: "advanced" });
      const [row] = await runsOf("April 2032");
      if (!row) throw new Error("no run");

      // The first worker admits three, then dies: the run is still running, its count says three.
      expect(await admitBatch(t.database.db, row, null, 3)).toBe(learners[2]);
      expect((await runsOf("April 2032"))[0]).toMatchObject({ status: "running", admitted: 3 });

      // The runner retries the job while another instance takes over the stale one.
      await Promise.all([runAdmitAll(t.database.db, run.id), runAdmitAll(t.database.db, run.id)]);
      // And once more, after it ended: nothing happens.
      await runAdmitAll(t.database.db, run.id);

      expect((await runsOf("April 2032"))[0]).toMatchObject({ status: "done", total: 7, admitted: 7, failed: 0 });
      for (const id of learners) {
        expect(await admissionsOf(id)).toBe(1);
        expect(await welcomeJobsOf(id)).toBe(1);
      }
      expect(await bulkAuditEntries("April 2032")).toHaveLength(1);
    });

    it("passes over a learner admitted by hand while it runs, and says how many it admitted", async () => {
      await createCohort({ name: "July 2032", startsOn: "2032-07-05", tracks: ["advanced"] });
      const learners = await waitlisted("jul32", "July 2032", "advanced", 3);
      const run = await startAdmitAll(t.database.db, user("admin"), { cohort: "July 2032", track: "advanced" });
      const byHand = await asAdmin({ method: "POST", url: `/api/admin/users/${learners[1]}/admit` });
      expect(byHand.statusCode).toBe(200);
      await runAdmitAll(t.database.db, run.id);
      expect((await runsOf("July 2032"))[0]).toMatchObject({ status: "done", total: 3, admitted: 2, failed: 0 });
      for (const id of learners) expect(await admissionsOf(id)).toBe(1);
    });
  });

  // The month an admission gives (docs/subscriptions.md, "Admit from waitlist"): from the cohort's
  // start when admitted before it, so admitting early costs no day; from admission once it started.
  describe("the month an admission gives", () => {
    async function admitAllNow(cohort: string, track: PaidPlan) {
      const started = await admitAll(cohort, track);
      expect(started.statusCode, started.body).toBe(202);
      await t.services.jobs.runDue();
    }

    async function welcomeOf(id: string) {
      const [mail, ...more] = await mailsTo(t, `${id}@cohort.test`);
      expect(more).toEqual([]);
      return mail?.text ?? "";
    }

    async function monthInAudit(id: string) {
      const [entry] = await t.database.db
        .select({ changes: auditLog.changes })
        .from(auditLog)
        .where(and(eq(auditLog.subjectUserId, id), eq(auditLog.action, "waitlist.admitted")));
      return (entry?.changes as { month?: unknown } | undefined)?.month;
    }

    it("admitted before the cohort starts: the month runs from its start, the program open at once", async () => {
      await createCohort({ name: "January 2033", startsOn: "2033-01-01", tracks: ["advanced"] });
      const [early] = await waitlisted("jan33", "January 2033", "advanced", 1);
      const id = early ?? "";
      const before = new Date();
      await admitAllNow("January 2033", "advanced");

      const row = await userRow(t, id);
      expect(row).toMatchObject({
        subscriptionPlan: "advanced",
        subscriptionStatus: "active",
        subscriptionEnd: new Date("2033-02-01T00:00:00Z"),
        queuedPlan: null,
        waitlistAdmitted: true,
      });
      // Access opens at admission: the days before the cohort are not taken from its month.
      expect(row.subscriptionStart?.getTime()).toBeGreaterThanOrEqual(before.getTime());
      expect(await monthInAudit(id)).toEqual({ start: "2033-01-01T00:00:00.000Z", end: "2033-02-01T00:00:00.000Z" });
      expect(await welcomeOf(id)).toContain(
        "Your month of the Advanced track runs from Saturday 1 January 2033 to Tuesday 1 February 2033. The program is open to you now, so you can look around before the start.",
      );
      expect(effectivePlan(row, new Date())).toBe("advanced");
    });

    it("a learner holding a lower plan keeps its days, queued after the cohort's month", async () => {
      await createCohort({ name: "April 2033", startsOn: "2033-04-01", tracks: ["advanced"] });
      const [holder] = await waitlisted("apr33", "April 2033", "advanced", 1);
      const id = holder ?? "";
      const end = new Date(Date.now() + 10 * 24 * 60 * 60 * 1000);
      await t.database.db
        .update(users)
        .set({ subscriptionPlan: "intermediate", subscriptionStatus: "active", subscriptionStart: new Date(), subscriptionEnd: end })
        .where(eq(users.id, id));
      const before = Date.now();
      await admitAllNow("April 2033", "advanced");

      const row = await userRow(t, id);
      expect(row).toMatchObject({ subscriptionPlan: "advanced", subscriptionEnd: new Date("2033-05-01T00:00:00Z"), queuedPlan: "intermediate" });
      // The Intermediate days left at admission, to within the test's own time, follow the month.
      const queued = (row.queuedEnd?.getTime() ?? 0) - new Date("2033-05-01T00:00:00Z").getTime();
      expect(queued).toBeLessThanOrEqual(end.getTime() - before);
      expect(queued).toBeGreaterThan(end.getTime() - Date.now() - 60_000);
    });

    it("admitted after the cohort started: the month runs from admission", async () => {
      await createCohort({ name: "April 2025", startsOn: "2025-04-01", tracks: ["intermediate"] });
      const [late] = await waitlisted("apr25", "April 2025", "intermediate", 1);
      const id = late ?? "";
      const before = new Date();
      await admitAllNow("April 2025", "intermediate");
      const after = new Date();

      const row = await userRow(t, id);
      expect(row).toMatchObject({ subscriptionPlan: "intermediate", subscriptionStatus: "active", waitlistAdmitted: true });
      const start = row.subscriptionStart ?? new Date(0);
      expect(start.getTime()).toBeGreaterThanOrEqual(before.getTime());
      expect(start.getTime()).toBeLessThanOrEqual(after.getTime());
      expect(row.subscriptionEnd).toEqual(addMonths(start, 1));
      expect(await monthInAudit(id)).toEqual({ start: start.toISOString(), end: addMonths(start, 1).toISOString() });
      expect(await welcomeOf(id)).toContain(
        `Your month of the Intermediate track runs from ${formatAcademyDay(start)} to ${formatAcademyDay(addMonths(start, 1))}. The program is open to you now.`,
      );
    });

    it("the confirmation names the month: from the start to come, or from admission once started", () => {
      const now = new Date("2032-11-27T10:00:00Z");
      expect(COHORT_MESSAGES.admitAllConfirm(37, "January 2033", "advanced", "2033-01-01", now)).toBe(
        "Admit 37 paid learners of the January 2033 Advanced waitlist? Each gets a month of the Advanced track from the cohort's start, from Saturday 1 January 2033 to Tuesday 1 February 2033, with the program open to them from today. A learner who already holds Advanced time gets the month after it. Each also gets an email welcoming them to the cohort.",
      );
      expect(COHORT_MESSAGES.admitAllConfirm(1, "October 2032", "intermediate", "2032-10-01", now)).toBe(
        "Admit 1 paid learner of the October 2032 Intermediate waitlist? The cohort started on Friday 1 October 2032, so the month runs from admission: each gets a month of the Intermediate track from Saturday 27 November 2032 to Monday 27 December 2032. A learner who already holds Intermediate time gets the month after it. Each also gets an email welcoming them to the cohort.",
      );
    });
  });

  it("filters the waitlist by cohort", async () => {
    const response = await asAdmin({ url: `/api/admin/waitlist?${new URLSearchParams({ cohort: "July 2031" })}` });
    expect(response.statusCode).toBe(200);
    const body = response.json<{ total: number; entries: { cohort: string; userId: string }[] }>();
    expect(body.total).toBe(8);
    expect(new Set(body.entries.map((entry) => entry.cohort))).toEqual(new Set(["July 2031"]));
    const all = (await asAdmin({ url: "/api/admin/waitlist" })).json<{ total: number }>();
    expect(all.total).toBeGreaterThan(body.total);
  });
});
