// Asking Paystack at once (docs/subscriptions.md, "Asking Paystack"): when the learner's checkout
// closes, the server asks Verify and records a decline as failed and an unpaid checkout as not
// completed; when the learner opens a page with a payment pending, it is asked about there and
// then, at most once a minute per payment, across instances sharing the database.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { TestUser, TestUserPlan } from "../../testing/accounts.ts";
import { ipAllocator, me, PASSWORD } from "../../testing/accounts.ts";
import { payments } from "../../db/schema.ts";
import { auditEntries, paymentRow, simulatePayment, useBillingApp } from "../../testing/billing.ts";

const nextIp = ipAllocator(175);

const USERS = {
  decliner: {},
  closer: {},
  paidThenClosed: {},
  intruder: {},
  returner: {},
  impatient: {},
  crowd: {},
  tampered: {},
  leaver: {},
  admin: { plan: "admin" },
} satisfies Record<string, TestUserPlan>;

describe("asking Paystack at once", () => {
  const { t, api, user, buy, paidAtPaystack } = useBillingApp(nextIp, USERS);

  const closed = (who: TestUser, reference: string) =>
    api.call(who, { method: "POST", url: `/api/payments/${encodeURIComponent(reference)}/closed` });
  const verifyPending = (who: TestUser) => api.call(who, { method: "POST", url: "/api/payments/pending/verify" });
  const history = async (who: TestUser) =>
    (await api.call(who, { method: "GET", url: "/api/payments" })).json<{ payments: Array<{ reference: string; status: string }> }>()
      .payments;
  /** As if the server had last asked Paystack about the payment `seconds` ago. */
  const askedAgo = (reference: string, seconds: number) =>
    t.database.db.update(payments).set({ checkedAt: new Date(Date.now() - seconds * 1000) }).where(eq(payments.reference, reference));

  describe("the checkout closed", () => {
    it("after a decline: recorded Failed at once, and the learner is told so", async () => {
      const who = user("decliner");
      const reference = await buy(who, "advanced");
      await simulatePayment(t, reference, { outcome: "failed" });

      const response = await closed(who, reference);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ reference, status: "failed" });
      expect(await history(who)).toMatchObject([{ reference, status: "failed" }]);
      expect(await me(t, who.cookie)).toMatchObject({ plan: "legacyFree" });
    });

    it("unpaid: recorded Not completed at once, no longer blocks deleting the account, and a late payment still credits it", async () => {
      const who = user("closer");
      const reference = await buy(who);
      const response = await closed(who, reference);
      expect(response.json()).toEqual({ reference, status: "abandoned" });
      expect(await paymentRow(t, reference)).toMatchObject({ status: "abandoned", creditedAt: null });

      // Paid late (a mobile-money prompt answered after the window closed): its webhook credits it.
      const { webhook } = await simulatePayment(t, reference, { outcome: "success" });
      expect(webhook).toEqual({ delivered: true, statusCode: 200 });
      expect(await paymentRow(t, reference)).toMatchObject({ status: "success", creditedAt: expect.any(Date) });
      expect(await me(t, who.cookie)).toMatchObject({ plan: "intermediate" });
    });

    it("paid, the webhook not yet in: credited by the close itself", async () => {
      const who = user("paidThenClosed");
      const reference = await buy(who);
      await paidAtPaystack(reference);
      expect((await closed(who, reference)).json()).toEqual({ reference, status: "success" });
      expect(await me(t, who.cookie)).toMatchObject({ plan: "intermediate" });
      // Said again (a second tab), the same answer, nothing credited twice.
      expect((await closed(who, reference)).json()).toEqual({ reference, status: "success" });
      expect((await auditEntries(t, who.id)).map((entry) => entry.action)).toEqual(["payment.credited"]);
    });

    it("someone else's reference: 404, and their payment is left as it was", async () => {
      const owner = user("decliner");
      const reference = await buy(owner);
      const response = await closed(user("intruder"), reference);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ error: { code: "PAYMENT_NOT_FOUND", message: "This payment reference is not yours." } });
      expect(await paymentRow(t, reference)).toMatchObject({ status: "pending", checkedAt: null });
    });

    it("unpaid closed checkouts never block deleting the account", async () => {
      const who = user("leaver");
      const reference = await buy(who);
      await closed(who, reference);
      const response = await api.call(who, {
        method: "POST",
        url: "/api/auth/delete-user",
        headers: { origin: t.services.env.appUrl },
        payload: { password: PASSWORD },
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(await paymentRow(t, reference)).toMatchObject({ status: "abandoned", userId: null });
    });
  });

  describe("the learner comes back", () => {
    it("paid, the tab closed and no webhook: the plan is theirs as soon as they open a page", async () => {
      const who = user("returner");
      const reference = await buy(who);
      await paidAtPaystack(reference);

      const response = await verifyPending(who);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ settled: [{ reference, status: "success" }] });
      expect((await api.getSubscription(who)).json()).toMatchObject({ status: "active", plan: { name: "intermediate" } });
      expect(await history(who)).toMatchObject([{ reference, status: "success" }]);
      expect((await verifyPending(who)).json()).toEqual({ settled: [] });
    });

    it("a pending payment is asked about at most once a minute", async () => {
      const who = user("impatient");
      const reference = await buy(who);

      // Not paid yet, and the checkout may still be open: left pending, asked about now.
      expect((await verifyPending(who)).json()).toEqual({ settled: [] });
      const { checkedAt } = (await paymentRow(t, reference)) ?? {};
      expect(checkedAt).toEqual(expect.any(Date));

      // Paid meanwhile, but asked within the minute: Paystack is not asked again.
      await paidAtPaystack(reference);
      expect((await verifyPending(who)).json()).toEqual({ settled: [] });
      expect(await paymentRow(t, reference)).toMatchObject({ status: "pending", checkedAt });
      await askedAgo(reference, 50);
      expect((await verifyPending(who)).json()).toEqual({ settled: [] });
      expect(await me(t, who.cookie)).toMatchObject({ plan: "legacyFree" });

      // A minute on, it is asked again, and credited.
      await askedAgo(reference, 61);
      expect((await verifyPending(who)).json()).toEqual({ settled: [{ reference, status: "success" }] });
      expect(await me(t, who.cookie)).toMatchObject({ plan: "intermediate" });
    });

    it("many pages opened at once ask Paystack once: one of them settles the payment", async () => {
      const who = user("crowd");
      const reference = await buy(who);
      await paidAtPaystack(reference);
      const answers = await Promise.all(Array.from({ length: 6 }, () => verifyPending(who)));
      const settled = answers.map((answer) => answer.json<{ settled: unknown[] }>().settled);
      expect(settled.filter((list) => list.length > 0)).toEqual([[{ reference, status: "success" }]]);
      expect(await me(t, who.cookie)).toMatchObject({ plan: "intermediate" });
    });

    it("an answer whose amount does not match is never credited and shows to admins as needing attention", async () => {
      const who = user("tampered");
      const reference = await buy(who);
      await simulatePayment(t, reference, { outcome: "success", amount: 100, deliverWebhook: false });

      expect((await verifyPending(who)).json()).toEqual({ settled: [{ reference, status: "mismatched" }] });
      expect(await paymentRow(t, reference)).toMatchObject({ status: "mismatched", creditedAt: null });
      expect(await me(t, who.cookie)).toMatchObject({ plan: "legacyFree" });

      const listing = await api.call(user("admin"), { method: "GET", url: "/api/admin/payments?status=mismatched" });
      expect(listing.statusCode, listing.body).toBe(200);
      expect(listing.json()).toMatchObject({ payments: [{ reference, status: "mismatched" }] });
    });
  });
});
