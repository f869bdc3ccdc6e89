// Automatic renewal (docs/subscriptions.md, "Automatic renewal"): a card payer who chose it is
// charged on the day their period ends, through Paystack's Charge Authorization, once across
// instances and restarts (docs/decisions/019-automatic-renewal-claimed-once.md), and credited by
// the same crediting as any payment.
import { randomUUID } from "node:crypto";
import { addDays } from "date-fns/addDays";
import { and, desc, eq, exists, gte, inArray, isNull, lt, or } from "drizzle-orm";
import { z } from "zod";
import { autoRenewalConsentText, AUTO_RENEWAL_MESSAGES, type AutoRenewal } from "../../../shared/contracts/billing.ts";
import { isPaidPlan, PAID_PLANS, paidTime, type PaidPlan } from "../../../shared/plans.ts";
import type { CurrentUser } from "../../auth/session.ts";
import type { Tx } from "../../db/client.ts";
import { cardAuthorizations, payments, renewalCharges, users } from "../../db/schema.ts";
import { PaystackError, type VerifiedTransaction } from "../../integrations/paystack.ts";
import { enqueueJob } from "../../jobs/queue.ts";
import type { Metrics } from "../../metrics/metrics.ts";
import { HttpError } from "../../plugins/errors.ts";
import { creditPayment } from "./billing-crediting.ts";
import { loadPriceBook, quote } from "./billing-pricing.ts";
import type { BillingDeps } from "./billing.service.ts";

export const AUTO_RENEW_JOB = "billing.auto-renew";
export const AUTO_RENEWAL_FAILED_JOB = "billing.auto-renewal-failed";
export const AUTO_RENEWAL_OUTCOMES = ["success", "failed", "unavailable", "pending", "cancelled"] as const;
export type AutoRenewalOutcome = (typeof AUTO_RENEWAL_OUTCOMES)[number];

export type AutoRenewDeps = BillingDeps & { metrics: BillingDeps["metrics"] & Pick<Metrics, "autoRenewal"> };

const UNREACHABLE = "Paystack, our payment provider, could not be reached to charge your card.";

/** The UTC day of `now`: charges are due on the day a period ends (docs/subscriptions.md). */
function utcDay(now: Date): { start: Date; end: Date } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  return { start, end: new Date(start.getTime() + 86_400_000) };
}

/**
 * The schedule's part, inside its transaction: claims today's charges, one row per (learner,
 * period end, attempt), and queues a job for each claim it wrote. The first attempt is on the day
 * the period ends; the second, the next day, only after a first that failed and when the period
 * was not renewed since. Paystack is asked by the job, never inside this transaction.
 */
export async function claimAutoRenewals(tx: Tx, now: Date): Promise<number> {
  const today = utcDay(now);
  const enabled = and(eq(users.autoRenew, true), eq(cardAuthorizations.reusable, true));
  const endingToday = await tx
    .select({ userId: users.id, plan: users.subscriptionPlan, end: users.subscriptionEnd })
    .from(users)
    .innerJoin(cardAuthorizations, eq(cardAuthorizations.userId, users.id))
    .where(
      and(
        enabled,
        inArray(users.subscriptionPlan, [...PAID_PLANS]),
        // Paid time queued after the period runs on: its own end is renewed once it is current.
        isNull(users.queuedPlan),
        gte(users.subscriptionEnd, today.start),
        lt(users.subscriptionEnd, today.end),
      ),
    );
  const failedYesterday = await tx
    .select({ userId: renewalCharges.userId, plan: renewalCharges.plan, end: renewalCharges.periodEnd })
    .from(renewalCharges)
    .innerJoin(users, eq(users.id, renewalCharges.userId))
    .innerJoin(cardAuthorizations, eq(cardAuthorizations.userId, users.id))
    .where(
      and(
        enabled,
        eq(renewalCharges.attempt, 1),
        eq(renewalCharges.status, "failed"),
        gte(renewalCharges.periodEnd, addDays(today.start, -1)),
        lt(renewalCharges.periodEnd, today.start),
        // Not renewed meanwhile (a payment by hand moves the period's end).
        eq(users.subscriptionEnd, renewalCharges.periodEnd),
      ),
    );
  const claims = [
    ...endingToday.map((row) => ({ ...row, attempt: 1 })),
    ...failedYesterday.map((row) => ({ ...row, attempt: 2 })),
  ];
  let claimed = 0;
  for (const { userId, plan, end, attempt } of claims) {
    if (!end || !isPaidPlan(plan)) continue;
    const id = randomUUID();
    const written = await tx
      .insert(renewalCharges)
      .values({ id, userId, periodEnd: end, attempt, plan, reference: renewalReference(plan, id) })
      .onConflictDoNothing()
      .returning({ id: renewalCharges.id });
    if (written.length === 0) continue;
    await enqueueJob(tx, AUTO_RENEW_JOB, { chargeId: id });
    claimed++;
  }
  return claimed;
}

