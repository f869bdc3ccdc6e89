// Plans, payments through Paystack, refunds and the waitlist (docs/subscriptions.md): the routes,
// the mails and charges done as jobs, and the schedules that expire, renew and reconcile.
import type { Feature, FeatureDeps } from "../../feature.ts";
import type { Schedule } from "../../jobs/scheduler.ts";
import { AUTO_RENEW_JOB, AUTO_RENEWAL_FAILED_JOB, claimAutoRenewals, runAutoRenewalJob } from "./billing-auto-renewal.ts";
import { RECEIPT_JOB } from "./billing-crediting.ts";
import { createBillingJobHandlers } from "./billing-emails.ts";
import { EXPIRY_REMINDER_JOB, expireSubscriptions } from "./billing-expiry.ts";
import { queueReconciliation, RECONCILE_JOB, reconcilePayments } from "./billing-reconciliation.ts";
import { sweepRefunds } from "./billing-refund-sweep.ts";
import { REFUND_JOB } from "./billing-refunds.ts";
import { billingRoutes } from "./billing.routes.ts";

export const BILLING_SCHEDULES: readonly Schedule[] = [
  // Paid months that are over end, and their reminders are queued (each once: billing-expiry.ts).
  { name: "expiry", everyMs: 15 * 60_000, run: (tx, now) => expireSubscriptions(tx, now) },
  // Card payers who chose automatic renewal: today's charges are claimed, once each, and charged by
  // a job outside this transaction (billing-auto-renewal.ts).
  { name: "auto-renewal", everyMs: 15 * 60_000, run: (tx, now) => claimAutoRenewals(tx, now) },
  // Payments pending for over 10 minutes are asked about at Paystack: this queues the run, a job,
  // so that Paystack is not asked inside this transaction (billing-reconciliation.ts).
  { name: "payment-reconciliation", everyMs: 5 * 60_000, run: (tx, now) => queueReconciliation(tx, now) },
];

export function billingFeature({ db, env, log, mailer, paystack, metrics, jobs, sessions }: FeatureDeps): Feature {
  const emails = createBillingJobHandlers({ db, mailer, appUrl: env.appUrl, business: env.business });
  const payments = { db, paystack, metrics, log };
  return {
    routes: billingRoutes({ db, env, log, paystack, metrics, jobs, sessions }),
    jobs: {
      [RECEIPT_JOB]: emails.receipt,
      [EXPIRY_REMINDER_JOB]: emails.expiryReminder,
      [REFUND_JOB]: emails.refund,
      [AUTO_RENEWAL_FAILED_JOB]: emails.autoRenewalFailed,
      // Claimed by the auto-renewal schedule; Paystack is asked here, outside it.
      [AUTO_RENEW_JOB]: async (payload) => {
        await runAutoRenewalJob({ ...payments, env }, payload, new Date());
      },
      // Queued by the payment-reconciliation schedule; Paystack is asked here, outside it.
      [RECONCILE_JOB]: async () => {
        await reconcilePayments(payments, new Date());
        await sweepRefunds(payments, new Date());
      },
    },
    schedules: BILLING_SCHEDULES,
  };
}
