// Reconciliation: a payment still pending 10 minutes after checkout is asked about at Paystack, so
// that a lost webhook and a closed tab do not leave a charged card with no plan, nor the Payments
// tab with "pending" rows forever (docs/subscriptions.md, "Reconciliation").
import { and, asc, eq, gt, inArray, lte } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.ts";
import { jobs, payments, refunds } from "../../db/schema.ts";
import type { PaystackClient, PaystackTransaction } from "../../integrations/paystack.ts";
import { enqueueJob } from "../../jobs/queue.ts";
import type { Metrics } from "../../metrics/metrics.ts";
import { creditPayment } from "./billing-crediting.ts";
import { isRefundDue } from "./billing-refund-sweep.ts";

export const RECONCILE_JOB = "billing.reconcile-payments";
/** Younger payments are still in someone's checkout: their webhook and verify call may yet come. */
export const RECONCILE_AFTER_MS = 10 * 60_000;
/** An unpaid checkout this old is closed as abandoned (a later payment still credits it). */
export const ABANDON_AFTER_MS = 60 * 60_000;
export const RECONCILE_BATCH = 50;
/** Errors in a row after which Paystack counts as down: the rest wait for the next run. */
const GATEWAY_ERRORS_IN_A_ROW = 3;

export const RECONCILE_OUTCOMES = [
  "credited",
  "already-credited",
  "failed",
  "reversed",
  "abandoned",
  "pending",
  "mismatch",
  "unavailable",
] as const;
export type ReconcileOutcome = (typeof RECONCILE_OUTCOMES)[number];
export type ReconcileCounts = Record<ReconcileOutcome, number>;

export type ReconcileDeps = {
  db: Db;
  paystack: PaystackClient | null;
  metrics: Pick<Metrics, "paymentCredited" | "paymentReconciled" | "refundReconciled">;
  log: { warn(details: object, message: string): void; error(details: object, message: string): void };
};

type PendingPayment = { id: string; reference: string; createdAt: Date };

const isDue = (now: Date) =>
  and(eq(payments.status, "pending"), lte(payments.createdAt, new Date(now.getTime() - RECONCILE_AFTER_MS)));

/**
 * The schedule's part, inside its transaction: queues one reconciliation run when a payment or a
 * refund is due (billing-refund-sweep.ts) and no run is waiting or under way. The run is a job, so Paystack is never asked while the
 * schedule's transaction and lock are held.
 */
export async function queueReconciliation(tx: Tx, now: Date): Promise<boolean> {
  const [duePayment] = await tx.select({ id: payments.id }).from(payments).where(isDue(now)).limit(1);
  const [dueRefund] = duePayment ? [] : await tx.select({ id: refunds.id }).from(refunds).where(isRefundDue(now)).limit(1);
  if (!duePayment && !dueRefund) return false;
  const [queued] = await tx
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(eq(jobs.kind, RECONCILE_JOB), inArray(jobs.status, ["pending", "running"])))
    .limit(1);
  if (queued) return false;
  await enqueueJob(tx, RECONCILE_JOB, { queuedAt: now.toISOString() });
  return true;
}

/** How Paystack's answer closes a pending payment, or null to leave it pending. */
function closingStatus(transaction: PaystackTransaction | null, payment: PendingPayment, now: Date) {
  const old = now.getTime() - payment.createdAt.getTime() >= ABANDON_AFTER_MS;
  // Unknown to Paystack: the checkout never reached it, so nobody can have paid.
  if (transaction === null) return old ? "abandoned" : null;
  if (transaction.status === "failed" || transaction.status === "reversed") return transaction.status;
  // Paystack reports a transaction nobody has paid (yet) as abandoned.
  if (transaction.status === "abandoned" && old) return "abandoned";
  return null;
}

async function reconcileOne(deps: ReconcileDeps & { paystack: PaystackClient }, payment: PendingPayment, now: Date): Promise<ReconcileOutcome> {
  const { db, paystack, log } = deps;
  let transaction: PaystackTransaction | null;
  try {
    transaction = await paystack.verify(payment.reference);
  } catch (error) {
    // Nothing is changed: the payment is asked about again at the next run.
    log.warn({ err: error, reference: payment.reference }, "reconciliation: Paystack did not answer");
    return "unavailable";
  }
  const thisPayment = eq(payments.id, payment.id);
  if (transaction?.status === "success") {
    // The one crediting path, as the webhook and the browser's verify use: exactly once.
    const result = await creditPayment(deps, transaction, now);
    await db.update(payments).set({ checkedAt: now }).where(thisPayment);
    if (result.outcome === "credited" || result.outcome === "already-credited") return result.outcome;
    if (result.outcome === "mismatch") {
      log.error({ reference: payment.reference, transaction }, "reconciliation: the Paystack transaction does not match the stored payment");
      return "mismatch";
    }
    return "pending";
  }
  const status = closingStatus(transaction, payment, now);
  // Only a payment still pending is closed: a webhook may have credited it since it was read.
  await db
    .update(payments)
    .set(status ? { status, checkedAt: now } : { checkedAt: now })
    .where(status ? and(thisPayment, eq(payments.status, "pending")) : thisPayment);
  return status ?? "pending";
}

/**
 * Asks Paystack (Verify transaction) about every payment pending for more than 10 minutes, a batch
 * at a time, and applies the answer: a success is credited through creditPayment; failed and
 * reversed close the payment; an unpaid (abandoned) one is closed as abandoned once an hour old,
 * and left pending before that. No transaction is open while Paystack is asked. When Paystack does
 * not answer, nothing changes; after a few such errors in a row the rest wait for the next run.
 */
export async function reconcilePayments(deps: ReconcileDeps, now: Date): Promise<ReconcileCounts> {
  const counts = Object.fromEntries(RECONCILE_OUTCOMES.map((outcome) => [outcome, 0])) as ReconcileCounts;
  const { paystack } = deps;
  if (!paystack) return counts;
  let errorsInARow = 0;
  let after: string | null = null;
  for (;;) {
    // Keyset by id: a payment left pending is not read again in this run.
    const batch: PendingPayment[] = await deps.db
      .select({ id: payments.id, reference: payments.reference, createdAt: payments.createdAt })
      .from(payments)
      .where(after === null ? isDue(now) : and(isDue(now), gt(payments.id, after)))
      .orderBy(asc(payments.id))
      .limit(RECONCILE_BATCH);
    for (const payment of batch) {
      const outcome = await reconcileOne({ ...deps, paystack }, payment, now);
      counts[outcome]++;
      deps.metrics.paymentReconciled(outcome);
      errorsInARow = outcome === "unavailable" ? errorsInARow + 1 : 0;
      if (errorsInARow >= GATEWAY_ERRORS_IN_A_ROW) return counts;
    }
    const last = batch.at(-1);
    if (!last || batch.length < RECONCILE_BATCH) return counts;
    after = last.id;
  }
}
