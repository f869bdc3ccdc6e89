import * as z from "zod/mini";
import { formatCedis, formatGhs, type SubscriptionPaymentOutcome } from "../billing.ts";
import { PAID_PLANS, PLAN_LABELS, PLANS, type PaidPlan } from "../plans.ts";
import { onFirstUse } from "../formatters.ts";
import { endpoint } from "./endpoint.ts";

export const BILLING_MESSAGES = {
  pricesFailed: "Could not load subscription prices. Please try again later.",
  serviceUnavailable: "Payment service is not available. Please refresh the page.",
  priceMissing: "Cannot process payment: price not available.",
  completedVerifying: "Payment completed! Verifying transaction...",
  verified: "Payment verified! Your plan has been upgraded.",
  renewed: "Payment verified! Your plan has been renewed: your next month starts when this one ends.",
  queuedPaid: "Payment verified! Your new plan starts when your current plan ends.",
  postPaymentIssue: (message: string, reference: string) =>
    `Payment completed but there was an issue: ${message.replace(/\.+$/, "")}. Please contact support with reference: ${reference}`,
  windowClosed: "Payment window closed. If you completed payment, your transaction is being processed.",
  // A checkout closed after a decline, once the server has asked Paystack (docs/subscriptions.md,
  // "Asking Paystack"); closed otherwise, windowClosed says it.
  declined: "Your payment was declined; you have not been charged.",
  verifyFailed: "Failed to verify payment",
  verificationFailed: "Payment verification failed",
  updateFailed: "Failed to update subscription",
  cannotChange: "Cannot change subscription at this time.",
  priceUnavailable: "Price unavailable",
  loading: "Loading...",
  waitlistServiceFailed: "Failed to load payment service. Please refresh the page.",
  waitlistPricesFailed: "Failed to load program prices. Please try again.",
  waitlistServiceUnavailable: "Payment service is not available...",
  waitlistVerified: "Payment verified successfully! You have been added to the waitlist.",
  waitlistVerificationFailed: "Payment verification failed. Please contact support.",
  waitlistVerifyError: "Error verifying payment. Please contact support.",
  waitlistInlineFailed: "Failed to process payment. Please try again.",
  paymentsDisabled: "Payments are not available at the moment.",
  notYourPayment: "This payment reference is not yours.",
  notPaid: "The payment was not completed.",
  mismatch: "The payment does not match the order.",
  // Refunds (docs/subscriptions.md, "Refunds"): what the server answers an administrator.
  refundPaymentNotFound: "Payment not found.",
  refundAlreadyRefunded: "This payment has already been refunded.",
  refundNotSuccessful: "Only a successful payment can be refunded.",
  refundTooMuch: (leftMinor: number) =>
    `A refund cannot be more than what is left of the payment (${formatCedis(leftMinor)}).`,
  refundInProgress: "A refund of this payment is already in progress. Wait a few minutes and reload.",
  refundRefused: (reason: string) => `Paystack refused the refund: ${reason.replace(/\.+$/, "")}. Nothing was changed.`,
  refundUncertain:
    "Paystack did not answer. The refund is recorded as pending: check the Paystack dashboard before trying again.",
  refundsUnavailable: "Refunds are not available: Paystack is not configured.",
  // The learner's payments and receipts (docs/product.md, "Subscription page").
  historyLoading: "Loading your payments...",
  historyEmpty: "You have not made any payments yet.",
  receiptNotFound: "Receipt not found. It may belong to another account, or the payment was not completed.",
} as const;

export const PAYMENT_KINDS = ["subscription", "waitlist"] as const;
export type PaymentKind = (typeof PAYMENT_KINDS)[number];

/**
 * A payment's life (docs/data.md, "Money"): pending, then one of the others; refunded once all of
 * it is given back; mismatched when Paystack's answer is not the payment stored (never credited).
 */
export const PAYMENT_STATUSES = ["pending", "success", "failed", "abandoned", "reversed", "refunded", "mismatched"] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** A refund's life: pending until Paystack says it was processed or failed. */
export const REFUND_STATUSES = ["pending", "processed", "failed"] as const;

/** What a payment bought, as receipts, the payment history and the refund email say it. */
export function paymentPurpose(kind: PaymentKind, plan: PaidPlan): string {
  return kind === "waitlist"
    ? `Waitlist place, ${PLAN_LABELS[plan]} track (first month)`
    : `1 month of the ${PLAN_LABELS[plan]} plan`;
}

