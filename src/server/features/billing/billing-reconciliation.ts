// Reconciliation: a payment still pending 10 minutes after checkout is asked about at Paystack, so
// that a lost webhook and a closed tab do not leave a charged card with no plan, nor the Payments
// tab with "pending" rows forever (docs/subscriptions.md, "Reconciliation").
import { and, asc, eq, gt, inArray, lte } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.ts";
import { jobs, payments, refunds } from "../../db/schema.ts";
import type { PaystackClient } from "../../integrations/paystack.ts";
import { enqueueJob } from "../../jobs/queue.ts";
import type { Metrics } from "../../metrics/metrics.ts";
import { isRefundDue } from "./billing-refund-sweep.ts";
import { settlePayment, SETTLE_OUTCOMES, type SettleOutcome } from "./billing-settling.ts";

export const RECONCILE_JOB = "billing.reconcile-payments";
/** Younger payments are still in someone's checkout: their webhook and verify call may yet come. */
export const RECONCILE_AFTER_MS = 10 * 60_000;
export const RECONCILE_BATCH = 50;
/** Errors in a row after which Paystack counts as down: the rest wait for the next run. */
const GATEWAY_ERRORS_IN_A_ROW = 3;

export type ReconcileCounts = Record<SettleOutcome, number>;

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

/**
 * Asks Paystack (Verify transaction) about every payment pending for more than 10 minutes, a batch
 * at a time, and applies the answer through settlePayment: a success is credited; failed and
 * reversed close the payment; an unpaid (abandoned) one is closed as abandoned once an hour old,
 * and left pending before that. When Paystack does not answer, nothing changes; after a few such
 * errors in a row the rest wait for the next run.
 */
export async function reconcilePayments(deps: ReconcileDeps, now: Date): Promise<ReconcileCounts> {
  const counts = Object.fromEntries(SETTLE_OUTCOMES.map((outcome) => [outcome, 0])) as ReconcileCounts;
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
      const outcome = await settlePayment({ ...deps, paystack }, payment, "reconciliation", now);
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
