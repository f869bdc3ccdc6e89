// Prices, the signed-in user's subscription and waitlist place, and the calls around a checkout.
// The server prices and credits everything; the browser only asks and shows the answers.
import { keepPreviousData, queryOptions, useQuery, useQueryClient } from "@tanstack/react-query";
import { BILLING_ENDPOINTS } from "../../../shared/contracts/billing.ts";
import type { PaidPlan } from "../../../shared/plans.ts";
import { call } from "../../lib/api.ts";
import { meQuery } from "../../session/session.ts";

/** Everything under this key belongs to the signed-in user and changes with a payment. */
const USER_BILLING_KEY = ["billing", "user"] as const;

export const pricesQuery = queryOptions({
  queryKey: ["billing", "prices"],
  queryFn: () => call(BILLING_ENDPOINTS.prices, {}),
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

export const subscriptionQuery = queryOptions({
  queryKey: [...USER_BILLING_KEY, "subscription"],
  queryFn: () => call(BILLING_ENDPOINTS.subscription, {}),
});

export function useSubscription() {
  return useQuery(subscriptionQuery);
}

export function eligibilityQuery(planId: PaidPlan) {
  return queryOptions({
    queryKey: [...USER_BILLING_KEY, "eligibility", planId],
    queryFn: () => checkEligibility(planId),
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
    queryFn: () => call(BILLING_ENDPOINTS.quoteSubscription, { body: { action: "quote_subscription", planId } }),
    enabled,
    retry: false,
    meta: { offline: "optional" },
  });
}

export function checkEligibility(planId: PaidPlan) {
  return call(BILLING_ENDPOINTS.checkEligibility, { body: { action: "check_eligibility", planId } });
}

/** Creates the Paystack transaction for a subscription; the server prices it. */
export function createSubscription(planId: PaidPlan) {
  return call(BILLING_ENDPOINTS.createSubscription, { body: { action: "create_subscription", planId } });
}

export function verifySubscriptionPayment(reference: string) {
  return call(BILLING_ENDPOINTS.verifySubscription, { query: { reference } });
}

export const waitlistQuery = queryOptions({
  queryKey: [...USER_BILLING_KEY, "waitlist"],
  queryFn: () => call(BILLING_ENDPOINTS.waitlist, {}),
});

export function useWaitlist(enabled: boolean) {
  return useQuery({ ...waitlistQuery, enabled });
}

export function startWaitlistCheckout(plan: PaidPlan) {
  return call(BILLING_ENDPOINTS.waitlistCheckout, { body: { plan } });
}

export function verifyWaitlistPayment(reference: string, plan: PaidPlan) {
  return call(BILLING_ENDPOINTS.verifyWaitlist, { body: { reference, type: "waitlist", plan } });
}

/**
 * The checkout ended for this reference: the server asks Paystack and answers the payment's status
 * (docs/subscriptions.md, "Asking Paystack"). The browser says only that it ended.
 */
export function reportCheckoutClosed(reference: string) {
  return call(BILLING_ENDPOINTS.checkoutClosed, { params: { reference } });
}

/** Automatic renewal of a card payer's plan (docs/subscriptions.md, "Automatic renewal"). */
export const autoRenewalQuery = queryOptions({
  queryKey: [...USER_BILLING_KEY, "auto-renewal"],
  queryFn: () => call(BILLING_ENDPOINTS.autoRenewal, {}),
});

export function useAutoRenewal() {
  return useQuery(autoRenewalQuery);
}

/** Turns automatic renewal on or off; the server answers the new state, or why it cannot. */
export function setAutoRenewal(enabled: boolean) {
  return call(BILLING_ENDPOINTS.setAutoRenewal, { body: { enabled } });
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
    queryFn: () => call(BILLING_ENDPOINTS.history, { query: { page } }),
    placeholderData: keepPreviousData,
  });
}

/** The receipt of one of the learner's paid payments; a 404 is an answer, not worth asking again. */
export function useReceipt(reference: string, enabled = true) {
  return useQuery({
    queryKey: [...USER_BILLING_KEY, "receipt", reference],
    queryFn: () => call(BILLING_ENDPOINTS.receipt, { params: { reference } }),
    retry: false,
    enabled,
  });
}
