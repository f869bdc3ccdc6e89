// Refunds (docs/subscriptions.md, "Refunds"): an administrator gives back a successful payment
// through Paystack, or Paystack tells us of a refund started elsewhere (its dashboard). Either
// way the money, the time the payment bought, the learner's email and the audit entry change
// together, in one transaction.
import { max } from "date-fns/max";
import { subMonths } from "date-fns/subMonths";
import { and, asc, desc, eq, gt, isNull } from "drizzle-orm";
import { BILLING_MESSAGES } from "../../../shared/contracts/billing.ts";
import { paidTime, type PaidPlan } from "../../../shared/plans.ts";
import type { Tx } from "../../db/client.ts";
import { auditLog, payments, refunds, users, waitlist } from "../../db/schema.ts";
import { PaystackError, type PaystackRefund, type RefundWebhookEvent } from "../../integrations/paystack.ts";
import { enqueueJob } from "../../jobs/queue.ts";
import { HttpError } from "../../plugins/errors.ts";
import { cancelMentorshipWithoutAdvanced } from "../support/support.seam.ts";
import { periodOf, type SubscriptionState } from "../users/users.seam.ts";
import type { BillingDeps } from "./billing.service.ts";

export const REFUND_JOB = "billing.refund";

/**
 * A refund row still waiting for Paystack's first answer blocks another refund of the payment
 * for this long; Paystack answers in seconds, so an older one was left by a crash, and Paystack
 * itself refuses a refund of more than is left of a transaction.
 */
export const IN_FLIGHT_MS = 10 * 60_000;

type Payment = typeof payments.$inferSelect;
type Refund = typeof refunds.$inferSelect;

/** What a refund took back besides the money; the refund email says it. */
export type TimeTaken = "current" | "queued" | "waitlist" | "nothing";

/**
 * A paid month of `plan` taken back from what the learner holds, as far as it is not used up
 * (docs/subscriptions.md, "Refunds"). The current plan's end moves back a month, never before
 * now, and the time queued after it moves back as much; ending now, the period ends as the expiry
 * would end it (the queued plan starts, or the plan expires). The queued plan's end moves back a
 * month, the queue gone once it reaches the current end. Time already used up takes nothing.
 */
export function withoutPaidMonth(user: SubscriptionState, plan: PaidPlan, now: Date): { next: SubscriptionState; taken: TimeTaken } {
  // As the expiry would see it: once the current period is over, the queued time is current.
  const { current, queued } = paidTime(user, now);
  if (!current) return { next: user, taken: "nothing" };
  const holding = {
    subscriptionPlan: current.plan,
    subscriptionStatus: "active" as const,
    subscriptionStart: current.start,
    subscriptionEnd: current.end,
  };
  if (current.plan === plan) {
    const end = max([now, subMonths(current.end, 1)]);
    const shift = current.end.getTime() - end.getTime();
    const queuedEnd = queued ? new Date(queued.end.getTime() - shift) : null;
    if (end.getTime() > now.getTime()) {
      return { next: { ...holding, subscriptionEnd: end, queuedPlan: queued?.plan ?? null, queuedEnd }, taken: "current" };
    }
    const next: SubscriptionState =
      queued && queuedEnd
        ? { subscriptionPlan: queued.plan, subscriptionStatus: "active", subscriptionStart: now, subscriptionEnd: queuedEnd, queuedPlan: null, queuedEnd: null }
        : { ...holding, subscriptionStatus: "expired", subscriptionEnd: now, queuedPlan: null, queuedEnd: null };
    return { next, taken: "current" };
  }
  if (queued?.plan === plan) {
    const queuedEnd = subMonths(queued.end, 1);
    const stays = queuedEnd.getTime() > current.end.getTime();
    return { next: { ...holding, queuedPlan: stays ? plan : null, queuedEnd: stays ? queuedEnd : null }, taken: "queued" };
  }
  return { next: user, taken: "nothing" };
}


/**
 * The waitlist place a refunded waitlist payment bought, given up unless the learner was admitted
 * already. A learner who paid for both tracks keeps the place of the other one.
 */