/** How the learner's payment history names each status. */
export const PAYMENT_STATUS_TEXT: Record<PaymentStatus, string> = {
  pending: "Awaiting payment",
  success: "Paid",
  failed: "Failed",
  abandoned: "Not completed",
  reversed: "Reversed",
  refunded: "Refunded",
  mismatched: "Under review",
};

const price = z.object({ usd: z.number(), ghs: z.nullable(z.number()) });

/** GET /api/prices: computed on the server from the programs and the cached exchange rate. */
export const pricesResponseSchema = z.object({
  rate: z.object({ ghsPerUsd: z.nullable(z.number()), fetchedAt: z.nullable(z.string()) }),
  subscription: z.object({ intermediate: price, advanced: price }),
  waitlist: z.object({ intermediate: price, advanced: price }),
  cohort: z.object({ name: z.string(), startsOn: z.string() }),
  payments: z.object({
    enabled: z.boolean(),
    testMode: z.boolean(),
    inlineScriptUrl: z.nullable(z.string()),
  }),
});
export type Prices = z.infer<typeof pricesResponseSchema>;

/** POST /api/subscription-management, by action (the original system's entry point): each action's body. */
const checkEligibilityRequestSchema = z.object({ action: z.literal("check_eligibility"), planId: z.optional(z.enum(PAID_PLANS)) });
const getSubscriptionRequestSchema = z.object({ action: z.literal("get_subscription") });
const createSubscriptionRequestSchema = z.object({ action: z.literal("create_subscription"), planId: z.enum(PAID_PLANS) });
const quoteSubscriptionRequestSchema = z.object({ action: z.literal("quote_subscription"), planId: z.enum(PAID_PLANS) });

export const eligibilitySchema = z.object({
  canChange: z.boolean(),
  reason: z.nullable(z.string()),
  daysToWait: z.int(),
});

export const subscriptionSchema = z.object({
  status: z.enum(["inactive", "active", "expired"]),
  plan: z.object({ name: z.enum(PLANS), label: z.string() }),
  currentPeriodEnd: z.nullable(z.string()),
  remainingDays: z.nullable(z.int()),
  /**
   * Paid time of a lower plan that runs after the current period, from its end
   * (docs/subscriptions.md, "Paid time is never lost"); null when nothing is queued.
   */
  queued: z.nullable(
    z.object({ plan: z.object({ name: z.enum(PAID_PLANS), label: z.string() }), startsAt: z.string(), endsAt: z.string() }),
  ),
  /**
   * config/subscription's lock flag: read, shown the same either way
   * (docs/subscriptions.md, "The subscription lock flag").
   */
  locked: z.boolean(),
});
export type Subscription = z.infer<typeof subscriptionSchema>;

const planRef = z.object({ name: z.enum(PAID_PLANS), label: z.string() });

/**
 * What paying for a plan now would do, said before the learner pays (docs/subscriptions.md,
 * "Before paying"): computed by the server with the rule that credits the payment (addPaidMonth),
 * so what the page says is what happens.
 */
export const subscriptionQuoteSchema = z.object({
  plan: planRef,
  /** upgrade (the spec's "success"), renewed or queued: subscriptionPaymentOutcome. */
  outcome: z.enum(["success", "renewed", "queued"]),
  /** Pesewas, null without an exchange rate; US cents always. */
  price: z.object({ ghsPesewas: z.nullable(z.int()), usdCents: z.int() }),
  /** The month the payment buys. */
  month: z.object({ startsAt: z.string(), endsAt: z.string() }),
  /** The paid plan running now, and its days left (null when none runs). */
  current: z.nullable(z.object({ plan: planRef, endsAt: z.string(), daysLeft: z.int() })),
  /** Paid time that runs after the new plan once paid: the current plan's days left (an upgrade), or queued time moved (a renewal). */
  then: z.nullable(z.object({ plan: planRef, startsAt: z.string(), endsAt: z.string() })),
});
export type SubscriptionQuote = z.infer<typeof subscriptionQuoteSchema>;

const usdText = onFirstUse(() => new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 }));

/**
 * The sentences shown above a plan's button before paying (docs/product.md, "Subscription page"),
 * from the server's quote; `date` writes a date as the page does ("14 March 2027").
 */
