// Crediting: a payment is credited exactly once, only after Paystack confirms it, whether the
// browser's verify call or a webhook brings the news.
import { eq, sql } from "drizzle-orm";
import { nextCohort } from "../../../shared/billing.ts";
import { ensureCohort } from "../cohorts/cohorts.seam.ts";
import { BILLING_MESSAGES } from "../../../shared/contracts/billing.ts";
import type { CurrentUser } from "../../auth/session.ts";
import { auditLog, cardAuthorizations, payments, users, waitlist } from "../../db/schema.ts";
import { paymentMethodOf, transactionForLog, type PaymentMethod, type PaystackTransaction, type VerifiedTransaction } from "../../integrations/paystack.ts";
import type { Tx } from "../../db/client.ts";
import { enqueueJob } from "../../jobs/queue.ts";
import { HttpError } from "../../plugins/errors.ts";
import { addPaidMonth, paidMonthOf, periodOf } from "../users/users.seam.ts";
import type { BillingDeps, Kind } from "./billing.service.ts";

export const RECEIPT_JOB = "billing.receipt";
export type CreditResult =
  | { outcome: "credited" | "already-credited"; payment: typeof payments.$inferSelect; periodEnd: Date | null }
  | { outcome: "not-paid" | "mismatch" | "unknown" };

const TERMINAL_FAILURES = new Set(["failed", "reversed"]);
// A payment not credited yet may still be: a declined attempt can be paid on retry, and a
// checkout closed as abandoned can be paid late. Reversed, refunded and mismatched are final.
const CREDITABLE = new Set(["pending", "failed", "abandoned"]);

/** Whether Paystack's news about this payment could still credit it. */
export function mayStillBeCredited(payment: Pick<typeof payments.$inferSelect, "status" | "creditedAt">): boolean {
  return payment.creditedAt === null && CREDITABLE.has(payment.status);
}

/**
 * Paystack's transaction is the payment stored: the amount and currency it was created with, paid
 * by the account that started the checkout. A deleted account's payment has lost its email: the
 * amount and currency alone decide (docs/accounts.md, "Deleting an account").
 */
function matchesPayment(transaction: PaystackTransaction, payment: typeof payments.$inferSelect): boolean {
  if (transaction.amount !== payment.amountMinor || transaction.currency !== payment.currency) return false;
  if (payment.userId === null) return true;
  return transaction.customer?.email.toLowerCase() === payment.userEmail.toLowerCase();
}

/**
 * Keeps the card this learner just paid with, as Paystack's Verify reported it, for automatic renewal
 * (docs/subscriptions.md, "Automatic renewal"). A card Paystack marks not reusable turns automatic
 * renewal off: it could not be charged. Mobile money is never kept: it cannot be charged again.
 */
async function rememberCard(tx: Tx, userId: string, transaction: VerifiedTransaction, method: PaymentMethod | null) {
  const authorization = transaction.authorization;
  const code = authorization?.authorization_code;
  if (authorization?.channel !== "card" || !code) return;
  const card = {
    authorizationCode: code,
    email: transaction.customer?.email ?? "",
    brand: method?.methodBrand ?? null,
    last4: method?.methodNumber ?? null,
    reusable: authorization.reusable === true,
  };
  if (!card.email) return;
  await tx.insert(cardAuthorizations).values({ userId, ...card }).onConflictDoUpdate({ target: cardAuthorizations.userId, set: card });
  if (!card.reusable) await tx.update(users).set({ autoRenew: false }).where(eq(users.id, userId));
}

/**
 * Credits a payment once Paystack says it succeeded, in one transaction: the payment row, the
 * user's plan or waitlist place, the audit entry and the receipt job. The payment row is locked,
 * so a verify call, the browser callback and webhooks arriving together credit exactly once.
 * Only the answer of the server's own call to Verify is taken: a webhook only says when to ask
 * (docs/subscriptions.md, "Asking Paystack").
 */