async function releaseWaitlistPlace(tx: Tx, payment: Payment): Promise<Record<string, unknown> | null> {
  if (payment.userId === null) return null; // a deleted account holds no place
  const [user] = await tx.select().from(users).where(eq(users.id, payment.userId)).for("update");
  const [entry] = await tx.select().from(waitlist).where(eq(waitlist.userId, payment.userId)).for("update");
  if (!user || user.waitlistAdmitted || entry?.admitted) return null;
  const other: PaidPlan = payment.plan === "advanced" ? "intermediate" : "advanced";
  const otherPaid = other === "advanced" ? user.advancedPaid : user.intermediatePaid;
  const flag = payment.plan === "advanced" ? { advancedPaid: false } : { intermediatePaid: false };
  if (!otherPaid) {
    await tx.update(users).set({ ...flag, waitlistPaid: false }).where(eq(users.id, user.id));
    if (entry) await tx.delete(waitlist).where(eq(waitlist.userId, user.id));
    return { waitlist: { from: entry?.plan ?? payment.plan, to: null } };
  }
  // The place now rests on the other track's payment.
  const [otherPayment] = await tx
    .select({ reference: payments.reference })
    .from(payments)
    .where(and(eq(payments.userId, user.id), eq(payments.kind, "waitlist"), eq(payments.plan, other), eq(payments.status, "success")))
    .orderBy(desc(payments.createdAt))
    .limit(1);
  await tx.update(users).set(flag).where(eq(users.id, user.id));
  if (entry) {
    await tx
      .update(waitlist)
      .set({ plan: other, paymentReference: otherPayment?.reference ?? entry.paymentReference })
      .where(eq(waitlist.userId, user.id));
  }
  return { waitlist: { from: entry?.plan ?? payment.plan, to: other } };
}

/**
 * Counts a refund Paystack accepted: the payment's refunded amount (refunded once it is all), the
 * time it bought when it is refunded whole, the audit entry and the learner's email. The payment
 * row is locked by the caller.
 */
async function applyRefund(tx: Tx, payment: Payment, refund: Refund, now: Date): Promise<Payment> {
  const refundedMinor = Math.min(payment.amountMinor, payment.refundedMinor + refund.amountMinor);
  const whole = refundedMinor === payment.amountMinor;
  const [updated] = await tx
    .update(payments)
    .set({ refundedMinor, status: whole ? "refunded" : payment.status })
    .where(eq(payments.id, payment.id))
    .returning();
  if (!updated) throw new Error(`payment ${payment.reference} vanished`);

  let taken: TimeTaken = "nothing";
  let changes: Record<string, unknown> = {};
  if (whole && payment.kind === "subscription" && payment.userId !== null) {
    const [user] = await tx.select().from(users).where(eq(users.id, payment.userId)).for("update");
    if (user) {
      const result = withoutPaidMonth(user, payment.plan, now);
      taken = result.taken;
      if (taken !== "nothing") {
        await tx.update(users).set(result.next).where(eq(users.id, user.id));
        changes = { from: periodOf(user), to: periodOf(result.next) };
        // Mentorship needs Advanced: the time taken back may take it (docs/product.md).
        await cancelMentorshipWithoutAdvanced(tx, { userId: user.id, after: result.next, now, why: "refund", actorId: refund.actorId });
      }
    }
  } else if (whole) {
    const released = await releaseWaitlistPlace(tx, payment);
    if (released) {
      taken = "waitlist";
      changes = released;
    }
  }
  await tx.insert(auditLog).values({
    actorId: refund.actorId,
    subjectUserId: payment.userId,
    action: "payment.refunded",
    reason: [`refund of payment ${payment.reference}`, refund.reason].filter(Boolean).join(": "),
    changes: { refund: { amountMinor: refund.amountMinor, refundedMinor, status: updated.status }, ...changes },
  });
  await enqueueJob(tx, REFUND_JOB, { refundId: refund.id, taken });
  return updated;
}

/** A refund Paystack could not complete after all: the money is counted as ours again. */
async function revertRefund(tx: Tx, payment: Payment, refund: Refund) {
  const refundedMinor = Math.max(0, payment.refundedMinor - refund.amountMinor);
  await tx
    .update(payments)
    .set({ refundedMinor, status: payment.status === "refunded" ? "success" : payment.status })
    .where(eq(payments.id, payment.id));
  await tx.insert(auditLog).values({
    actorId: null,
    subjectUserId: payment.userId,
    action: "payment.refund-failed",
    reason: `Paystack could not complete the refund of payment ${payment.reference}; any time it removed is not given back`,
    changes: { refund: { amountMinor: refund.amountMinor, refundedMinor } },
  });
}

/** Counted once Paystack has accepted it (it has Paystack's id) or processed it. */
function isCounted(refund: Refund): boolean {
  return refund.status === "processed" || (refund.status === "pending" && refund.gatewayId !== null);
}

async function lockPayment(tx: Tx, where: ReturnType<typeof eq>) {
  const [payment] = await tx.select().from(payments).where(where).for("update");
  return payment;
}

