// 1-on-1 mentorship (docs/product.md, "Questions and mentorship"): only the Advanced plan asks, at
// most two open requests, the learner cancels a waiting one, the admin confirms a time read on
// Accra's clock or declines with a note; both are audited and emailed.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { academyInputValue } from "../../../shared/academy-time.ts";
import { SUPPORT_MESSAGES, type Mentorship } from "../../../shared/contracts/support.ts";
import { auditLog, jobs } from "../../db/schema.ts";
import { createTestUsers, ipAllocator, mailsTo, type TestUser } from "../../testing/accounts.ts";
import { createTestApp, type TestApp } from "../../testing/test-app.ts";
import { MENTORSHIP_JOB } from "./mentorship.service.ts";

const nextIp = ipAllocator(141);

const USERS = {
  advanced: { plan: "advanced" },
  busy: { plan: "advanced" },
  intermediate: { plan: "intermediate" },
  free: {},
  lapsed: { plan: "advanced", status: "expired" },
  mentor: { plan: "admin" },
} as const;

const TOPIC = "Sizing positions on gold";
const TIMES = "Weekday evenings after 18:00, or Saturday morning";

describe("mentorship", () => {
  let t: TestApp;
  let user: (key: keyof typeof USERS) => TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    user = await createTestUsers(t, nextIp, USERS);
  });
  afterAll(() => t.close());

  const request = (who: TestUser, payload: Record<string, string> = { topic: TOPIC, preferredTimes: TIMES }) =>
    t.app.inject({ method: "POST", url: "/api/mentorship", headers: { cookie: who.cookie }, payload });
  const mine = async (who: TestUser) =>
    (await t.app.inject({ url: "/api/mentorship", headers: { cookie: who.cookie } })).json<{ eligible: boolean; requests: Mentorship[] }>();
  const decide = (who: TestUser, id: string, action: "confirm" | "decline", payload: Record<string, string>) =>
    t.app.inject({ method: "POST", url: `/api/admin/mentorship/${id}/${action}`, headers: { cookie: who.cookie }, payload });

  async function requested(who: TestUser): Promise<Mentorship> {
    const response = await request(who);
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ request: Mentorship }>().request;
  }

  function expectError(response: { statusCode: number; body: string; json: () => unknown }, status: number, code: string, message: string) {
    expect(response.statusCode, response.body).toBe(status);
    expect(response.json()).toEqual({ error: { code, message, requestId: expect.any(String) } });
  }

  it("is for the Advanced plan in effect only: everyone else is told so (403) and sees they are not eligible", async () => {
    for (const key of ["intermediate", "free", "lapsed", "mentor"] as const) {
      expectError(await request(user(key)), 403, "ADVANCED_ONLY", SUPPORT_MESSAGES.advancedOnly);
      expect(await mine(user(key))).toEqual({ eligible: false, requests: [] });
    }
    expect((await mine(user("advanced"))).eligible).toBe(true);
  });

  it("needs a topic and preferred times, within their lengths, in words", async () => {
    const who = user("advanced");
    expectError(await request(who, { topic: " ", preferredTimes: TIMES }), 400, "VALIDATION", SUPPORT_MESSAGES.topicRequired);
    expectError(await request(who, { topic: TOPIC }), 400, "VALIDATION", SUPPORT_MESSAGES.timesRequired);
    expectError(await request(who, { topic: "x".repeat(201), preferredTimes: TIMES }), 400, "VALIDATION", SUPPORT_MESSAGES.topicTooLong);
    expect((await mine(who)).requests).toEqual([]);
  });

  it("holds at most two open requests; a cancelled one frees a place, and only a waiting one can be cancelled", async () => {
    const who = user("busy");
    const first = await requested(who);
    await requested(who);
    expectError(await request(who), 409, "TOO_MANY_OPEN", SUPPORT_MESSAGES.tooManyOpen);

    const cancel = (as: TestUser, id: string) => t.app.inject({ method: "POST", url: `/api/mentorship/${id}/cancel`, headers: { cookie: as.cookie }, payload: {} });
    expectError(await cancel(user("advanced"), first.id), 404, "REQUEST_NOT_FOUND", SUPPORT_MESSAGES.requestNotFound);
    const cancelled = await cancel(who, first.id);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().request).toMatchObject({ id: first.id, status: "cancelled" });
    expectError(await cancel(who, first.id), 409, "ALREADY_DECIDED", SUPPORT_MESSAGES.alreadyDecided);
    expect((await request(who)).statusCode).toBe(201);
    expect((await mine(who)).requests.map((r) => r.status)).toEqual(["requested", "requested", "cancelled"]);
  });

  it("lets an admin confirm a time typed on Accra's clock; the learner sees it, is emailed it in Accra time, and it is audited", async () => {
    const who = user("advanced");
    const asked = await requested(who);
    expectError(await decide(user("busy"), asked.id, "confirm", { scheduledAt: "2099-03-14T15:00" }), 403, "FORBIDDEN", "Administrators only.");
    expectError(await decide(user("mentor"), asked.id, "confirm", { scheduledAt: "next week" }), 400, "VALIDATION", SUPPORT_MESSAGES.timeInvalid);
    expectError(await decide(user("mentor"), asked.id, "confirm", { scheduledAt: "2099-02-30T15:00" }), 400, "VALIDATION", SUPPORT_MESSAGES.timeInvalid);
    const past = academyInputValue(new Date(Date.now() - 60_000));
    expectError(await decide(user("mentor"), asked.id, "confirm", { scheduledAt: past }), 400, "VALIDATION", SUPPORT_MESSAGES.timeInPast);

    const confirmed = await decide(user("mentor"), asked.id, "confirm", { scheduledAt: "2099-03-14T15:00", note: "Bring your trading journal." });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    // Accra keeps GMT all year: 15:00 there is 15:00 UTC.
    expect(confirmed.json().request).toMatchObject({ status: "confirmed", scheduledAt: "2099-03-14T15:00:00.000Z" });
    expect((await mine(who)).requests[0]).toMatchObject({ id: asked.id, status: "confirmed", note: "Bring your trading journal." });
    expectError(await decide(user("mentor"), asked.id, "decline", { note: "Too late" }), 409, "ALREADY_DECIDED", SUPPORT_MESSAGES.alreadyDecided);

    expect((await t.database.db.select().from(jobs).where(eq(jobs.kind, MENTORSHIP_JOB))).map((job) => job.payload)).toContainEqual({ requestId: asked.id });
    await t.services.jobs.runDue();
    const [mail] = (await mailsTo(t, who.email)).filter((m) => m.subject.startsWith("Your mentorship session"));
    expect(mail?.subject).toBe("Your mentorship session: Saturday 14 March 2099 at 15:00 (Accra time)");
    expect(mail?.text).toContain(`Your 1-on-1 session on "${TOPIC}" is booked for Saturday 14 March 2099 at 15:00 (Accra time).`);
    expect(mail?.text).toContain("Bring your trading journal.");

    const [entry] = await t.database.db.select().from(auditLog).where(eq(auditLog.action, "mentorship.confirm"));
    expect(entry).toMatchObject({ actorId: user("mentor").id, subjectUserId: who.id, changes: { requestId: asked.id, scheduledAt: "2099-03-14T15:00:00.000Z" } });
  });

  it("lets an admin decline with a note, which is required; the learner is emailed the note", async () => {
    const who = user("advanced");
    const asked = await requested(who);
    expectError(await decide(user("mentor"), asked.id, "decline", { note: "  " }), 400, "VALIDATION", SUPPORT_MESSAGES.noteRequired);
    const declined = await decide(user("mentor"), asked.id, "decline", { note: "No mentor is free that week; please pick other days." });
    expect(declined.statusCode, declined.body).toBe(200);
    expect(declined.json().request).toMatchObject({ status: "declined", scheduledAt: null });
    await t.services.jobs.runDue();
    const [mail] = (await mailsTo(t, who.email)).filter((m) => m.subject === "About your mentorship request");
    expect(mail?.text).toContain("No mentor is free that week; please pick other days.");
    expect(await t.database.db.select().from(auditLog).where(eq(auditLog.action, "mentorship.decline"))).toHaveLength(1);
  });

  it("lists every request for the admin, those waiting first", async () => {
    const response = await t.app.inject({ url: "/api/admin/mentorship", headers: { cookie: user("mentor").cookie } });
    expect(response.statusCode, response.body).toBe(200);
    const { requests, total } = response.json<{ total: number; requests: (Mentorship & { learnerEmail: string })[] }>();
    expect(total).toBe(requests.length);
    const statuses = requests.map((r) => r.status);
    expect(statuses.slice(0, statuses.lastIndexOf("requested") + 1).every((s) => s === "requested")).toBe(true);
    expect(requests.find((r) => r.status === "confirmed")?.learnerEmail).toBe(user("advanced").email);
  });
});
