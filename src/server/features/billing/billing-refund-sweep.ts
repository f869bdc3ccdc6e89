// Refunds left pending (docs/subscriptions.md, "Refunds"): Paystack's refund webhook can be lost
// like any other, and a refund request that timed out may or may not have reached Paystack.
// Reconciliation asks Paystack about each one and settles it as the webhook would.
import { and, asc, eq, isNull, lte } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { payments, refunds } from "../../db/schema.ts";
import type { PaystackClient, PaystackStoredRefund } from "../../integrations/paystack.ts";
import { handleRefundEvent, IN_FLIGHT_MS } from "./billing-refunds.ts";

export const REFUND_SWEEP_OUTCOMES = ["counted", "updated", "pending", "never-reached", "unavailable"] as const;
export type RefundSweepOutcome = (typeof REFUND_SWEEP_OUTCOMES)[number];
export type RefundSweepCounts = Record<RefundSweepOutcome, number>;

const SWEEP_BATCH = 50;
const SETTLED = new Set(["pending", "processed", "failed"]);

type PendingRefund = { id: string; gatewayId: string | null; amountMinor: number; createdAt: Date; reference: string };

export type RefundSweepDeps = {
  db: Db;
  paystack: PaystackClient | null;
  log: { warn(details: object, message: string): void; error(details: object, message: string): void };
  metrics: { refundReconciled(outcome: RefundSweepOutcome): void };
};

/** Pending refunds older than a request to Paystack can take: their answer or webhook went astray. */
export const isRefundDue = (now: Date) =>
  and(eq(refunds.status, "pending"), lte(refunds.createdAt, new Date(now.getTime() - IN_FLIGHT_MS)));

/**
 * Paystack's record of one of our refunds: by its id once Paystack gave one; else among the
 * refunds Paystack created around that moment, by the transaction, the amount and the merchant
 * note naming our refund (billing-refunds.ts writes it).
 */
async function findAtPaystack(paystack: PaystackClient, refund: PendingRefund, now: Date): Promise<PaystackStoredRefund | null> {
  if (refund.gatewayId !== null) return paystack.fetchRefund(refund.gatewayId);
  // From a minute before our request (clocks differ) to now.
  const listed = await paystack.listRefunds({ from: new Date(refund.createdAt.getTime() - 60_000), to: now });
  return (
    listed.find(
      (candidate) =>
        candidate.transaction_reference === refund.reference &&
        candidate.amount === refund.amountMinor &&
        (candidate.merchant_note ?? "").includes(refund.id),
    ) ?? null
  );
}

async function sweepOne(deps: RefundSweepDeps & { paystack: PaystackClient }, refund: PendingRefund, now: Date): Promise<RefundSweepOutcome> {
  let found: PaystackStoredRefund | null;
  try {
    found = await findAtPaystack(deps.paystack, refund, now);
  } catch (error) {
    deps.log.warn({ err: error, refundId: refund.id }, "refund reconciliation: Paystack did not answer");
    return "unavailable";
  }
  if (found === null) {
    if (refund.gatewayId !== null) {
      deps.log.error({ refundId: refund.id, gatewayId: refund.gatewayId }, "refund reconciliation: Paystack does not know a refund it accepted");
      return "pending";
    }
    // Paystack never received it: nothing was given back, and the payment may be refunded again.
    const [closed] = await deps.db
      .update(refunds)
      .set({ status: "failed", processedAt: now })
      .where(and(eq(refunds.id, refund.id), eq(refunds.status, "pending"), isNull(refunds.gatewayId)))
      .returning({ id: refunds.id });
    if (closed) deps.log.warn({ refundId: refund.id, reference: refund.reference }, "refund reconciliation: the refund never reached Paystack");
    return closed ? "never-reached" : "pending";
  }
  if (!SETTLED.has(found.status)) return "pending"; // processing, needs-attention: Paystack is not done
  // Settled exactly as Paystack's own webhook would settle it.
  const outcome = await handleRefundEvent(
    deps,
    {
      event: `refund.${found.status as "pending" | "processed" | "failed"}`,
      data: {
        id: found.id,
        status: found.status,
        transaction_reference: refund.reference,
        refund_reference: found.bank_reference ?? null,
        amount: found.amount,
        currency: found.currency,
      },
    },
    now,
  );
  return outcome === "ignored" ? "pending" : outcome;
}

/**
 * Asks Paystack about every refund still pending after IN_FLIGHT_MS, oldest first, and settles it:
 * processed or failed as the webhook would, one Paystack accepted but whose answer was lost counted
 * as it would have been, and one Paystack never received closed as failed. When Paystack does not
 * answer, nothing changes and the rest wait for the next run.
 */
export async function sweepRefunds(deps: RefundSweepDeps, now: Date): Promise<RefundSweepCounts> {
  const counts = Object.fromEntries(REFUND_SWEEP_OUTCOMES.map((outcome) => [outcome, 0])) as RefundSweepCounts;
  const { paystack } = deps;
  if (!paystack) return counts;
  const due: PendingRefund[] = await deps.db
    .select({
      id: refunds.id,
      gatewayId: refunds.gatewayId,
      amountMinor: refunds.amountMinor,
      createdAt: refunds.createdAt,
      reference: payments.reference,
    })
    .from(refunds)
    .innerJoin(payments, eq(payments.id, refunds.paymentId))
    .where(isRefundDue(now))
    .orderBy(asc(refunds.createdAt))
    .limit(SWEEP_BATCH);
  for (const refund of due) {
    const outcome = await sweepOne({ ...deps, paystack }, refund, now);
    counts[outcome]++;
    deps.metrics.refundReconciled(outcome);
    if (outcome === "unavailable") return counts;
  }
  return counts;
}
