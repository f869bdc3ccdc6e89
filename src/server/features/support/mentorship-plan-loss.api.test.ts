// Mentorship cancelled on downgrade (docs/product.md, "Questions and mentorship"): a learner who
// loses the Advanced plan, by a refund, an administrator's change or the expiry job, has their open
// requests cancelled in the same transaction, each emailed once with the reason; an administrator
// then cannot confirm one, and is told so in words.
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { academyInputValue } from "../../../shared/academy-time.ts";
import { SUPPORT_MESSAGES, type AdminMentorship, type Mentorship } from "../../../shared/contracts/support.ts";
import { auditLog, users } from "../../db/schema.ts";
import { ipAllocator, mailsTo, type TestUser } from "../../testing/accounts.ts";
import { paymentRow, simulatePayment, useBillingApp } from "../../testing/billing.ts";
import { expireSubscriptions } from "../billing/billing-expiry.ts";

const nextIp = ipAllocator(151);

const USERS = {
  refunded: {},
  demoted: { plan: "advanced" },
  expiring: { plan: "advanced" },
  unnoticed: { plan: "advanced" },
  admin: { plan: "admin" },
} as const;

const DAY = 24 * 60 * 60 * 1000;

describe("mentorship cancelled on downgrade", () => {
  const { t, api, user, buy } = useBillingApp(nextIp, USERS);

  const asAdmin = (method: "GET" | "POST" | "PUT", url: string, payload?: Record<string, string>) =>
    t.app.inject({ method, url, headers: { cookie: user("admin").cookie, origin: t.services.env.appUrl }, payload, remoteAddress: nextIp() });

  async function requested(who: TestUser): Promise<Mentorship> {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/mentorship",
      headers: { cookie: who.cookie, origin: t.services.env.appUrl },
      payload: { topic: `Risk for ${who.email}`, preferredTimes: "Saturday morning" },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ request: Mentorship }>().request;
  }

  async function mine(who: TestUser) {
    const response = await t.app.inject({ url: "/api/mentorship", headers: { cookie: who.cookie } });
    return response.json<{ eligible: boolean; requests: Mentorship[] }>();
  }

  async function inConsole(id: string) {
    const response = await asAdmin("GET", "/api/admin/mentorship?page=1");
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ requests: AdminMentorship[] }>().requests.find((request) => request.id === id);
  }

  const confirm = (id: string) =>
    asAdmin("POST", `/api/admin/mentorship/${id}/confirm`, { scheduledAt: academyInputValue(new Date(Date.now() + 3 * DAY)), note: "" });

  /** The request reads cancelled with its reason for the learner and in the console; one email said why. */
  async function expectCancelled(who: TestUser, id: string, note: string) {
    expect((await mine(who)).requests.find((request) => request.id === id)).toMatchObject({ status: "cancelled", note });
    expect(await inConsole(id)).toMatchObject({ status: "cancelled", note });
    await t.services.jobs.runDue();
    await t.services.jobs.runDue();
    const mails = (await mailsTo(t, who.email)).filter((mail) => mail.subject === "Your mentorship request was cancelled");
    expect(mails).toHaveLength(1);
    expect(mails[0]?.text).toContain(note);
    const [entry] = await t.database.db.select().from(auditLog).where(and(eq(auditLog.action, "mentorship.cancel"), eq(auditLog.subjectUserId, who.id)));
    expect(entry).toMatchObject({ reason: note, changes: { requestId: id } });
  }

  /** An administrator confirming it is refused in words, and nothing is booked. */
  async function expectConfirmRefused(id: string) {
    const response = await confirm(id);
    expect(response.statusCode, response.body).toBe(409);
    expect(response.json()).toEqual({ error: { code: "ALREADY_DECIDED", message: SUPPORT_MESSAGES.alreadyDecided, requestId: expect.any(String) } });
    expect(await inConsole(id)).toMatchObject({ status: "cancelled", scheduledAt: null });
  }

  it("a refund of the Advanced month cancels the open request, emails why, and the admin cannot confirm it", async () => {
    const who = user("refunded");
    const reference = await buy(who, "advanced");
    await simulatePayment(t, reference, { outcome: "success", deliverWebhook: false });
    expect((await api.verify(who, reference)).statusCode).toBe(200);
    const open = await requested(who);
    const payment = await paymentRow(t, reference);
    const refund = await asAdmin("POST", `/api/admin/payments/${payment?.id}/refund`, {});
    expect(refund.statusCode, refund.body).toBe(200);

    await expectCancelled(who, open.id, SUPPORT_MESSAGES.cancelledPlanLost("refund"));
    await expectConfirmRefused(open.id);
  });

  it("an administrator's change to Intermediate cancels the open requests, a confirmed one to come included", async () => {
    const who = user("demoted");
    const waiting = await requested(who);
    const booked = await requested(who);
    expect((await confirm(booked.id)).statusCode).toBe(200);
    const changed = await asAdmin("PUT", `/api/admin/users/${who.id}/plan`, { plan: "intermediate" });
    expect(changed.statusCode, changed.body).toBe(200);

    const note = SUPPORT_MESSAGES.cancelledPlanLost("admin");
    const requests = (await mine(who)).requests;
    expect(requests.map((request) => [request.id, request.status, request.note]).sort()).toEqual(
      [
        [waiting.id, "cancelled", note],
        [booked.id, "cancelled", note],
      ].sort(),
    );
    await t.services.jobs.runDue();
    await t.services.jobs.runDue();
    const mails = (await mailsTo(t, who.email)).filter((mail) => mail.subject === "Your mentorship request was cancelled");
    expect(mails).toHaveLength(2);
    await expectConfirmRefused(waiting.id);
  });

  it("the expiry job ending Advanced cancels the open request, once", async () => {
    const who = user("expiring");
    const open = await requested(who);
    await t.database.db.update(users).set({ subscriptionEnd: new Date(Date.now() - 1000) }).where(eq(users.id, who.id));
    await expireSubscriptions(t.database.db, new Date());
    await expireSubscriptions(t.database.db, new Date());

    await expectCancelled(who, open.id, SUPPORT_MESSAGES.cancelledPlanLost("expiry"));
    await expectConfirmRefused(open.id);
  });

  it("a confirmation that finds Advanced over before the expiry job ran cancels it then, and tells the admin why", async () => {
    const who = user("unnoticed");
    const open = await requested(who);
    await t.database.db.update(users).set({ subscriptionEnd: new Date(Date.now() - 1000) }).where(eq(users.id, who.id));

    const response = await confirm(open.id);
    expect(response.statusCode, response.body).toBe(409);
    expect(response.json()).toEqual({
      error: { code: "NO_LONGER_ADVANCED", message: SUPPORT_MESSAGES.learnerLostAdvanced, requestId: expect.any(String) },
    });
    await expectCancelled(who, open.id, SUPPORT_MESSAGES.cancelledPlanLost("expiry"));
    await expectConfirmRefused(open.id);
  });
});
