// Settling a payment: the server asks Paystack (Verify transaction) and applies its answer. One
// path for every moment it asks: the learner's checkout closing, the learner opening a page with a
// payment pending, Paystack's charge.success webhook, and reconciliation (docs/subscriptions.md,
// "Asking Paystack"). Neither the browser nor the webhook says what happened; they only say when
// to ask.
import { and, eq, isNull, lte, or } from "drizzle-orm";
import type { PaymentStatus } from "../../../shared/contracts/billing.ts";
import type { CurrentUser } from "../../auth/session.ts";
import type { Db } from "../../db/client.ts";
import { payments } from "../../db/schema.ts";
import { transactionForLog, type PaystackClient, type VerifiedTransaction } from "../../integrations/paystack.ts";
import type { Metrics } from "../../metrics/metrics.ts";
import { HttpError } from "../../plugins/errors.ts";
import { BILLING_MESSAGES } from "../../../shared/contracts/billing.ts";
import { creditPayment, mayStillBeCredited } from "./billing-crediting.ts";

/** An unpaid checkout this old is closed as abandoned (a later payment still credits it). */
export const ABANDON_AFTER_MS = 60 * 60_000;
/** A learner's pending payment is asked about on their return at most this often. */
export const RETURN_VERIFY_EVERY_MS = 60_000;

export const SETTLE_OUTCOMES = [
  "credited",
  "already-credited",
  "failed",
  "reversed",
  "abandoned",
  "pending",
  "mismatch",
  "unavailable",
] as const;
export type SettleOutcome = (typeof SETTLE_OUTCOMES)[number];

/**
 * Why Paystack is asked. After the checkout closed, an unpaid answer means nobody paid: the
 * payment is closed at once. Otherwise the checkout may still be open somewhere (a second tab, a
 * mobile-money prompt), so an unpaid payment is left pending for its first hour.
 */
export type SettleMoment = "checkout-closed" | "learner-returned" | "webhook" | "reconciliation";

export type SettleDeps = {
  db: Db;
  paystack: PaystackClient;
  metrics: Pick<Metrics, "paymentCredited">;
  log: { warn(details: object, message: string): void; error(details: object, message: string): void };
};

type PendingPayment = { id: string; reference: string; createdAt: Date };

/** How Paystack's answer closes a pending payment, or null to leave it pending. */
function closingStatus(transaction: VerifiedTransaction | null, payment: PendingPayment, moment: SettleMoment, now: Date) {
  const unpaidIsFinal = moment === "checkout-closed" || now.getTime() - payment.createdAt.getTime() >= ABANDON_AFTER_MS;
  // Unknown to Paystack: the checkout never reached it, so nobody can have paid.
  if (transaction === null) return unpaidIsFinal ? "abandoned" : null;
  if (transaction.status === "failed" || transaction.status === "reversed") return transaction.status;
  // Paystack reports a transaction nobody has paid (yet) as abandoned.
  if (transaction.status === "abandoned" && unpaidIsFinal) return "abandoned";
  return null;
}

/**
 * Asks Paystack about one payment and applies the answer: a success is credited through
 * creditPayment (a mismatch is recorded there, and logged here); failed and reversed close it; an
 * unpaid one is closed as abandoned when its checkout is over (closingStatus). Only a payment
 * still pending is closed, so a webhook that credits it meanwhile wins. No database transaction
 * is open while Paystack is asked; when it does not answer, nothing changes.
 */