// ---- An administrator's refund --------------------------------------------------------------

export type RefundResult = { payment: Payment; refund: Refund };

/**
 * Refunds a successful payment (all that is left of it unless `amountMinor` says less). The
 * attempt is written first, as a pending refund, so a crash while Paystack answers leaves a trace;
 * Paystack is asked outside any transaction; what its yes changes is written in one transaction.
 * A refusal changes nothing but the attempt's status (failed).
 */
export async function refundPayment(
  deps: Pick<BillingDeps, "db" | "paystack" | "log">,
  input: { paymentId: string; amountMinor?: number | undefined; reason?: string | undefined; actorId: string },
  now: Date,
): Promise<RefundResult> {
  const { paystack } = deps;
  if (!paystack) throw new HttpError(503, "PAYMENTS_DISABLED", BILLING_MESSAGES.refundsUnavailable);

  const started = await deps.db.transaction(async (tx) => {
    const payment = await lockPayment(tx, eq(payments.id, input.paymentId));
    if (!payment) throw new HttpError(404, "PAYMENT_NOT_FOUND", BILLING_MESSAGES.refundPaymentNotFound);
    if (payment.status === "refunded") throw new HttpError(409, "ALREADY_REFUNDED", BILLING_MESSAGES.refundAlreadyRefunded);
    if (payment.status !== "success") throw new HttpError(409, "NOT_REFUNDABLE", BILLING_MESSAGES.refundNotSuccessful);
    const inFlight = await tx
      .select({ id: refunds.id })
      .from(refunds)
      .where(
        and(
          eq(refunds.paymentId, payment.id),
          eq(refunds.status, "pending"),
          isNull(refunds.gatewayId),
          gt(refunds.createdAt, new Date(now.getTime() - IN_FLIGHT_MS)),
        ),
      );
    if (inFlight.length > 0) throw new HttpError(409, "REFUND_IN_PROGRESS", BILLING_MESSAGES.refundInProgress);
    const left = payment.amountMinor - payment.refundedMinor;
    const amountMinor = input.amountMinor ?? left;
    if (amountMinor > left) throw new HttpError(422, "REFUND_TOO_LARGE", BILLING_MESSAGES.refundTooMuch(left));
    const [refund] = await tx
      .insert(refunds)
      .values({ paymentId: payment.id, amountMinor, actorId: input.actorId, reason: input.reason || null, createdAt: now })
      .returning();
    if (!refund) throw new Error("the refund row was not written");
    return { payment, refund };
  });

  let accepted: PaystackRefund;
  try {
    accepted = await paystack.refund({
      reference: started.payment.reference,
      amountMinor: started.refund.amountMinor,
      currency: "GHS",
      merchantNote: `Trading Academy refund ${started.refund.id}${input.reason ? `: ${input.reason}` : ""}`,
    });
  } catch (error) {
    const refused = error instanceof PaystackError && error.statusCode !== null && error.statusCode >= 400 && error.statusCode < 500;
    if (refused) {
      await deps.db.update(refunds).set({ status: "failed", processedAt: now }).where(eq(refunds.id, started.refund.id));
      deps.log.warn({ reference: started.payment.reference, err: error }, "Paystack refused a refund");
      throw new HttpError(409, "REFUND_REFUSED", BILLING_MESSAGES.refundRefused(error.message));
    }
    // Paystack may or may not have it: the pending row stays, for its webhook or an operator.
    deps.log.error({ reference: started.payment.reference, refundId: started.refund.id, err: error }, "refund outcome unknown");
    throw new HttpError(502, "REFUND_UNCERTAIN", BILLING_MESSAGES.refundUncertain);
  }

  const result = await deps.db.transaction(async (tx) => {
    const payment = await lockPayment(tx, eq(payments.id, started.payment.id));
    const [refund] = await tx.select().from(refunds).where(eq(refunds.id, started.refund.id));
    if (!payment || !refund) throw new Error(`refund ${started.refund.id} vanished`);
    // Paystack's webhook may have come first and counted it already.
    if (refund.status !== "pending" || refund.gatewayId !== null) return { payment, refund };
    const processed = accepted.status === "processed";
    const [marked] = await tx
      .update(refunds)
      .set({ gatewayId: accepted.id, status: processed ? "processed" : "pending", processedAt: processed ? now : null })
      .where(eq(refunds.id, refund.id))
      .returning();
    if (!marked) throw new Error(`refund ${refund.id} vanished`);
    return { payment: await applyRefund(tx, payment, marked, now), refund: marked };
  });
  // Paystack's refund.failed overtook its own yes: nothing was given back.
  if (result.refund.status === "failed") {
    throw new HttpError(409, "REFUND_REFUSED", BILLING_MESSAGES.refundRefused("the refund failed at Paystack"));
  }
  return result;
}

