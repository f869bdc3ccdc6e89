// Prices, the signed-in user's subscription and waitlist place, and the calls around a checkout.
// The server prices and credits everything; the browser only asks and shows the answers.
import { keepPreviousData, queryOptions, useQuery, useQueryClient } from "@tanstack/react-query";
import type * as z from "zod/mini";
import {
  autoRenewalSchema,
  checkoutClosedSchema,
  checkoutSchema,
  eligibilitySchema,
  paymentHistorySchema,
  pricesResponseSchema,
  receiptSchema,
  subscriptionQuoteSchema,
  subscriptionSchema,
  verifyResponseSchema,
  waitlistStatusSchema,
  type subscriptionRequestSchema,
  type verifyWaitlistRequestSchema,
  type waitlistCheckoutRequestSchema,
} from "../../../shared/contracts/billing.ts";
import type { PaidPlan } from "../../../shared/plans.ts";
import { apiRequest } from "../../lib/api.ts";
import { meQuery } from "../../session/session.ts";

/** Everything under this key belongs to the signed-in user and changes with a payment. */
const USER_BILLING_KEY = ["billing", "user"] as const;

export const pricesQuery = queryOptions({
  queryKey: ["billing", "prices"],
  queryFn: () => apiRequest("/api/prices", pricesResponseSchema),
});

export function usePrices() {
  return useQuery(pricesQuery);
}

/**
 * The prices for a checkout, waiting for them when a buy button is pressed before they arrive
 * (the keyboard is quick); undefined when they cannot be had.
 */
export function usePricesForCheckout() {
  const queryClient = useQueryClient();
  return () => queryClient.ensureQueryData(pricesQuery).catch(() => undefined);
}

function manageSubscription<S extends z.ZodMiniType>(body: z.input<typeof subscriptionRequestSchema>, schema: S) {
  return apiRequest("/api/subscription-management", schema, { method: "POST", body });
}

export const subscriptionQuery = queryOptions({
  queryKey: [...USER_BILLING_KEY, "subscription"],
  queryFn: () => apiRequest("/api/subscription", subscriptionSchema),
});

export function useSubscription() {
  return useQuery(subscriptionQuery);
}

export function eligibilityQuery(planId: PaidPlan) {
  return queryOptions({
    queryKey: [...USER_BILLING_KEY, "eligibility", planId],
    queryFn: () => manageSubscription({ action: "check_eligibility", planId }, eligibilitySchema),
    // A question asked afresh (POST, never kept offline): offline, the plans show without it.
    meta: { offline: "optional" },
  });
}

export function useEligibility(planId: PaidPlan, enabled: boolean) {
  return useQuery({ ...eligibilityQuery(planId), enabled });
}

/**
 * What paying for `planId` now would do, as the server will credit it (docs/subscriptions.md,
 * "Before paying"): asked only while the plan can be bought, and afresh on every view.
 */
export function useSubscriptionQuote(planId: PaidPlan, enabled: boolean) {
  return useQuery({
    queryKey: [...USER_BILLING_KEY, "quote", planId],
    queryFn: () => manageSubscription({ action: "quote_subscription", planId }, subscriptionQuoteSchema),
    enabled,
    retry: false,
    meta: { offline: "optional" },
  });
}

export function checkEligibility(planId: PaidPlan) {
  return manageSubscription({ action: "check_eligibility", planId }, eligibilitySchema);
}

/** Creates the Paystack transaction for a subscription; the server prices it. */
export function createSubscription(planId: PaidPlan) {
  return manageSubscription({ action: "create_subscription", planId }, checkoutSchema);
}

export function verifySubscriptionPayment(reference: string) {
  return apiRequest(`/api/verify-paystack?${new URLSearchParams({ reference })}`, verifyResponseSchema);
}

export const waitlistQuery = queryOptions({
  queryKey: [...USER_BILLING_KEY, "waitlist"],
  queryFn: () => apiRequest("/api/waitlist", waitlistStatusSchema),
});

export function useWaitlist(enabled: boolean) {
  return useQuery({ ...waitlistQuery, enabled });
}

export function startWaitlistCheckout(plan: PaidPlan) {
  const body: z.input<typeof waitlistCheckoutRequestSchema> = { plan };
  return apiRequest("/api/waitlist/checkout", checkoutSchema, { method: "POST", body });
}

export function verifyWaitlistPayment(reference: string, plan: PaidPlan) {
  const body: z.input<typeof verifyWaitlistRequestSchema> = { reference, type: "waitlist", plan };
  return apiRequest("/api/verify-paystack", verifyResponseSchema, { method: "POST", body });
}

/**
 * The checkout ended for this reference: the server asks Paystack and answers the payment's status
 * (docs/subscriptions.md, "Asking Paystack"). The browser says only that it ended.
 */
export function reportCheckoutClosed(reference: string) {
  return apiRequest(`/api/payments/${encodeURIComponent(reference)}/closed`, checkoutClosedSchema, { method: "POST" });
}

/** Automatic renewal of a card payer's plan (docs/subscriptions.md, "Automatic renewal"). */
export const autoRenewalQuery = queryOptions({
  queryKey: [...USER_BILLING_KEY, "auto-renewal"],
  queryFn: () => apiRequest("/api/subscription/auto-renewal", autoRenewalSchema),
});

export function useAutoRenewal() {
  return useQuery(autoRenewalQuery);
}

/** Turns automatic renewal on or off; the server answers the new state, or why it cannot. */
export function setAutoRenewal(enabled: boolean) {
  return apiRequest("/api/subscription/auto-renewal", autoRenewalSchema, { method: "PUT", body: { enabled } });
}

/** After a credited payment: the plan, the tracks and the waitlist place are all read afresh. */
export function usePaymentCredited() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: meQuery.queryKey }),
      queryClient.invalidateQueries({ queryKey: USER_BILLING_KEY }),
    ]);
}

/** The learner's payments, a page at a time (the server pages them); the page on screen stays while the next loads. */
export function usePaymentHistory(page: number) {
  return useQuery({
    queryKey: [...USER_BILLING_KEY, "payments", { page }],
    queryFn: () => apiRequest(`/api/payments?${new URLSearchParams({ page: String(page) })}`, paymentHistorySchema),
    placeholderData: keepPreviousData,
  });
}

/** The receipt of one of the learner's paid payments; a 404 is an answer, not worth asking again. */
export function useReceipt(reference: string, enabled = true) {
  return useQuery({
    queryKey: [...USER_BILLING_KEY, "receipt", reference],
    queryFn: () => apiRequest(`/api/payments/${encodeURIComponent(reference)}`, receiptSchema),
    retry: false,
    enabled,
  });
}