export async function settlePayment(deps: SettleDeps, payment: PendingPayment, moment: SettleMoment, now: Date): Promise<SettleOutcome> {
  const { db, paystack, log } = deps;
  let transaction: VerifiedTransaction | null;
  try {
    transaction = await paystack.verify(payment.reference);
  } catch (error) {
    log.warn({ err: error, reference: payment.reference, moment }, "Paystack did not answer about a payment");
    return "unavailable";
  }
  const thisPayment = eq(payments.id, payment.id);
  if (transaction?.status === "success") {
    const result = await creditPayment(deps, transaction, now);
    await db.update(payments).set({ checkedAt: now }).where(thisPayment);
    if (result.outcome === "credited" || result.outcome === "already-credited") return result.outcome;
    if (result.outcome === "mismatch") {
      log.error({ reference: payment.reference, moment, transaction: transactionForLog(transaction) }, "the Paystack transaction does not match the stored payment");
      return "mismatch";
    }
    return "pending";
  }
  const status = closingStatus(transaction, payment, moment, now);
  await db
    .update(payments)
    .set(status ? { status, checkedAt: now } : { checkedAt: now })
    .where(status ? and(thisPayment, eq(payments.status, "pending")) : thisPayment);
  return status ?? "pending";
}

/**
 * Paystack's charge.success webhook names a payment: Paystack is asked about it (Verify) and that
 * answer is applied, as at any other moment. What the webhook's body says of the payment (status,
 * amount, customer, card) is never read, so a signed body that Paystack does not confirm credits
 * nothing and keeps no card. A payment unknown here, or settled already, is not asked about.
 * Null when there was nothing to ask; "unavailable" when Paystack did not answer.
 */
export async function settleNamedByWebhook(deps: SettleDeps, reference: string, now: Date): Promise<SettleOutcome | null> {
  const [payment] = await deps.db.select().from(payments).where(eq(payments.reference, reference));
  if (!payment || !mayStillBeCredited(payment)) return null;
  return settlePayment(deps, payment, "webhook", now);
}

/**
 * The learner's checkout ended (closed, or it could not load): Paystack is asked at once about
 * their own payment, and its status as it now stands is answered. A payment already settled (its
 * webhook came first) is answered as it is.
 */
export async function checkoutClosed(
  deps: SettleDeps,
  user: CurrentUser,
  reference: string,
  now: Date,
): Promise<{ reference: string; status: PaymentStatus }> {
  const [payment] = await deps.db.select().from(payments).where(eq(payments.reference, reference));
  if (!payment || payment.userId !== user.id) throw new HttpError(404, "PAYMENT_NOT_FOUND", BILLING_MESSAGES.notYourPayment);
  if (payment.status !== "pending") return { reference, status: payment.status };
  await settlePayment(deps, payment, "checkout-closed", now);
  const [settled] = await deps.db.select({ status: payments.status }).from(payments).where(eq(payments.id, payment.id));
  return { reference, status: settled?.status ?? payment.status };
}

/**
 * The learner opened a page that shows what they paid for: each of their pending payments is
 * asked about, at most once a minute. The claim is one conditional UPDATE, so instances sharing
 * the database never ask twice within the minute. Answers the payments that are settled now.
 */
export async function verifyPendingPayments(
  deps: SettleDeps,
  user: CurrentUser,
  now: Date,
): Promise<{ settled: Array<{ reference: string; status: PaymentStatus }> }> {
  const claimed = await deps.db
    .update(payments)
    .set({ checkedAt: now })
    .where(
      and(
        eq(payments.userId, user.id),
        eq(payments.status, "pending"),
        or(isNull(payments.checkedAt), lte(payments.checkedAt, new Date(now.getTime() - RETURN_VERIFY_EVERY_MS))),
      ),
    )
    .returning({ id: payments.id, reference: payments.reference, createdAt: payments.createdAt });
  const settled: Array<{ reference: string; status: PaymentStatus }> = [];
  for (const payment of claimed) {
    const outcome = await settlePayment(deps, payment, "learner-returned", now);
    if (outcome === "pending" || outcome === "unavailable") continue;
    const [row] = await deps.db.select({ status: payments.status }).from(payments).where(eq(payments.id, payment.id));
    if (row && row.status !== "pending") settled.push({ reference: payment.reference, status: row.status });
  }
  return { settled };
}