export function checkoutDisclosure(quote: SubscriptionQuote, date: (iso: string) => string): string[] {
  const { plan, month, current, then } = quote;
  const from = (period: { startsAt: string; endsAt: string }) => `from ${date(period.startsAt)} to ${date(period.endsAt)}`;
  const usd = `US$ ${usdText().format(quote.price.usdCents / 100)}`;
  const sentences = [
    quote.price.ghsPesewas === null ? `You pay ${usd} a month, in cedis at the day's rate.` : `You pay ${formatGhs(quote.price.ghsPesewas)} (${usd}) now.`,
  ];
  if (quote.outcome === "renewed") {
    sentences.push(`Your next ${plan.label} month is added after the current one: ${from(month)}.`);
    if (then) sentences.push(`Your ${then.plan.label} time waiting after it moves by as much: ${from(then)}.`);
  } else if (quote.outcome === "queued" && current) {
    sentences.push(`${plan.label} is queued after your ${current.plan.label} plan: ${from(month)}.`);
  } else if (current && then) {
    sentences.push(`${plan.label} starts now and runs ${from(month)}.`);
    const days = current.daysLeft === 1 ? "The 1 day left of your" : `The ${current.daysLeft} days left of your`;
    const kept = current.daysLeft === 1 ? "is not lost: it is" : "are not lost: they are";
    sentences.push(`${days} ${then.plan.label} plan ${kept} queued after ${plan.label}, ${from(then)}.`);
  } else {
    sentences.push(`${plan.label} starts now and runs ${from(month)}.`);
  }
  return sentences;
}

/** A transaction the server initialized: the browser only gets what the checkout needs. */
export const checkoutSchema = z.object({ reference: z.string(), accessCode: z.string() });

/** GET /api/verify-paystack?reference=: a subscription payment's reference. */
export const verifyQuerySchema = z.object({ reference: z.string().check(z.minLength(1), z.maxLength(100)) });

/** GET /api/verify-paystack?reference= and POST /api/verify-paystack. */
export const verifyResponseSchema = z.object({
  status: z.literal("success"),
  success: z.literal(true),
  message: z.string(),
  data: z.object({
    reference: z.string(),
    amount: z.int(),
    currency: z.string(),
    plan: z.enum(PAID_PLANS),
    kind: z.enum(["subscription", "waitlist"]),
    currentPeriodEnd: z.nullable(z.string()),
  }),
});

/** POST /api/payments/:reference/closed: the checkout ended; the payment as Paystack settled it. */
export const checkoutClosedSchema = z.object({ reference: z.string(), status: z.enum(PAYMENT_STATUSES) });

/** POST /api/payments/pending/verify: the learner's pending payments that Paystack settled just now. */
export const pendingVerifiedSchema = z.object({
  settled: z.array(z.object({ reference: z.string(), status: z.enum(PAYMENT_STATUSES) })),
});

export const verifyWaitlistRequestSchema = z.object({
  reference: z.string().check(z.maxLength(100)),
  type: z.literal("waitlist"),
  plan: z.optional(z.enum(PAID_PLANS)),
});

export const waitlistCheckoutRequestSchema = z.object({ plan: z.enum(PAID_PLANS) });

/** GET /api/waitlist: the signed-in user's place, and which tracks the page hides. */
export const waitlistStatusSchema = z.object({
  cohort: z.object({ name: z.string(), startsOn: z.string() }),
  paid: z.boolean(),
  paidPlan: z.nullable(z.enum(PAID_PLANS)),
  admitted: z.boolean(),
  hidden: z.object({ intermediate: z.boolean(), advanced: z.boolean() }),
});
export type WaitlistStatus = z.infer<typeof waitlistStatusSchema>;

// ---- The learner's payments and receipts --------------------------------------------------------

/** Payments per page of the history on /subscription. */
export const HISTORY_PAGE_SIZE = 10;

export const historyQuerySchema = z.object({
  page: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100_000)), 1),
});

/** One of the signed-in learner's own payments (an admin sees a learner's as learnerRecordPaymentSchema). Amounts in pesewas. */
export const ownPaymentSchema = z.object({
  reference: z.string(),
  kind: z.enum(PAYMENT_KINDS),
  plan: z.enum(PAID_PLANS),
  amountMinor: z.int(),
  /** Given back so far through refunds Paystack accepted. */
  refundedMinor: z.int(),
  currency: z.string(),
  status: z.enum(PAYMENT_STATUSES),
  createdAt: z.string(),
  paidAt: z.nullable(z.string()),
  /** Whether it has a receipt: it was paid (refunded since or not). */
  hasReceipt: z.boolean(),
});
export type OwnPayment = z.infer<typeof ownPaymentSchema>;