// ---- Paystack's refund webhooks -------------------------------------------------------------

type RefundEventData = RefundWebhookEvent["data"];
const OUTCOMES = { "refund.pending": "pending", "refund.processed": "processed", "refund.failed": "failed" } as const;

/**
 * Which of our refunds an event is about: by Paystack's id or the processor's reference when it
 * carries them, else the oldest pending refund of that amount (Paystack's own events often carry
 * neither id), else one already in the state the event reports (a repeated delivery).
 */
async function findRefund(tx: Tx, paymentId: string, data: RefundEventData, outcome: Refund["status"]): Promise<Refund | undefined> {
  for (const key of [data.id, data.refund_reference]) {
    if (!key) continue;
    const [byKey] = await tx.select().from(refunds).where(and(eq(refunds.gatewayId, key), eq(refunds.paymentId, paymentId)));
    if (byKey) return byKey;
  }
  for (const status of outcome === "pending" ? (["pending"] as const) : (["pending", outcome] as const)) {
    const [byAmount] = await tx
      .select()
      .from(refunds)
      .where(and(eq(refunds.paymentId, paymentId), eq(refunds.amountMinor, data.amount), eq(refunds.status, status)))
      .orderBy(asc(refunds.createdAt))
      .limit(1);
    if (byAmount) return byAmount;
  }
  return undefined;
}

/**
 * refund.pending, refund.processed and refund.failed, for a refund started here or elsewhere.
 * Paystack repeats events until answered: each changes things once.
 */
export async function handleRefundEvent(
  deps: Pick<BillingDeps, "db"> & { log: { warn(details: object, message: string): void; error(details: object, message: string): void } },
  event: RefundWebhookEvent,
  now: Date,
): Promise<"counted" | "updated" | "ignored"> {
  const { data } = event;
  const outcome = OUTCOMES[event.event];
  return deps.db.transaction(async (tx) => {
    const payment = await lockPayment(tx, eq(payments.reference, data.transaction_reference));
    if (!payment) {
      deps.log.warn({ reference: data.transaction_reference }, "refund event for an unknown payment");
      return "ignored";
    }
    const key = data.id ?? data.refund_reference ?? `${payment.reference}:${data.amount}`;
    const refund = await findRefund(tx, payment.id, data, outcome);

    if (!refund) {
      // Started elsewhere (the Paystack dashboard). A pending one is counted when it is processed.
      if (outcome === "pending") return "ignored";
      const left = payment.amountMinor - payment.refundedMinor;
      const countable = outcome === "processed" && payment.status === "success" && left > 0;
      if (outcome === "processed" && !countable) {
        deps.log.error({ reference: payment.reference, amount: data.amount }, "refund event for a payment with nothing left to refund");
      }
      const [created] = await tx
        .insert(refunds)
        .values({
          paymentId: payment.id,
          amountMinor: countable ? Math.min(data.amount, left) : data.amount,
          status: outcome,
          gatewayId: key,
          actorId: null,
          reason: "started outside Trading Academy",
          createdAt: now,
          processedAt: now,
        })
        .onConflictDoNothing()
        .returning();
      if (!created || !countable) return created ? "updated" : "ignored";
      await applyRefund(tx, payment, created, now);
      return "counted";
    }

    const counted = isCounted(refund);
    // Failed is final; anything else happens once (a pending event only counts a refund whose
    // own answer from Paystack never arrived, after a crash).
    if (refund.status === "failed" || (refund.status === outcome && (outcome !== "pending" || counted))) return "ignored";
    const gatewayId = refund.gatewayId ?? key;
    if (outcome === "failed") {
      if (counted) await revertRefund(tx, payment, refund);
      await tx.update(refunds).set({ status: "failed", gatewayId, processedAt: now }).where(eq(refunds.id, refund.id));
      return "updated";
    }
    // Pending or processed: counted now if it was not yet.
    const [marked] = await tx
      .update(refunds)
      .set(outcome === "processed" ? { status: "processed", gatewayId, processedAt: now } : { gatewayId })
      .where(eq(refunds.id, refund.id))
      .returning();
    if (!counted && marked) {
      await applyRefund(tx, payment, marked, now);
      return "counted";
    }
    return "updated";
  });
}
