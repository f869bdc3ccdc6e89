// The learner's payment history and receipts (docs/product.md, "Subscription page"): only their
// own payments, newest first, a page at a time; a receipt only for their own paid payments.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { BILLING_MESSAGES, HISTORY_PAGE_SIZE, type PaymentHistory, type Receipt } from "../../../shared/contracts/billing.ts";
import { payments, refunds } from "../../db/schema.ts";
import { nextCohort } from "../../../shared/billing.ts";
import { ipAllocator, mailsTo, type TestUser, type TestUserPlan } from "../../testing/accounts.ts";
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
      const row = await paymentRow(t, paid.reference);
      if (!row) throw new Error("gone");
      expect(response.json<Receipt>()).toEqual({
        ...paid,
        business: { name: "Trading Academy", address: null, taxNumber: null },
        name: "Test Learner",
        email: ama.email,
        priceUsdCents: 3500,
        exchangeRate: "15.450000",
        method: { channel: "card", brand: "Visa", number: "4081" },
        periodStart: row.creditedAt?.toISOString(),
        periodEnd: expect.any(String),
        cohort: null,
        refunds: [],
      });

      // A refund, processed, shows on it; a refused one does not.
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

// What a learner files (docs/subscriptions.md, "Receipts"): the business, the learner, the plan and
// its month, cedis, the dollar price and the rate, how Paystack says it was paid, its reference,
// a refund, and the email's link to the receipt page.
describe("receipts a learner can file", () => {
  const BUSINESS = {
    BUSINESS_NAME: "Trading Academy Ltd",
    BUSINESS_ADDRESS: "12 Liberation Road, Accra, Ghana",
    BUSINESS_TAX_NUMBER: "C0012345678",
  };
  const { t, api, user, buy, joinWaitlist } = useBillingApp(nextIp, { momo: {}, card: {}, waiting: {} }, { env: BUSINESS });

  async function receiptMail(email: string, reference: string) {
    await t.services.jobs.runDue();
    const mail = (await mailsTo(t, email)).find((message) => message.subject === `Your Trading Academy receipt ${reference}`);
    if (!mail) throw new Error(`no receipt mailed for ${reference}`);
    return mail;
  }

  it("names the business, the learner, the month, the price and rate, the mobile-money wallet and the reference, in the email and on the page", async () => {
    const who = user("momo");
    const reference = await buy(who);
    await simulatePayment(t, reference, { outcome: "success", channel: "mobile_money", deliverWebhook: false });
    expect((await api.verify(who, reference)).statusCode).toBe(200);
    const row = await paymentRow(t, reference);
    const start = row?.periodStart;
    const end = row?.periodEnd;
    if (!start || !end) throw new Error("the month bought was not kept");
    expect(row).toMatchObject({ methodChannel: "mobile_money", methodBrand: "MTN", methodNumber: "055***4987" });

    const { text, html } = await receiptMail(who.email, reference);
    const day = (date: Date) => date.toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });
    for (const line of [
      "Receipt from:\nTrading Academy Ltd\n12 Liberation Road, Accra, Ghana\nTax number: C0012345678",
      `Billed to: Test Learner (${who.email})`,
      `For: 1 month of the Intermediate plan, ${day(start)} to ${day(end)}`,
      "Amount: GH₵ 541.00 (US$ 35.00 at 15.45 cedis per dollar)",
      "Paid with: MTN Mobile Money 055***4987",
      `Paystack reference: ${reference}`,
      `View your receipt: ${t.services.env.appUrl}/subscription/receipts/${reference}`,
    ]) {
      expect(text).toContain(line);
    }
    // The wallet's full number is never kept, nor mailed; the rate is never 15.450000.
    expect(text).not.toContain("0551234987");
    expect(text).not.toContain("15.450000");
    expect(html).toContain(`href="${t.services.env.appUrl}/subscription/receipts/${reference}"`);

    const page = await api.call(who, { method: "GET", url: `/api/payments/${reference}` });
    expect(page.json<Receipt>()).toMatchObject({
      business: { name: "Trading Academy Ltd", address: "12 Liberation Road, Accra, Ghana", taxNumber: "C0012345678" },
      method: { channel: "mobile_money", brand: "MTN", number: "055***4987" },
      periodStart: start.toISOString(),
      periodEnd: end.toISOString(),
    });
  });

  it("names a card by its brand and last 4 digits, shows the rate to 4 decimals, and lists a refund", async () => {
    const who = user("card");
    const reference = await buy(who, "advanced");
    // A rate with more decimals than a receipt shows.
    await t.database.db.update(payments).set({ exchangeRate: "15.123456" }).where(eq(payments.reference, reference));
    // The webhook alone credits it: the method comes from charge.success as from Verify.
    await simulatePayment(t, reference, { outcome: "success", channel: "card", deliverWebhook: true });

    const { text } = await receiptMail(who.email, reference);
    expect(text).toContain("Paid with: Visa card ending in 4081");
    expect(text).toContain("Amount: GH₵ 773.00 (US$ 50.00 at 15.1235 cedis per dollar)");

    const row = await paymentRow(t, reference);
    if (!row) throw new Error("no payment");
    await t.database.db.insert(refunds).values({ paymentId: row.id, amountMinor: 10_000, status: "processed", processedAt: new Date() });
    await t.database.db.update(payments).set({ refundedMinor: 10_000 }).where(eq(payments.id, row.id));
    const receipt = (await api.call(who, { method: "GET", url: `/api/payments/${reference}` })).json<Receipt>();
    expect(receipt).toMatchObject({
      method: { channel: "card", brand: "Visa", number: "4081" },
      exchangeRate: "15.123456",
      refundedMinor: 10_000,
      refunds: [{ amountMinor: 10_000, status: "processed" }],
    });
  });

  it("names the cohort a waitlist payment holds a place in", async () => {
    const who = user("waiting");
    const reference = await joinWaitlist(who);
    await simulatePayment(t, reference, { outcome: "success", deliverWebhook: true });
    const receipt = (await api.call(who, { method: "GET", url: `/api/payments/${reference}` })).json<Receipt>();
    expect(receipt).toMatchObject({ periodStart: null, periodEnd: null, cohort: nextCohort(new Date()).name });
    expect((await receiptMail(who.email, reference)).text).toContain(
      `For: Waitlist place, Intermediate track (first month), ${nextCohort(new Date()).name} cohort`,
    );
  });
});