/** GET /api/payments?page=: the signed-in learner's own payments, newest first. */
export const paymentHistorySchema = z.object({
  page: z.int(),
  pageSize: z.int(),
  total: z.int(),
  payments: z.array(ownPaymentSchema),
});
export type PaymentHistory = z.infer<typeof paymentHistorySchema>;

export const receiptParamsSchema = z.object({ reference: z.string().check(z.minLength(1), z.maxLength(100)) });

/**
 * How a payment was made, as Paystack's verified transaction named it (docs/subscriptions.md,
 * "Receipts"): the channel, the card's brand or the wallet's network, the number masked.
 */
export const paymentMethodSchema = z.object({
  channel: z.string(),
  brand: z.nullable(z.string()),
  number: z.nullable(z.string()),
});
export type PaymentMethod = z.infer<typeof paymentMethodSchema>;

/** "Visa card ending in 4081", "MTN Mobile Money 055***4987"; for another channel, its name. */
export function paymentMethodText(method: PaymentMethod): string {
  if (method.channel === "card") {
    return `${method.brand ? `${method.brand} card` : "Card"}${method.number ? ` ending in ${method.number}` : ""}`;
  }
  const channel = method.channel === "mobile_money" ? "Mobile Money" : method.channel.replace(/_/g, " ");
  return [method.brand, channel, method.number].filter(Boolean).join(" ");
}

/** The receipt page of a payment (src/shared/routes.ts, "receipt"), linked from the history and the receipt email. */
export function receiptPath(reference: string): string {
  return `/subscription/receipts/${encodeURIComponent(reference)}`;
}

/** GET /api/payments/:reference: the receipt of one of the learner's paid payments. */
export const receiptSchema = z.extend(ownPaymentSchema, {
  /** Who issues it: the address and tax number only when configured (README, Configuration). */
  business: z.object({ name: z.string(), address: z.nullable(z.string()), taxNumber: z.nullable(z.string()) }),
  name: z.string(),
  email: z.string(),
  priceUsdCents: z.int(),
  exchangeRate: z.string(),
  /** Null for a payment credited before the method was kept. */
  method: z.nullable(paymentMethodSchema),
  /** The month a subscription payment bought; null for the waitlist (and payments before it was kept). */
  periodStart: z.nullable(z.string()),
  periodEnd: z.nullable(z.string()),
  /** The cohort a waitlist payment holds a place in. */
  cohort: z.nullable(z.string()),
  refunds: z.array(
    z.object({
      amountMinor: z.int(),
      status: z.enum(REFUND_STATUSES),
      createdAt: z.string(),
      processedAt: z.nullable(z.string()),
    }),
  ),
});
export type Receipt = z.infer<typeof receiptSchema>;

/**
 * What the program list says on arrival from a subscription payment (`/program?payment={outcome}`,
 * docs/subscriptions.md): the spec's sentence for an upgrade, and its own for a renewal and for a
 * plan that starts later. Null for any other value.
 */
export function paymentOutcomeMessage(outcome: string | null): string | null {
  const messages: Record<SubscriptionPaymentOutcome, string> = {
    success: BILLING_MESSAGES.verified,
    renewed: BILLING_MESSAGES.renewed,
    queued: BILLING_MESSAGES.queuedPaid,
  };
  return outcome !== null && Object.hasOwn(messages, outcome) ? messages[outcome as SubscriptionPaymentOutcome] : null;
}

/**
 * Automatic renewal of a card payer's plan (docs/subscriptions.md, "Automatic renewal"): whether it
 * can be turned on (else why not, in words), whether it is on, the card by brand and last 4 only,
 * and what it would charge on which day at today's rate; the last automatic charge that failed
 * for the running period, in words, with whether one more try is due.
 */
export const autoRenewalSchema = z.object({
  available: z.boolean(),
  unavailableReason: z.nullable(z.string()),
  enabled: z.boolean(),
  card: z.nullable(z.object({ brand: z.nullable(z.string()), last4: z.nullable(z.string()) })),
  charge: z.nullable(
    z.object({
      plan: z.enum(PAID_PLANS),
      day: z.string(),
      usdCents: z.int(),
      ghsPerUsd: z.nullable(z.number()),
      amountMinor: z.nullable(z.int()),
    }),
  ),
  consent: z.nullable(z.string()),
  lastFailure: z.nullable(z.object({ message: z.string(), at: z.string(), retryTomorrow: z.boolean() })),
});
export type AutoRenewal = z.infer<typeof autoRenewalSchema>;

export const autoRenewalRequestSchema = z.object({ enabled: z.boolean() });

