// Attack suite (issue 7): getting a plan or a waitlist place without paying for it, through the
// verify endpoints and the Paystack webhook (docs/subscriptions.md, "Payments are real": credit
// only after Paystack confirms status, amount, currency, customer and reference, exactly once, for the user
// who started the checkout; a webhook only names the reference, and its body is otherwise never
// read: Paystack's Verify, asked by the server, decides). Already covered elsewhere, and not repeated here: another user's
// subscription reference by GET verify, declined and abandoned payments by verify, amount and
// currency mismatch by verify, an amount mismatch by webhook, six forged signatures, 20 racing
// verify calls and webhooks (billing-crediting.api.test.ts); a waitlist reference verified as a
// subscription and back (billing-waitlist.api.test.ts); an amount sent by the browser
// (billing-checkout.api.test.ts).
import { createHmac } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { paystackSignature } from "../../../dev/fakes/paystack-simulator.ts";
import { cardAuthorizations, users } from "../db/schema.ts";
import { ipAllocator, type TestUser } from "../testing/accounts.ts";
import {
  auditEntries,
  checkoutReference,
  NOTHING_PAID,
  paymentRow,
  postWebhook,
  receiptJobs,
  simulatePayment,
  simulatorSecretKey,
  useBillingApp,
  userRow,
  type SimulatedTransaction,
} from "../testing/billing.ts";
import { expectNothingChanged, expectRefused } from "../testing/attack-kit.ts";

const nextIp = ipAllocator(62);

const USERS = {
  waitlistOwner: {},
  waitlistIntruder: {},
  webhookOwner: {},
  webhookIntruder: {},
  customerOwner: {},
  customerPaidByOther: {},
  unpaidByWebhook: {},
  failedByWebhook: {},
  bodyNotRead: {},
  currencyByWebhook: {},
  waitlistTampered: {},
  replayed: {},
  replayedWaitlist: {},
  resigned: {},
  planOverride: {},
  chosenReference: {},
  referenceOwner: {},
  oversized: {},
} as const;