export async function creditPayment(
  deps: Pick<BillingDeps, "db"> & { metrics: Pick<BillingDeps["metrics"], "paymentCredited"> },
  transaction: VerifiedTransaction,
  now: Date,
): Promise<CreditResult> {
  const result = await deps.db.transaction(async (tx): Promise<CreditResult> => {
    const [payment] = await tx.select().from(payments).where(eq(payments.reference, transaction.reference)).for("update");
    if (!payment) return { outcome: "unknown" as const };
    // Credited once, whatever happened to it since (a refund): a replayed webhook credits nothing.
    if (payment.creditedAt !== null || payment.status === "success") {
      const [owner] = payment.userId
        ? await tx.select({ end: users.subscriptionEnd }).from(users).where(eq(users.id, payment.userId))
        : [];
      return { outcome: "already-credited" as const, payment, periodEnd: owner?.end ?? null };
    }
    if (payment.status === "mismatched") return { outcome: "mismatch" as const };
    if (!CREDITABLE.has(payment.status)) return { outcome: "not-paid" as const };
    if (transaction.status !== "success") {
      if (TERMINAL_FAILURES.has(transaction.status)) {
        await tx.update(payments).set({ status: transaction.status === "reversed" ? "reversed" : "failed" }).where(eq(payments.id, payment.id));
      }
      return { outcome: "not-paid" as const };
    }
    if (!matchesPayment(transaction, payment)) {
      // Never credited, and kept out of the pending work: an administrator looks at it
      // (docs/subscriptions.md, "Payments are real").
      await tx.update(payments).set({ status: "mismatched" }).where(eq(payments.id, payment.id));
      return { outcome: "mismatch" as const };
    }

    const paidAt = transaction.paid_at ? new Date(transaction.paid_at) : now;
    // How it was paid, as Paystack verified it, for the receipt (docs/subscriptions.md, "Receipts").
    const method = paymentMethodOf(transaction);
    const [credited] = await tx
      .update(payments)
      .set({ status: "success", paidAt, creditedAt: now, ...method })
      .where(eq(payments.id, payment.id))
      .returning();
    if (!credited) throw new Error(`payment ${payment.reference} vanished`);
    // The account was deleted while the charge was in flight: the money is recorded as received,
    // for an administrator to refund; there is nobody to credit (docs/accounts.md).
    if (payment.userId === null) return { outcome: "already-credited" as const, payment: credited, periodEnd: null };
    const [user] = await tx.select().from(users).where(eq(users.id, payment.userId)).for("update");
    if (!user) throw new Error(`payment ${payment.reference} has no user`);
    await rememberCard(tx, user.id, transaction, method);

    let periodEnd: Date | null = null;
    let changes: Record<string, unknown>;
    if (payment.kind === "subscription") {
      const next = addPaidMonth(user, payment.plan, now);
      periodEnd = next.subscriptionEnd;
      await tx.update(users).set(next).where(eq(users.id, user.id));
      const month = paidMonthOf(user, payment.plan, now);
      if (month) await tx.update(payments).set({ periodStart: month.start, periodEnd: month.end }).where(eq(payments.id, payment.id));
      changes = { from: periodOf(user), to: periodOf(next) };
    } else {
      const next = nextCohort(now);
      const cohort = next.name;
      await ensureCohort(tx, next);
      // The paid flags record waitlist purchases (the spec's userPayments), not subscriptions.
      const paidFlag = payment.plan === "advanced" ? { advancedPaid: true } : { intermediatePaid: true };
      await tx.update(users).set({ waitlistPaid: true, ...paidFlag }).where(eq(users.id, user.id));
      await tx
        .insert(waitlist)
        .values({ userId: user.id, plan: payment.plan, paymentReference: payment.reference, cohort })
        .onConflictDoUpdate({
          target: waitlist.userId,
          // A second track upgrades the entry to the higher one.
          set: { plan: sql`case when excluded.plan = 'advanced' then 'advanced'::paid_plan else ${waitlist.plan} end` },
        });
      changes = { waitlist: { plan: payment.plan, cohort } };
    }
    await tx.insert(auditLog).values({
      actorId: null,
      subjectUserId: user.id,
      action: payment.kind === "subscription" ? "payment.credited" : "waitlist.paid",
      reason: `payment ${payment.reference}`,
      changes,
    });
    await enqueueJob(tx, RECEIPT_JOB, { reference: payment.reference });
    return { outcome: "credited" as const, payment: credited, periodEnd };
  });
  // Counted once committed: a replay finds the payment already credited and counts nothing.
  if (result.outcome === "credited") deps.metrics.paymentCredited(result.payment);
  return result;
}

/** The browser's check after checkout: the caller's own reference, confirmed with Paystack. */
export async function verifyAndCredit(
  deps: BillingDeps,
  user: CurrentUser,
  reference: string,
  expectedKind: Kind | null,
  now: Date,
): Promise<Extract<CreditResult, { payment: unknown }>> {
  if (!deps.paystack) throw new HttpError(503, "PAYMENTS_DISABLED", BILLING_MESSAGES.serviceUnavailable);
  const [payment] = await deps.db.select().from(payments).where(eq(payments.reference, reference));
  if (!payment || payment.userId !== user.id) throw new HttpError(404, "PAYMENT_NOT_FOUND", BILLING_MESSAGES.notYourPayment);
  if (expectedKind && payment.kind !== expectedKind) throw new HttpError(400, "WRONG_KIND", BILLING_MESSAGES.verificationFailed);

  const transaction = await deps.paystack.verify(reference).catch((error: unknown) => {
    deps.log.error({ err: error, reference }, "paystack verify failed");
    throw new HttpError(502, "VERIFY_UNAVAILABLE", BILLING_MESSAGES.verifyFailed);
  });
  if (!transaction) throw new HttpError(404, "PAYMENT_NOT_FOUND", BILLING_MESSAGES.verificationFailed);
  const result = await creditPayment(deps, transaction, now);
  if (result.outcome === "credited" || result.outcome === "already-credited") return result;
  if (result.outcome === "mismatch") {
    deps.log.error({ reference, transaction: transactionForLog(transaction) }, "paystack transaction does not match the stored payment");
    throw new HttpError(409, "PAYMENT_MISMATCH", BILLING_MESSAGES.mismatch);
  }
  throw new HttpError(402, "PAYMENT_NOT_SUCCESSFUL", BILLING_MESSAGES.notPaid);
}