export const AUTO_RENEWAL_MESSAGES = {
  noCard: "Automatic renewal needs a card payment: pay for your plan by card once, then turn it on here.",
  notReusable:
    "Paystack says the card you last paid with cannot be charged again automatically. Pay for your plan with another card to turn on automatic renewal.",
  noPlan: "Automatic renewal is for a running Intermediate or Advanced plan.",
  mobileMoney: "Mobile-money payments cannot be charged again automatically: we email you a reminder before your plan ends.",
  noPrice: "Automatic renewal cannot be turned on while today's price is unavailable. Please try again later.",
  turnedOn: "Automatic renewal is on.",
  turnedOff: "Automatic renewal is off: you will not be charged.",
} as const;

const consentDate = (iso: string) =>
  new Date(iso).toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });

/**
 * The consent a learner gives by turning automatic renewal on: the day, the card, the dollar price
 * and what it comes to in cedis at today's rate, following that day's rate.
 */
export function autoRenewalConsentText(input: {
  plan: PaidPlan;
  day: string;
  usdCents: number;
  ghsPerUsd: number;
  amountMinor: number;
  card: { brand: string | null; last4: string | null };
}): string {
  const card = `your ${input.card.brand ?? "card"}${input.card.brand ? " card" : ""}${input.card.last4 ? ` ending in ${input.card.last4}` : ""}`;
  const usd = (input.usdCents / 100).toFixed(2);
  const cedis = formatGhs(input.amountMinor);
  const rate = input.ghsPerUsd.toLocaleString("en-US", { maximumFractionDigits: 4 });
  return (
    `On ${consentDate(input.day)}, the day your ${PLAN_LABELS[input.plan]} month ends, and on the day each month after ends, ` +
    `Trading Academy will charge ${card} US$ ${usd} in cedis at that day's rate: ${cedis} at today's rate of ${rate} cedis per dollar. ` +
    "You can turn automatic renewal off here at any time before then."
  );
}

/**
 * The original system's entry point: one address and four actions, each declared as an endpoint
 * of its own since each has its own body and answer. The server registers the address once, for
 * all four (billing.routes.ts).
 */
const subscriptionManagement = { method: "POST", path: "/api/subscription-management" } as const;

/** Prices for anyone, and the signed-in learner's plan, checkouts, payments and receipts (docs/subscriptions.md). */
export const BILLING_ENDPOINTS = {
  prices: endpoint({ method: "GET", path: "/api/prices", response: pricesResponseSchema }),
  checkEligibility: endpoint({ ...subscriptionManagement, body: checkEligibilityRequestSchema, response: eligibilitySchema }),
  getSubscription: endpoint({ ...subscriptionManagement, body: getSubscriptionRequestSchema, response: subscriptionSchema }),
  createSubscription: endpoint({ ...subscriptionManagement, body: createSubscriptionRequestSchema, response: checkoutSchema }),
  quoteSubscription: endpoint({ ...subscriptionManagement, body: quoteSubscriptionRequestSchema, response: subscriptionQuoteSchema }),
  subscription: endpoint({ method: "GET", path: "/api/subscription", response: subscriptionSchema }),
  autoRenewal: endpoint({ method: "GET", path: "/api/subscription/auto-renewal", response: autoRenewalSchema }),
  setAutoRenewal: endpoint({ method: "PUT", path: "/api/subscription/auto-renewal", body: autoRenewalRequestSchema, response: autoRenewalSchema }),
  verifySubscription: endpoint({ method: "GET", path: "/api/verify-paystack", query: verifyQuerySchema, response: verifyResponseSchema }),
  verifyWaitlist: endpoint({ method: "POST", path: "/api/verify-paystack", body: verifyWaitlistRequestSchema, response: verifyResponseSchema }),
  waitlist: endpoint({ method: "GET", path: "/api/waitlist", response: waitlistStatusSchema }),
  waitlistCheckout: endpoint({ method: "POST", path: "/api/waitlist/checkout", body: waitlistCheckoutRequestSchema, response: checkoutSchema }),
  checkoutClosed: endpoint({ method: "POST", path: "/api/payments/:reference/closed", params: receiptParamsSchema, response: checkoutClosedSchema }),
  verifyPending: endpoint({ method: "POST", path: "/api/payments/pending/verify", response: pendingVerifiedSchema }),
  history: endpoint({ method: "GET", path: "/api/payments", query: historyQuerySchema, response: paymentHistorySchema }),
  receipt: endpoint({ method: "GET", path: "/api/payments/:reference", params: receiptParamsSchema, response: receiptSchema }),
};