/**
 * Whether the renewal of a period that ended at `periodEnd` may still come: it is due (the period
 * ended today, UTC, when today's claims are made) or a charge claimed for it is under way (not
 * settled, its payment not closed). Otherwise the renewal has failed or will never come, and the
 * expiry ends the period (docs/subscriptions.md, "Automatic renewal").
 */
export async function renewalMayStillCome(tx: Tx, userId: string, periodEnd: Date, now: Date): Promise<boolean> {
  if (utcDay(periodEnd).start.getTime() === utcDay(now).start.getTime()) return true;
  const [underWay] = await tx
    .select({ id: renewalCharges.id })
    .from(renewalCharges)
    .leftJoin(payments, eq(payments.reference, renewalCharges.reference))
    .where(
      and(
        eq(renewalCharges.userId, userId),
        eq(renewalCharges.periodEnd, periodEnd),
        inArray(renewalCharges.status, ["claimed", "charging", "pending"]),
        or(isNull(payments.id), eq(payments.status, "pending")),
      ),
    )
    .limit(1);
  return underWay !== undefined;
}

/** Paystack's reference for a claimed charge: derived from the claim, so a retry reuses it. */
export function renewalReference(plan: PaidPlan, chargeId: string): string {
  return `LTF-RENEW-${plan.toUpperCase()}-${chargeId.replaceAll("-", "")}`;
}

type Charge = typeof renewalCharges.$inferSelect;

/**
 * Writes a charge's end in one transaction. A charge that failed or was called off ends the
 * renewal of its period: the period no longer runs on past its end (renewalFailedFor,
 * docs/subscriptions.md, "Automatic renewal"), and a failure is told to the learner by email.
 */
async function closeCharge(deps: AutoRenewDeps, charge: Charge, status: "success" | "failed" | "pending" | "cancelled", failure: string | null) {
  await deps.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(renewalCharges)
      .set({ status, failure })
      .where(and(eq(renewalCharges.id, charge.id), inArray(renewalCharges.status, ["claimed", "charging", "pending"])))
      .returning({ id: renewalCharges.id });
    if (!updated || (status !== "failed" && status !== "cancelled")) return;
    await tx.update(users).set({ renewalFailedFor: charge.periodEnd }).where(eq(users.id, charge.userId));
    if (status === "failed") await enqueueJob(tx, AUTO_RENEWAL_FAILED_JOB, { chargeId: charge.id });
  });
}

/** What Verify says of the charge: credited through creditPayment, or a failure in words. */
async function applyAnswer(deps: AutoRenewDeps, charge: Charge, transaction: VerifiedTransaction, now: Date): Promise<AutoRenewalOutcome> {
  const result = await creditPayment(deps, transaction, now);
  if (result.outcome === "credited" || result.outcome === "already-credited") {
    await closeCharge(deps, charge, "success", null);
    return "success";
  }
  if (transaction.status === "failed" || transaction.status === "reversed" || result.outcome === "mismatch") {
    const reason = transaction.gateway_response?.trim() || "the charge was declined";
    await closeCharge(deps, charge, "failed", `Your bank declined the charge: ${reason.replace(/\.+$/, "")}.`);
    return "failed";
  }
  // Not settled yet (ongoing, send_otp ...): the payment stays pending and reconciliation settles it.
  await closeCharge(deps, charge, "pending", null);
  return "pending";
}

/**
 * The job: charges one claimed renewal. A charge left `charging` (a crash, a lost answer) is
 * verified with Paystack by its reference before anything else, so it is never charged twice;
 * Paystack not knowing it means it was not charged, and it counts as failed for the day. The
 * learner's choice, the card and the period are read again right before charging, so turning
 * automatic renewal off takes effect at once. Price and rate are those of the charge day.
 */