describe("attacks on payments", () => {
  const { t, api, user, buy, joinWaitlist, paidAtPaystack } = useBillingApp(nextIp, USERS);
  const chargeSuccess = (data: SimulatedTransaction | Record<string, unknown>) => ({ event: "charge.success", data });

  describe("someone else's reference", () => {
    it("a paid waitlist reference of another user, verified with POST (any plan): 404, nobody credited", async () => {
      const owner = user("waitlistOwner");
      const intruder = user("waitlistIntruder");
      const reference = await joinWaitlist(owner, "advanced");
      await paidAtPaystack(reference);
      await expectNothingChanged(t, async () => {
        for (const plan of [undefined, "advanced", "intermediate"] as const) {
          expectRefused(await api.verifyWaitlist(intruder, reference, plan), 404, `plan ${plan}`);
        }
        expectRefused(await api.verify(intruder, reference), 404);
        expectRefused(await api.verify(null, reference), 401);
        expectRefused(await api.verifyWaitlist(null, reference), 401);
      });
      expect(await userRow(t, intruder.id)).toMatchObject(NOTHING_PAID);
      expect(await userRow(t, owner.id)).toMatchObject(NOTHING_PAID);
    });

    it("a genuine webhook naming the intruder in its metadata credits the user who started the checkout, never the intruder", async () => {
      const owner = user("webhookOwner");
      const intruder = user("webhookIntruder");
      const reference = await buy(owner);
      const data = await paidAtPaystack(reference);
      const lying = {
        ...data,
        metadata: { userId: intruder.id, plan: "advanced", kind: "subscription" },
        userId: intruder.id,
        plan: "advanced",
      };
      const response = await postWebhook(t, chargeSuccess(lying));
      expect(response.statusCode, response.body).toBe(200);
      expect(await userRow(t, owner.id)).toMatchObject({ subscriptionPlan: "intermediate", subscriptionStatus: "active" });
      expect(await userRow(t, intruder.id)).toMatchObject(NOTHING_PAID);
      expect(await auditEntries(t, intruder.id)).toEqual([]);
    });

    it("a signed webhook naming the intruder as the customer credits the owner, as Verify reports, never the intruder", async () => {
      const owner = user("customerOwner");
      const intruder = user("webhookIntruder");
      const reference = await buy(owner);
      const data = await paidAtPaystack(reference);
      const response = await postWebhook(t, chargeSuccess({ ...data, customer: { email: intruder.email } }));
      expect(response.statusCode, response.body).toBe(200);
      expect(await userRow(t, owner.id)).toMatchObject({ subscriptionPlan: "intermediate", subscriptionStatus: "active" });
      expect(await userRow(t, intruder.id)).toMatchObject(NOTHING_PAID);
      expect(await auditEntries(t, intruder.id)).toEqual([]);
    });

    it("a payment Paystack reports paid by another customer credits nobody and needs attention, whatever the webhook says", async () => {
      const owner = user("customerPaidByOther");
      const intruder = user("webhookIntruder");
      const reference = await buy(owner);
      const { data } = await simulatePayment(t, reference, { outcome: "success", customerEmail: intruder.email, deliverWebhook: false });
      const response = await postWebhook(t, chargeSuccess({ ...data, customer: { email: owner.email } }));
      expect(response.statusCode, response.body).toBe(200);
      expect(await paymentRow(t, reference)).toMatchObject({ status: "mismatched", creditedAt: null });
      expect(await userRow(t, owner.id)).toMatchObject(NOTHING_PAID);
      expect(await userRow(t, intruder.id)).toMatchObject(NOTHING_PAID);
      // Asked again, it credits nothing either: an administrator settles it.
      expect((await postWebhook(t, chargeSuccess(data))).statusCode).toBe(200);
      expectRefused(await api.verify(owner, reference), 409);
      expect(await userRow(t, owner.id)).toMatchObject(NOTHING_PAID);
      expect(await receiptJobs(t, reference)).toEqual([]);
    });
  });

  // A webhook only names the payment; what its body says of it is never read. The server asks
  // Paystack's Verify itself, and that answer decides (docs/subscriptions.md, "Asking Paystack").
  describe("payments that were not completed or do not match", () => {
    /** Nothing credited to this learner for this reference, and no card kept. */
    async function expectNotCredited(who: TestUser, reference: string, paymentStatus = "pending") {
      expect(await paymentRow(t, reference)).toMatchObject({ status: paymentStatus, creditedAt: null, paidAt: null });
      expect(await userRow(t, who.id)).toMatchObject(NOTHING_PAID);
      expect(await auditEntries(t, who.id)).toEqual([]);
      expect(await receiptJobs(t, reference)).toEqual([]);
      expect(await t.database.db.select().from(cardAuthorizations).where(eq(cardAuthorizations.userId, who.id))).toEqual([]);
    }

    it.each(["success", "abandoned", "pending", "ongoing", "SUCCESS", "", "success "])(
      "a signed charge.success saying %j of a checkout nobody paid credits nothing and keeps no card",
      async (status) => {
        const who = user("unpaidByWebhook");
        const reference = await buy(who);
        const stored = await paymentRow(t, reference);
        const claimed = {
          status,
          reference,
          amount: stored?.amountMinor,
          currency: "GHS",
          paid_at: new Date().toISOString(),
          customer: { email: who.email },
          authorization: { channel: "card", authorization_code: "AUTH_claimed", reusable: true, brand: "visa", last4: "4081" },
        };
        expect((await postWebhook(t, chargeSuccess(claimed))).statusCode).toBe(200);
        await expectNotCredited(who, reference);
      },
    );

    it("a charge Paystack reports declined, announced as a success by a signed body, is only marked failed", async () => {
      const who = user("failedByWebhook");
      const reference = await buy(who);
      const { data } = await simulatePayment(t, reference, { outcome: "failed" });
      expect((await postWebhook(t, chargeSuccess({ ...data, status: "success", paid_at: new Date().toISOString() }))).statusCode).toBe(200);
      await expectNotCredited(who, reference, "failed");
    });

    it("a payment Paystack settled for another currency or amount needs attention, whatever amount the signed body claims", async () => {
      const who = user("currencyByWebhook");
      for (const tampered of [{ currency: "USD" }, { currency: "NGN" }, { amount: 1 }, { amount: 5_410_000 }]) {
        const reference = await buy(who);
        const { data } = await simulatePayment(t, reference, { outcome: "success", deliverWebhook: false, ...tampered });
        const stored = await paymentRow(t, reference);
        // The body claims the order exactly; Paystack's Verify says otherwise.
        const response = await postWebhook(t, chargeSuccess({ ...data, amount: stored?.amountMinor, currency: "GHS" }));
        expect(response.statusCode, JSON.stringify(tampered)).toBe(200);
        expect(await paymentRow(t, reference), JSON.stringify(tampered)).toMatchObject({ status: "mismatched", creditedAt: null });
      }
      expect(await userRow(t, who.id)).toMatchObject(NOTHING_PAID);
    });

    it("another spelling of the reference changes nothing; the reference itself credits what Paystack settled, whatever the body claims", async () => {
      const who = user("bodyNotRead");
      const reference = await buy(who);
      const data = await paidAtPaystack(reference);
      await expectNothingChanged(t, async () => {
        for (const spelling of [reference.toLowerCase(), `${reference} `, `${reference}-2`]) {
          const response = await postWebhook(t, chargeSuccess({ ...data, reference: spelling }));
          expect(response.statusCode, spelling).toBe(200);
        }
      });
      expect(await userRow(t, who.id)).toMatchObject(NOTHING_PAID);

      const response = await postWebhook(t, chargeSuccess({ ...data, amount: String(data.amount * 100), currency: "ghs", status: "failed" }));
      expect(response.statusCode, response.body).toBe(200);
      expect(await paymentRow(t, reference)).toMatchObject({ status: "success", amountMinor: data.amount, currency: "GHS" });
      expect(await userRow(t, who.id)).toMatchObject({ subscriptionPlan: "intermediate", subscriptionStatus: "active" });
      expect(await auditEntries(t, who.id)).toHaveLength(1);
    });

    it("a waitlist payment settled for a smaller amount or another currency: verify 409, no place", async () => {
      const who = user("waitlistTampered");
      for (const tampering of [{ amount: 100 }, { currency: "USD" }]) {
        const reference = await joinWaitlist(who);
        await simulatePayment(t, reference, { outcome: "success", deliverWebhook: false, ...tampering });
        const response = await api.verifyWaitlist(who, reference);
        expectRefused(response, 409, JSON.stringify(tampering));
        expect(response.json().error.code).toBe("PAYMENT_MISMATCH");
        expect(await paymentRow(t, reference)).toMatchObject({ status: "mismatched", creditedAt: null });
      }
      expect(await userRow(t, who.id)).toMatchObject(NOTHING_PAID);
      expect((await api.waitlistStatus(who)).json()).toMatchObject({ paid: false });
    });
  });

  describe("replays", () => {
    it("a credited subscription reference replayed after the plan was taken away grants nothing again", async () => {
      const who = user("replayed");
      const reference = await buy(who);
      const data = await paidAtPaystack(reference);
      expect((await api.verify(who, reference)).statusCode).toBe(200);
      const credited = await userRow(t, who.id);
      // An administrator takes the plan away (or the month runs out): the old payment stays spent.
      await t.database.db
        .update(users)
        .set({ subscriptionPlan: "legacyFree", subscriptionStatus: "expired" })
        .where(eq(users.id, who.id));

      await expectNothingChanged(t, async () => {
        for (let i = 0; i < 3; i++) {
          expect((await postWebhook(t, chargeSuccess(data))).statusCode).toBe(200);
          expect((await api.verify(who, reference)).statusCode).toBe(200);
        }
        expectRefused(await api.verifyWaitlist(who, reference), 400);
      });
      expect(await userRow(t, who.id)).toMatchObject({ subscriptionPlan: "legacyFree", subscriptionEnd: credited.subscriptionEnd });
      expect((await auditEntries(t, who.id)).map((entry) => entry.action)).toEqual(["payment.credited"]);
    });

    it("a credited waitlist reference replayed by verify and webhook adds no second place and no second credit", async () => {
      const who = user("replayedWaitlist");
      const reference = await joinWaitlist(who);
      const data = await paidAtPaystack(reference);
      expect((await api.verifyWaitlist(who, reference)).statusCode).toBe(200);
      await expectNothingChanged(t, async () => {
        for (let i = 0; i < 3; i++) {
          expect((await api.verifyWaitlist(who, reference, "advanced")).statusCode).toBe(200);
          expect((await postWebhook(t, chargeSuccess({ ...data, metadata: { plan: "advanced" } }))).statusCode).toBe(200);
        }
        expectRefused(await api.verify(who, reference), 400);
      });
      expect(await userRow(t, who.id)).toMatchObject({ waitlistPaid: true, intermediatePaid: true, advancedPaid: false, subscriptionPlan: "legacyFree" });
    });

    it("the plan named in a waitlist verify is ignored: the track paid for is the one recorded", async () => {
      const who = user("planOverride");
      const reference = await joinWaitlist(who, "intermediate");
      await paidAtPaystack(reference);
      const response = await api.verifyWaitlist(who, reference, "advanced");
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().data).toMatchObject({ plan: "intermediate" });
      expect(await userRow(t, who.id)).toMatchObject({ intermediatePaid: true, advancedPaid: false });
    });

    it("a reference the browser picks is ignored: the server makes its own", async () => {
      const who = user("chosenReference");
      const taken = await buy(user("referenceOwner"), "advanced");
      const reference = checkoutReference(await api.buy(who, "advanced", { reference: taken, ref: taken }));
      expect(reference).not.toBe(taken);
      expect(await paymentRow(t, reference)).toMatchObject({ userId: who.id });
      expect(await paymentRow(t, taken)).toMatchObject({ userId: user("referenceOwner").id, status: "pending" });
    });
  });

  describe("webhook signatures", () => {
    it("a genuine signature reused on a changed body (reference, amount, status, event, key order) is refused", async () => {
      const who = user("resigned");
      const reference = await buy(who);
      const data = await paidAtPaystack(reference);
      const key = simulatorSecretKey(t);
      // A genuine event Paystack signed earlier, for a small payment of someone else.
      const genuine = JSON.stringify(chargeSuccess({ ...data, reference: "LTF-INTERMEDIATE-1", amount: 100 }));
      const signature = paystackSignature(genuine, key);
      const bodies = [
        JSON.stringify(chargeSuccess(data)),
        JSON.stringify(chargeSuccess({ ...data, reference: "LTF-INTERMEDIATE-1" })),
        JSON.stringify(chargeSuccess({ ...data, reference: "LTF-INTERMEDIATE-1", amount: 100, status: "success" })).replace("charge.success", "charge.success "),
        JSON.stringify({ data: { ...data, reference: "LTF-INTERMEDIATE-1", amount: 100 }, event: "charge.success" }),
        `${genuine}\n`,
        ` ${genuine}`,
      ];
      await expectNothingChanged(t, async () => {
        for (const body of bodies) expectRefused(await postWebhook(t, body, { signature }), 401, body.slice(0, 80));
        // Signed, but not the way Paystack signs: another hash, the key as text, a header of another name.
        const other = JSON.stringify(chargeSuccess(data));
        for (const wrong of [
          createHmac("sha256", key).update(other).digest("hex"),
          createHmac("sha512", key).update(other).digest("base64"),
          key,
          `sha512=${paystackSignature(other, key)}`,
          `${paystackSignature(other, key)} `,
          `${paystackSignature(other, key)},${paystackSignature(other, key)}`,
        ]) {
          expectRefused(await postWebhook(t, other, { signature: wrong }), 401, wrong.slice(0, 20));
        }
        const renamed = await t.app.inject({
          method: "POST",
          url: "/api/paystack/webhook",
          headers: { "content-type": "application/json", "x-paystack-signature-512": paystackSignature(other, key) },
          payload: other,
        });
        expectRefused(renamed, 401);
      });
      expect(await userRow(t, who.id)).toMatchObject(NOTHING_PAID);
    });

    it("a signed body over the size limit, or sent as another content type, is refused before crediting", async () => {
      const who = user("oversized");
      const reference = await buy(who);
      const data = await paidAtPaystack(reference);
      const key = simulatorSecretKey(t);
      const oversized = JSON.stringify(chargeSuccess({ ...data, padding: "x".repeat(70 * 1024) }));
      const plain = JSON.stringify(chargeSuccess(data));
      await expectNothingChanged(t, async () => {
        expectRefused(await postWebhook(t, oversized), 413);
        for (const contentType of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"]) {
          const response = await t.app.inject({
            method: "POST",
            url: "/api/paystack/webhook",
            headers: { "content-type": contentType, "x-paystack-signature": paystackSignature(plain, key) },
            payload: plain,
          });
          expectRefused(response, 415, contentType);
        }
      });
      expect(await userRow(t, who.id)).toMatchObject(NOTHING_PAID);
    });
  });
});
