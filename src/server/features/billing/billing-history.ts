// The learner's own payments (docs/product.md, "Subscription page"): the history, a page at a
// time, and the receipt of each paid one. Only ever the signed-in learner's rows.
import { and, asc, count, desc, eq } from "drizzle-orm";
import {
  BILLING_MESSAGES,
  HISTORY_PAGE_SIZE,
  type OwnPayment,
  type PaymentHistory,
  type Receipt,
} from "../../../shared/contracts/billing.ts";
import { nextCohort } from "../../../shared/billing.ts";
import type { CurrentUser } from "../../auth/session.ts";
import type { Db } from "../../db/client.ts";
import type { Business } from "../../env.ts";
import { payments, refunds } from "../../db/schema.ts";
import { HttpError } from "../../plugins/errors.ts";

/** Paid (and credited) once: it has a receipt, refunded since or not. */
function hasReceipt(row: { status: string; creditedAt: Date | null }): boolean {
  return row.creditedAt !== null && (row.status === "success" || row.status === "refunded");
}

function learnerPayment(row: typeof payments.$inferSelect): OwnPayment {
  return {
    reference: row.reference,
    kind: row.kind,
    plan: row.plan,
    amountMinor: row.amountMinor,
    refundedMinor: row.refundedMinor,
    currency: row.currency,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    paidAt: row.paidAt?.toISOString() ?? null,
    hasReceipt: hasReceipt(row),
  };
}

/** The learner's payments, newest first, HISTORY_PAGE_SIZE a page (through payments_user_idx). */
export async function paymentHistory(db: Db, user: CurrentUser, page: number): Promise<PaymentHistory> {
  const mine = eq(payments.userId, user.id);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(payments)
      .where(mine)
      .orderBy(desc(payments.createdAt), desc(payments.id))
      .limit(HISTORY_PAGE_SIZE)
      .offset((page - 1) * HISTORY_PAGE_SIZE),
    db.select({ n: count() }).from(payments).where(mine),
  ]);
  return { page, pageSize: HISTORY_PAGE_SIZE, total: total?.n ?? 0, payments: rows.map(learnerPayment) };
}

/**
 * The receipt of one of the learner's paid payments. Someone else's reference, an unknown one and
 * a payment never paid all answer the same 404, so a reference tells nothing about other accounts.
 */
export async function paymentReceipt(db: Db, business: Business, user: CurrentUser, reference: string): Promise<Receipt> {
  const [payment] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.reference, reference), eq(payments.userId, user.id)));
  if (!payment || !hasReceipt(payment)) throw new HttpError(404, "RECEIPT_NOT_FOUND", BILLING_MESSAGES.receiptNotFound);
  return receiptOf(db, business, payment, user.name);
}

/**
 * A paid payment's receipt, as its page shows it and the receipt email says it
 * (docs/subscriptions.md, "Receipts").
 */
export async function receiptOf(db: Db, business: Business, payment: typeof payments.$inferSelect, name: string): Promise<Receipt> {
  const given = await db
    .select({
      amountMinor: refunds.amountMinor,
      status: refunds.status,
      createdAt: refunds.createdAt,
      processedAt: refunds.processedAt,
    })
    .from(refunds)
    .where(eq(refunds.paymentId, payment.id))
    .orderBy(asc(refunds.createdAt));
  return {
    ...learnerPayment(payment),
    business,
    name,
    email: payment.userEmail,
    priceUsdCents: payment.priceUsdCents,
    exchangeRate: payment.exchangeRate,
    method: payment.methodChannel
      ? { channel: payment.methodChannel, brand: payment.methodBrand, number: payment.methodNumber }
      : null,
    periodStart: payment.periodStart?.toISOString() ?? null,
    periodEnd: payment.periodEnd?.toISOString() ?? null,
    // The place is in the cohort after the day it was credited (docs/subscriptions.md, "Cohorts").
    cohort: payment.kind === "waitlist" && payment.creditedAt ? nextCohort(payment.creditedAt).name : null,
    // A refund Paystack refused or could not complete gave nothing back: not on the receipt.
    refunds: given
      .filter((refund) => refund.status !== "failed")
      .map((refund) => ({
        amountMinor: refund.amountMinor,
        status: refund.status,
        createdAt: refund.createdAt.toISOString(),
        processedAt: refund.processedAt?.toISOString() ?? null,
      })),
  };
}