export async function runAutoRenewal(deps: AutoRenewDeps, chargeId: string, now: Date): Promise<AutoRenewalOutcome | null> {
  const paystack = deps.paystack;
  const [charge] = await deps.db.select().from(renewalCharges).where(eq(renewalCharges.id, chargeId));
  if (!charge || !["claimed", "charging"].includes(charge.status)) return null;
  const count = (outcome: AutoRenewalOutcome) => {
    deps.metrics.autoRenewal(outcome);
    return outcome;
  };
  if (!paystack) {
    await closeCharge(deps, charge, "failed", UNREACHABLE);
    return count("unavailable");
  }
  if (charge.status === "charging") {
    // Throws when Paystack does not answer: the job runs again later and asks again.
    const known = await paystack.verify(charge.reference);
    if (known) return count(await applyAnswer(deps, charge, known, now));
    await closeCharge(deps, charge, "failed", UNREACHABLE);
    return count("unavailable");
  }

  const price = quote(await loadPriceBook(deps, now), "subscription", charge.plan);
  const ready = await deps.db.transaction(async (tx) => {
    // The learner's row first, then the card's, as crediting takes them.
    const [user] = await tx.select().from(users).where(eq(users.id, charge.userId)).for("update");
    const [card] = await tx.select().from(cardAuthorizations).where(eq(cardAuthorizations.userId, charge.userId)).for("update");
    const stillDue =
      user?.autoRenew === true &&
      card?.reusable === true &&
      user !== undefined &&
      user.subscriptionEnd?.getTime() === charge.periodEnd.getTime() &&
      user.queuedPlan === null;
    if (!stillDue || !user || !card || price.ghsPesewas === null) return null;
    await tx
      .insert(payments)
      .values({
        reference: charge.reference,
        userId: user.id,
        userEmail: user.email,
        kind: "subscription",
        plan: charge.plan,
        amountMinor: price.ghsPesewas,
        currency: "GHS",
        priceUsdCents: price.usdCents,
        exchangeRate: String(price.ghsPerUsd),
      })
      .onConflictDoNothing();
    // Marked before Paystack is asked: from here on, a retry verifies before it charges.
    await tx.update(renewalCharges).set({ status: "charging" }).where(eq(renewalCharges.id, charge.id));
    return { card, amountMinor: price.ghsPesewas };
  });
  if (!ready) {
    if (price.ghsPesewas === null) {
      await closeCharge(deps, charge, "failed", "Today's price could not be worked out, so your card was not charged.");
      return count("failed");
    }
    await closeCharge(deps, charge, "cancelled", null);
    return count("cancelled");
  }

  let answered = true;
  try {
    // Its answer says only that the charge was attempted: what happened is read from Verify below,
    // as for every payment (docs/subscriptions.md, "Asking Paystack").
    await paystack.chargeAuthorization({
      email: ready.card.email,
      amountMinor: ready.amountMinor,
      currency: "GHS",
      authorizationCode: ready.card.authorizationCode,
      reference: charge.reference,
      metadata: { userId: charge.userId, plan: charge.plan, kind: "subscription", renewal: String(charge.attempt) },
    });
  } catch (error) {
    if (!(error instanceof PaystackError)) throw error;
    // The error names no code: Paystack's message and status only (no credential in a log line).
    deps.log.warn({ reference: charge.reference, statusCode: error.statusCode, message: error.message }, "automatic renewal charge not answered");
    if (error.statusCode !== null && error.statusCode < 500) {
      await deps.db.update(payments).set({ status: "failed" }).where(and(eq(payments.reference, charge.reference), eq(payments.status, "pending")));
      await closeCharge(deps, charge, "failed", `Paystack refused the charge: ${error.message.replace(/\.+$/, "")}.`);
      return count("failed");
    }
    // No answer: the card may have been charged. Verify, by the reference, says.
    answered = false;
  }
  // Throws when Verify does not answer: the job runs again later, and verifies before anything else.
  const known = await paystack.verify(charge.reference);
  if (known) return count(await applyAnswer(deps, { ...charge, status: "charging" }, known, now));
  // Charged, by its answer, yet unknown to Verify: asked again when the job runs again.
  if (answered) throw new Error(`Verify does not know the charge ${charge.reference} yet`);
  await deps.db.update(payments).set({ status: "failed" }).where(and(eq(payments.reference, charge.reference), eq(payments.status, "pending")));
  await closeCharge(deps, charge, "failed", UNREACHABLE);
  return count("unavailable");
}

