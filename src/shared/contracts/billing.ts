import * as z from "zod/mini";
import { PAID_PLANS, PLANS } from "../plans.ts";

export const BILLING_MESSAGES = {
  pricesFailed: "Could not load subscription prices. Please try again later.",
  serviceUnavailable: "Payment service is not available. Please refresh the page.",
  priceMissing: "Cannot process payment: price not available.",
  completedVerifying: "Payment completed! Verifying transaction...",
  verified: "Payment verified! Your plan has been upgraded.",
  postPaymentIssue: (message: string, reference: string) =>
    `Payment completed but there was an issue: ${message.replace(/\.+$/, "")}. Please contact support with reference: ${reference}`,
  windowClosed: "Payment window closed. If you completed payment, your transaction is being processed.",
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
} as const;

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

/** POST /api/subscription-management, by action (the original system's entry point). */
export const subscriptionRequestSchema = z.discriminatedUnion("action", [
  z.object({ action: z.literal("check_eligibility"), planId: z.optional(z.enum(PAID_PLANS)) }),
  z.object({ action: z.literal("get_subscription") }),
  z.object({ action: z.literal("create_subscription"), planId: z.enum(PAID_PLANS) }),
]);

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
   * config/subscription's lock flag: read, shown the same either way
   * (docs/subscriptions.md, "The subscription lock flag").
   */
  locked: z.boolean(),
});
export type Subscription = z.infer<typeof subscriptionSchema>;

/** A transaction the server initialized: the browser only gets what the checkout needs. */
export const checkoutSchema = z.object({ reference: z.string(), accessCode: z.string() });

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
