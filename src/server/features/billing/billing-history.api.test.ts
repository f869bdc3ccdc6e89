// The learner's payment history and receipts (docs/product.md, "Subscription page"): only their
// own payments, newest first, a page at a time; a receipt only for their own paid payments.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { BILLING_MESSAGES, HISTORY_PAGE_SIZE, type PaymentHistory, type Receipt } from "../../../shared/contracts/billing.ts";
import { payments, refunds } from "../../db/schema.ts";
import { ipAllocator, type TestUser, type TestUserPlan } from "../../testing/accounts.ts";
import { paymentRow, simulatePayment, useBillingApp } from "../../testing/billing.ts";

const nextIp = ipAllocator(92);

const USERS = { ama: {}, kofi: {}, many: {} } satisfies Record<string, TestUserPlan>;

describe("the learner's payments", () => {
  const { t, api, user, buy, joinWaitlist } = useBillingApp(nextIp, USERS);

  const history = (who: TestUser | null, query = "") => api.call(who, { method: "GET", url: `/api/payments${query}` });
  const receipt = (who: TestUser | null, reference: string) =>
    api.call(who, { method: "GET", url: `/api/payments/${encodeURIComponent(reference)}` });

  async function paidNow(who: TestUser, reference: string) {
    await simulatePayment(t, reference, { outcome: "success", deliverWebhook: false });
    expect((await api.verify(who, reference)).statusCode).toBe(200);
  }

  it("lists only the learner's own payments, newest first, each with its status, and a receipt for the paid ones", async () => {
    const ama = user("ama");
    const kofi = user("kofi");
    const paid = await buy(ama);
    await paidNow(ama, paid);
    const unfinished = await buy(ama, "advanced");
    const kofisOwn = await buy(kofi);
    await paidNow(kofi, kofisOwn);

    const response = await history(ama);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers["cache-control"]).toBe("no-store");
    const listing = response.json<PaymentHistory>();
    expect(listing).toMatchObject({ page: 1, pageSize: HISTORY_PAGE_SIZE, total: 2 });
    expect(listing.payments).toEqual([
      {
        reference: unfinished,
        kind: "subscription",
        plan: "advanced",
        amountMinor: 77_300,
        refundedMinor: 0,
        currency: "GHS",
        status: "pending",
        createdAt: expect.any(String),
        paidAt: null,
        hasReceipt: false,
      },
      {
        reference: paid,
        kind: "subscription",
        plan: "intermediate",
        amountMinor: 54_100,
        refundedMinor: 0,
        currency: "GHS",
        status: "success",
        createdAt: expect.any(String),
        paidAt: expect.any(String),
        hasReceipt: true,
      },
    ]);
    expect((await history(kofi)).json<PaymentHistory>().payments.map((p) => p.reference)).toEqual([kofisOwn]);
  });

  it("pages the history in the database, 10 a page", async () => {
    const who = user("many");
    const first = await paymentRow(t, await joinWaitlist(who));
    if (!first) throw new Error("no payment");
    const base = first.createdAt.getTime();
    // 11 more, made earlier than the checkout above.
    await t.database.db.insert(payments).values(
      Array.from({ length: 11 }, (_, i) => ({
        reference: `LTF-HISTORY-${i}`,
        userId: who.id,
        userEmail: who.email,
        kind: "subscription" as const,
        plan: "intermediate" as const,
        amountMinor: 54_100,
        priceUsdCents: 3500,
        exchangeRate: "15.450000",
        status: "abandoned" as const,
        createdAt: new Date(base - (i + 1) * 60_000),
      })),
    );
    const one = (await history(who)).json<PaymentHistory>();
    expect(one.total).toBe(12);
    expect(one.payments.map((p) => p.reference)).toEqual([first.reference, ...Array.from({ length: 9 }, (_, i) => `LTF-HISTORY-${i}`)]);
    const two = (await history(who, "?page=2")).json<PaymentHistory>();
    expect(two.payments.map((p) => p.reference)).toEqual(["LTF-HISTORY-9", "LTF-HISTORY-10"]);
    expect((await history(who, "?page=3")).json<PaymentHistory>().payments).toEqual([]);
    expect((await history(who, "?page=0")).statusCode).toBe(400);
  });

  it("needs a signed-in learner", async () => {
    expect((await history(null)).statusCode).toBe(401);
    expect((await receipt(null, "LTF-INTERMEDIATE-1")).statusCode).toBe(401);
  });

  describe("receipts", () => {
    it("shows the learner's own paid payment, with what it cost in dollars and any refund", async () => {
      const ama = user("ama");
      const [paid] = (await history(ama)).json<PaymentHistory>().payments.filter((p) => p.hasReceipt);
      if (!paid) throw new Error("no paid payment");
      const response = await receipt(ama, paid.reference);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json<Receipt>()).toEqual({
        ...paid,
        name: "Test Learner",
        email: ama.email,
        priceUsdCents: 3500,
        exchangeRate: "15.450000",
        refunds: [],
      });

      // A refund, processed, shows on it; a refused one does not.
      const row = await paymentRow(t, paid.reference);
      if (!row) throw new Error("gone");
      await t.database.db.insert(refunds).values([
        { paymentId: row.id, amountMinor: 100, status: "failed", createdAt: new Date(Date.now() - 60_000) },
        { paymentId: row.id, amountMinor: 54_100, status: "processed", gatewayId: "3000999", processedAt: new Date() },
      ]);
      await t.database.db.update(payments).set({ status: "refunded", refundedMinor: 54_100 }).where(eq(payments.id, row.id));
      const refunded = (await receipt(ama, paid.reference)).json<Receipt>();
      expect(refunded).toMatchObject({ status: "refunded", refundedMinor: 54_100, hasReceipt: true });
      expect(refunded.refunds).toEqual([{ amountMinor: 54_100, status: "processed", createdAt: expect.any(String), processedAt: expect.any(String) }]);
    });

    it("answers the same 404 for someone else's payment, one not paid and one that does not exist", async () => {
      const ama = user("ama");
      const kofi = user("kofi");
      const [kofisOwn] = (await history(kofi)).json<PaymentHistory>().payments;
      const [unpaid] = (await history(ama)).json<PaymentHistory>().payments.filter((p) => !p.hasReceipt);
      if (!kofisOwn || !unpaid) throw new Error("missing payments");
      expect((await receipt(kofi, kofisOwn.reference)).statusCode).toBe(200);
      for (const reference of [kofisOwn.reference, unpaid.reference, "LTF-INTERMEDIATE-1", "nothing at all"]) {
        const response = await receipt(ama, reference);
        expect(response.statusCode, reference).toBe(404);
        expect(response.json(), reference).toEqual({
          error: { code: "RECEIPT_NOT_FOUND", message: BILLING_MESSAGES.receiptNotFound, requestId: expect.any(String) },
        });
      }
    });
  });
});