const autoRenewJobSchema = z.object({ chargeId: z.string() });

/** The job queued by claimAutoRenewals. */
export async function runAutoRenewalJob(deps: AutoRenewDeps, payload: unknown, now: Date): Promise<void> {
  await runAutoRenewal(deps, autoRenewJobSchema.parse(payload).chargeId, now);
}

/** Reads the learner's card and choice, and what turning it on would charge, on which day. */
export async function getAutoRenewal(deps: BillingDeps, user: CurrentUser, now: Date): Promise<AutoRenewal> {
  const [card] = await deps.db.select().from(cardAuthorizations).where(eq(cardAuthorizations.userId, user.id));
  // Read afresh: setAutoRenewal has just written it.
  const [choice] = await deps.db.select({ autoRenew: users.autoRenew }).from(users).where(eq(users.id, user.id));
  const autoRenew = choice?.autoRenew === true;
  const { current, queued } = paidTime(user, now);
  const renews = queued ?? current;
  const [lastPayment] = await deps.db
    .select({ channel: payments.methodChannel })
    .from(payments)
    .where(and(eq(payments.userId, user.id), eq(payments.status, "success")))
    .orderBy(desc(payments.paidAt))
    .limit(1);
  const unavailableReason = !renews
    ? AUTO_RENEWAL_MESSAGES.noPlan
    : !card
      ? lastPayment?.channel === "mobile_money"
        ? AUTO_RENEWAL_MESSAGES.mobileMoney
        : AUTO_RENEWAL_MESSAGES.noCard
      : !card.reusable
        ? AUTO_RENEWAL_MESSAGES.notReusable
        : null;
  const price = renews ? quote(await loadPriceBook(deps, now), "subscription", renews.plan) : null;
  const charge =
    renews && price
      ? { plan: renews.plan, day: renews.end.toISOString(), usdCents: price.usdCents, ghsPerUsd: price.ghsPerUsd, amountMinor: price.ghsPesewas }
      : null;
  const shownCard = card ? { brand: card.brand, last4: card.last4 } : null;
  const consent =
    charge && shownCard && charge.ghsPerUsd !== null && charge.amountMinor !== null
      ? autoRenewalConsentText({ ...charge, ghsPerUsd: charge.ghsPerUsd, amountMinor: charge.amountMinor, card: shownCard })
      : null;

  const [last] = await deps.db
    .select()
    .from(renewalCharges)
    .where(eq(renewalCharges.userId, user.id))
    .orderBy(desc(renewalCharges.createdAt))
    .limit(1);
  // A failure stays shown until the period it was for is renewed.
  const lastFailure =
    last?.status === "failed" && last.failure && user.subscriptionEnd?.getTime() === last.periodEnd.getTime()
      ? { message: last.failure, at: last.updatedAt.toISOString(), retryTomorrow: last.attempt === 1 && autoRenew }
      : null;
  return {
    available: unavailableReason === null,
    unavailableReason,
    enabled: unavailableReason === null && autoRenew,
    card: shownCard,
    charge,
    consent,
    lastFailure,
  };
}

/** Turns automatic renewal on (refused with a sentence when it cannot be) or off, at once. */
export async function setAutoRenewal(deps: BillingDeps, user: CurrentUser, enabled: boolean, now: Date): Promise<AutoRenewal> {
  if (enabled) {
    const state = await getAutoRenewal(deps, user, now);
    if (!state.available) throw new HttpError(409, "AUTO_RENEWAL_UNAVAILABLE", state.unavailableReason ?? AUTO_RENEWAL_MESSAGES.noCard);
    if (state.consent === null) throw new HttpError(503, "PRICE_UNAVAILABLE", AUTO_RENEWAL_MESSAGES.noPrice);
  }
  // Off: a charge already claimed for today reads this again right before it charges. On: only
  // while the card kept can be charged again, whatever happened since it was read.
  const reusableCard = deps.db
    .select({ userId: cardAuthorizations.userId })
    .from(cardAuthorizations)
    .where(and(eq(cardAuthorizations.userId, user.id), eq(cardAuthorizations.reusable, true)));
  await deps.db
    .update(users)
    .set({ autoRenew: enabled })
    .where(and(eq(users.id, user.id), enabled ? exists(reusableCard) : undefined));
  return getAutoRenewal(deps, user, now);
}

