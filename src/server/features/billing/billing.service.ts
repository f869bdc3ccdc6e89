// Subscriptions and the paid waitlist. The server prices every plan, creates every Paystack
// transaction, and credits a payment exactly once, only after Paystack confirms it.
import { addDays, addMonths } from "date-fns";
import { and, eq, gt, inArray, lte, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import {
  cediAmountPesewas,
  checkEligibility,
  DEFAULT_SUBSCRIPTION_USD,
  DEFAULT_WAITLIST_USD,
  nextCohort,
  paymentReference,
  remainingDays,
  WAITLIST_FALLBACK_RATE,
  type Eligibility,
} from "../../../shared/billing.ts";
import { BILLING_MESSAGES, type Prices, type Subscription, type WaitlistStatus } from "../../../shared/contracts/billing.ts";
import { PLAN_LABELS, PAID_PLANS, type PaidPlan } from "../../../shared/plans.ts";
import type { CurrentUser } from "../../auth/session.ts";
import type { Db, Tx } from "../../db/client.ts";
import { auditLog, config, payments, programs, subscriptionReminders, users, waitlist } from "../../db/schema.ts";
import type { Env } from "../../env.ts";
import { currentRate, type ExchangeRate } from "../../integrations/exchange-rate.ts";
import type { PaystackClient, PaystackTransaction } from "../../integrations/paystack.ts";
import { enqueueJob } from "../../jobs/queue.ts";
import type { Metrics } from "../../metrics/metrics.ts";
import { HttpError } from "../../plugins/errors.ts";

export const RECEIPT_JOB = "billing.receipt";
export const EXPIRY_REMINDER_JOB = "billing.expiry-reminder";

export type BillingDeps = {
  db: Db;
  env: Env;
  log: FastifyBaseLogger;
  paystack: PaystackClient | null;
  metrics: Pick<Metrics, "paymentCredited" | "exchangeRateFetchFailed">;
};

function rateNow(deps: BillingDeps, now: Date): Promise<ExchangeRate | null> {
  return currentRate({ db: deps.db, url: deps.env.exchangeRateUrl, log: deps.log, metrics: deps.metrics }, now);
}

type Kind = "subscription" | "waitlist";

async function programPricesUsd(db: Db): Promise<Partial<Record<PaidPlan, number>>> {
  const rows = await db
    .select({ id: programs.id, cents: programs.priceUsdCents })
    .from(programs)
    .where(inArray(programs.id, [...PAID_PLANS]));
  return Object.fromEntries(rows.filter((r) => r.cents !== null).map((r) => [r.id, (r.cents ?? 0) / 100]));
}

/** USD per plan and kind: the program's price, else the spec's defaults. */
function usdPrice(kind: Kind, plan: PaidPlan, fromPrograms: Partial<Record<PaidPlan, number>>): number {
  return fromPrograms[plan] ?? (kind === "waitlist" ? DEFAULT_WAITLIST_USD : DEFAULT_SUBSCRIPTION_USD)[plan];
}

export async function getPrices(deps: BillingDeps, now: Date): Promise<Prices> {
  const [rate, fromPrograms] = await Promise.all([
    rateNow(deps, now),
    programPricesUsd(deps.db),
  ]);
  const subscription = (plan: PaidPlan) => {
    const usd = usdPrice("subscription", plan, fromPrograms);
    return { usd, ghs: rate ? cediAmountPesewas(usd, rate.ghsPerUsd) / 100 : null };
  };
  const waitlistPrice = (plan: PaidPlan) => {
    const usd = usdPrice("waitlist", plan, fromPrograms);
    return { usd, ghs: cediAmountPesewas(usd, rate?.ghsPerUsd ?? WAITLIST_FALLBACK_RATE) / 100 };
  };
  const { paystack } = deps.env;
  return {
    rate: { ghsPerUsd: rate?.ghsPerUsd ?? null, fetchedAt: rate?.fetchedAt ?? null },
    subscription: { intermediate: subscription("intermediate"), advanced: subscription("advanced") },
    waitlist: { intermediate: waitlistPrice("intermediate"), advanced: waitlistPrice("advanced") },
    cohort: nextCohort(now),
    payments: {
      enabled: paystack.mode !== "disabled",
      testMode: paystack.mode === "simulator",
      inlineScriptUrl: paystack.mode === "disabled" ? null : paystack.inlineScriptUrl,
    },
  };
}

export function eligibilityFor(user: CurrentUser, target: PaidPlan | null, now: Date): Eligibility {
  return checkEligibility({ plan: user.plan, subscriptionEnd: user.subscriptionEnd }, target, now);
}

export async function getSubscription(db: Db, user: CurrentUser, now: Date): Promise<Subscription> {
  const [lock] = await db.select().from(config).where(eq(config.key, "subscription"));
  const locked = typeof lock?.value === "object" && lock.value !== null && "locked" in lock.value && lock.value.locked === true;
  const paid = user.plan === "intermediate" || user.plan === "advanced";
  return {
    status: paid ? "active" : user.subscriptionStatus === "active" ? "expired" : user.subscriptionStatus,
    plan: { name: user.plan, label: PLAN_LABELS[user.plan] },
    currentPeriodEnd: paid && user.subscriptionEnd ? user.subscriptionEnd.toISOString() : null,
    remainingDays: paid && user.subscriptionEnd ? remainingDays(user.subscriptionEnd, now) : null,
    locked,
  };
}

/** Creates the Paystack transaction for a plan, priced here, and stores it as pending. */
export async function startCheckout(
  deps: BillingDeps,
  user: CurrentUser,
  input: { kind: Kind; plan: PaidPlan },
  now: Date,
): Promise<{ reference: string; accessCode: string }> {
  if (!deps.paystack) throw new HttpError(503, "PAYMENTS_DISABLED", BILLING_MESSAGES.serviceUnavailable);
  if (input.kind === "subscription") {
    const eligibility = eligibilityFor(user, input.plan, now);
    if (!eligibility.canChange) {
      throw new HttpError(409, "NOT_ELIGIBLE", eligibility.reason ?? BILLING_MESSAGES.cannotChange);
    }
  } else if (waitlistHidden(user)[input.plan]) {
    throw new HttpError(409, "ALREADY_PURCHASED", "You have already paid for this track.");
  }

  const rate = await rateNow(deps, now);
  const fromPrograms = await programPricesUsd(deps.db);
  const usd = usdPrice(input.kind, input.plan, fromPrograms);
  const ghsPerUsd = rate?.ghsPerUsd ?? (input.kind === "waitlist" ? WAITLIST_FALLBACK_RATE : null);
  if (ghsPerUsd === null) throw new HttpError(503, "PRICE_UNAVAILABLE", BILLING_MESSAGES.priceMissing);
  const amountMinor = cediAmountPesewas(usd, ghsPerUsd);

  // References carry a millisecond timestamp; on the rare clash, the next millisecond is used.
  let reference = "";
  for (let attempt = 0; ; attempt++) {
    reference = paymentReference(input.kind, input.plan, now.getTime() + attempt);
    const inserted = await deps.db
      .insert(payments)
      .values({
        reference,
        userId: user.id,
        userEmail: user.email,
        kind: input.kind,
        plan: input.plan,
        amountMinor,
        currency: "GHS",
        priceUsdCents: Math.round(usd * 100),
        exchangeRate: String(ghsPerUsd),
      })
      .onConflictDoNothing()
      .returning({ reference: payments.reference });
    if (inserted.length > 0) break;
    if (attempt >= 20) throw new Error("could not allocate a payment reference");
  }

  try {
    const { accessCode } = await deps.paystack.initialize({
      email: user.email,
      amountMinor,
      currency: "GHS",
      reference,
      metadata: { userId: user.id, plan: input.plan, kind: input.kind },
      callbackUrl: `${deps.env.appUrl}${input.kind === "waitlist" ? "/join-waitlist" : "/subscription"}`,
    });
    return { reference, accessCode };
  } catch (error) {
    await deps.db.update(payments).set({ status: "failed" }).where(eq(payments.reference, reference));
    deps.log.error({ err: error, reference }, "paystack initialize failed");
    throw new HttpError(502, "PAYMENT_INIT_FAILED", BILLING_MESSAGES.serviceUnavailable);
  }
}

export type CreditResult =
  | { outcome: "credited" | "already-credited"; payment: typeof payments.$inferSelect; periodEnd: Date | null }
  | { outcome: "not-paid" | "mismatch" | "unknown" };

const TERMINAL_FAILURES = new Set(["failed", "reversed"]);

/**
 * Credits a payment once Paystack says it succeeded, in one transaction: the payment row, the
 * user's plan or waitlist place, the audit entry and the receipt job. The payment row is locked,
 * so a verify call, the browser callback and webhooks arriving together credit exactly once.
 */
export async function creditPayment(
  deps: Pick<BillingDeps, "db" | "metrics">,
  transaction: PaystackTransaction,
  now: Date,
): Promise<CreditResult> {
  const result = await deps.db.transaction(async (tx): Promise<CreditResult> => {
    const [payment] = await tx.select().from(payments).where(eq(payments.reference, transaction.reference)).for("update");
    if (!payment) return { outcome: "unknown" as const };
    if (payment.status === "success") {
      const [owner] = await tx.select({ end: users.subscriptionEnd }).from(users).where(eq(users.id, payment.userId));
      return { outcome: "already-credited" as const, payment, periodEnd: owner?.end ?? null };
    }
    if (transaction.status !== "success") {
      if (TERMINAL_FAILURES.has(transaction.status)) {
        await tx.update(payments).set({ status: transaction.status === "reversed" ? "reversed" : "failed" }).where(eq(payments.id, payment.id));
      }
      return { outcome: "not-paid" as const };
    }
    if (transaction.amount !== payment.amountMinor || transaction.currency !== payment.currency) {
      return { outcome: "mismatch" as const };
    }

    const paidAt = transaction.paid_at ? new Date(transaction.paid_at) : now;
    const [credited] = await tx
      .update(payments)
      .set({ status: "success", paidAt, creditedAt: now })
      .where(eq(payments.id, payment.id))
      .returning();
    const [user] = await tx.select().from(users).where(eq(users.id, payment.userId)).for("update");
    if (!credited || !user) throw new Error(`payment ${payment.reference} has no user`);

    let periodEnd: Date | null = null;
    let changes: Record<string, unknown>;
    if (payment.kind === "subscription") {
      // Renewing the same plan while it runs adds a month at its end; anything else starts now.
      const renewing =
        user.subscriptionPlan === payment.plan && user.subscriptionStatus === "active" && user.subscriptionEnd !== null && user.subscriptionEnd > now;
      const start = renewing && user.subscriptionEnd ? user.subscriptionEnd : now;
      periodEnd = addMonths(start, 1);
      await tx
        .update(users)
        .set({
          subscriptionPlan: payment.plan,
          subscriptionStatus: "active",
          subscriptionStart: renewing ? user.subscriptionStart : now,
          subscriptionEnd: periodEnd,
        })
        .where(eq(users.id, user.id));
      changes = {
        from: { plan: user.subscriptionPlan, end: user.subscriptionEnd },
        to: { plan: payment.plan, end: periodEnd },
      };
    } else {
      const cohort = nextCohort(now).name;
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
    deps.log.error({ reference, transaction }, "paystack transaction does not match the stored payment");
    throw new HttpError(409, "PAYMENT_MISMATCH", BILLING_MESSAGES.mismatch);
  }
  throw new HttpError(402, "PAYMENT_NOT_SUCCESSFUL", BILLING_MESSAGES.notPaid);
}

/** SPEC section 2: which waitlist tracks the page hides for this user. */
export function waitlistHidden(user: Pick<CurrentUser, "plan" | "intermediatePaid" | "advancedPaid">) {
  return {
    intermediate: user.intermediatePaid || user.advancedPaid || user.plan === "intermediate" || user.plan === "advanced" || user.plan === "admin",
    advanced: user.advancedPaid || user.plan === "advanced" || user.plan === "admin",
  };
}

export async function getWaitlistStatus(db: Db, user: CurrentUser, now: Date): Promise<WaitlistStatus> {
  const [entry] = await db.select().from(waitlist).where(eq(waitlist.userId, user.id));
  return {
    cohort: nextCohort(now),
    paid: user.waitlistPaid,
    paidPlan: entry?.plan ?? null,
    admitted: user.waitlistAdmitted,
    hidden: waitlistHidden(user),
  };
}

export const REMINDER_DAYS_BEFORE = 3;

/** Queues a reminder unless this one was already sent for this period (safe across servers). */
async function remindOnce(tx: Tx, userId: string, periodEnd: Date, kind: "ending-soon" | "expired") {
  const recorded = await tx
    .insert(subscriptionReminders)
    .values({ userId, periodEnd, kind })
    .onConflictDoNothing()
    .returning({ userId: subscriptionReminders.userId });
  if (recorded.length > 0) await enqueueJob(tx, EXPIRY_REMINDER_JOB, { userId, periodEnd: periodEnd.toISOString(), kind });
}

/**
 * Ends paid plans whose month is over (status expired: access falls back to free) with an audit
 * entry each, and queues the reminders: 3 days before the end and at the end. Run periodically.
 */
export async function expireSubscriptions(db: Db, now: Date): Promise<number> {
  return db.transaction(async (tx) => {
    const endingSoon = await tx
      .select({ id: users.id, end: users.subscriptionEnd })
      .from(users)
      .where(
        and(
          eq(users.subscriptionStatus, "active"),
          inArray(users.subscriptionPlan, [...PAID_PLANS]),
          gt(users.subscriptionEnd, now),
          lte(users.subscriptionEnd, addDays(now, REMINDER_DAYS_BEFORE)),
        ),
      );
    for (const user of endingSoon) if (user.end) await remindOnce(tx, user.id, user.end, "ending-soon");

    const lapsed = await tx
      .update(users)
      .set({ subscriptionStatus: "expired" })
      .where(
        and(
          eq(users.subscriptionStatus, "active"),
          inArray(users.subscriptionPlan, [...PAID_PLANS]),
          lte(users.subscriptionEnd, now),
        ),
      )
      .returning({ id: users.id, plan: users.subscriptionPlan, end: users.subscriptionEnd });
    for (const user of lapsed) {
      await tx.insert(auditLog).values({
        actorId: null,
        subjectUserId: user.id,
        action: "subscription.expired",
        reason: "the paid month ended",
        changes: { plan: user.plan, end: user.end },
      });
      if (user.end) await remindOnce(tx, user.id, user.end, "expired");
    }
    return lapsed.length;
  });
}
