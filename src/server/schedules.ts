// Every schedule of the app, wired here because a schedule may run any feature's work; the
// scheduler itself (jobs/scheduler.ts) only knows how to run one once per period.
import { claimAutoRenewals } from "./features/billing/billing-auto-renewal.ts";
import { expireSubscriptions } from "./features/billing/billing-expiry.ts";
import { queueReconciliation } from "./features/billing/billing-reconciliation.ts";
import { deleteExpiredRecords } from "./jobs/retention.ts";
import type { Schedule } from "./jobs/scheduler.ts";

/** Every schedule of the app. */
export const SCHEDULES: readonly Schedule[] = [
  // Paid months that are over end, and their reminders are queued (each once: features/billing/billing-expiry.ts).
  { name: "expiry", everyMs: 15 * 60_000, run: (tx, now) => expireSubscriptions(tx, now) },
  // Card payers who chose automatic renewal: today's charges are claimed, once each, and charged by
  // a job outside this transaction (features/billing/billing-auto-renewal.ts).
  { name: "auto-renewal", everyMs: 15 * 60_000, run: (tx, now) => claimAutoRenewals(tx, now) },
  // Payments pending for over 10 minutes are asked about at Paystack: this queues the run, a job,
  // so that Paystack is not asked inside this transaction (features/billing/billing-reconciliation.ts).
  { name: "payment-reconciliation", everyMs: 5 * 60_000, run: (tx, now) => queueReconciliation(tx, now) },
  // Finished jobs, spent rate-limit counters, old sign-in failures, expired tokens (jobs/retention.ts).
  { name: "retention", everyMs: 60 * 60_000, run: (tx, now) => deleteExpiredRecords(tx, now) },
];

