// What /metrics reports (docs/operations.md, Observability), on a registry of this app's own:
// tests build many apps in one process, and prom-client's global registry would mix them.
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import type { PoolUse } from "../db/client.ts";

/** The app's instruments, passed to the parts that count something; none reads a global. */
export type Metrics = {
  registry: Registry;
  /** One answered request; `route` is the route's pattern, never the raw URL (bounded labels). */
  observeRequest(method: string, route: string, statusCode: number, seconds: number): void;
  jobFailed(kind: string): void;
  /** Called once per payment, when it is credited (never for a replayed webhook or verify). */
  paymentCredited(payment: { kind: string; plan: string; amountMinor: number }): void;
  /** One pending payment asked about at Paystack by reconciliation, by what came of it. */
  paymentReconciled(outcome: string): void;
  /** An automatic renewal charge, by what came of it (docs/subscriptions.md, "Automatic renewal"). */
  autoRenewal(outcome: string): void;
  /** A pending refund asked about at Paystack (docs/subscriptions.md, "Refunds"). */
  refundReconciled(outcome: string): void;
  exchangeRateFetchFailed(): void;
  /** One SMS handed to Hubtel, by kind and outcome (accepted, failed) (docs/integrations.md, "Hubtel SMS"). */
  smsSent(kind: string, outcome: "accepted" | "failed"): void;
  /** A fetched rate refused as implausible (docs/integrations.md, "Exchange rate"). */
  exchangeRateRefused(reason: ExchangeRateRefusal): void;
};

/** Why a fetched rate was refused: outside the plausible band, or too far from the last good rate. */
export const EXCHANGE_RATE_REFUSALS = ["out_of_band", "too_far_from_last"] as const;
export type ExchangeRateRefusal = (typeof EXCHANGE_RATE_REFUSALS)[number];

/** Read at scrape time, so nothing is polled between scrapes. */
export type MetricSources = {
  /** The pool's connections; null on PGlite (no pool): the pool gauges are then left out. */
  poolUse(): PoolUse | null;
  /** Pending jobs by kind. */
  pendingJobs(): Promise<Record<string, number>>;
  /** Every kind the runner handles, reported as 0 when none is pending. */
  jobKinds(): readonly string[];
  /** The outbox's messages not sent, by status (emails/outbox.ts). */
  unsentMail(): Promise<Record<string, number>>;
};

// Prometheus' defaults start at 5 ms; a cached catalogue read answers in well under 1 ms.
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export function createMetrics(sources: MetricSources): Metrics {
  const registry = new Registry();
  const registers = [registry];

  const requestDuration = new Histogram({
    name: "http_request_duration_seconds",
    help: "Time to answer a request, by method, route pattern (unmatched: no route) and status code.",
    labelNames: ["method", "route", "status_code"] as const,
    buckets: DURATION_BUCKETS,
    registers,
  });
  if (sources.poolUse() !== null) registerPoolGauges(registers, () => sources.poolUse());
  new Gauge({
    name: "jobs_pending",
    help: "Jobs waiting to run (due or scheduled), by kind, counted in the database at scrape time.",
    labelNames: ["kind"] as const,
    registers,
    async collect() {
      const counts = await sources.pendingJobs();
      this.reset();
      for (const kind of sources.jobKinds()) this.set({ kind }, 0);
      for (const [kind, count] of Object.entries(counts)) this.set({ kind }, count);
    },
  });
  new Gauge({
    name: "mail_unsent",
    help: "Emails in the outbox not sent, by status (pending, sending, failing: tried again; failed: given up), counted in the database at scrape time.",
    labelNames: ["status"] as const,
    registers,
    async collect() {
      const counts = await sources.unsentMail();
      this.reset();
      for (const [status, count] of Object.entries(counts)) this.set({ status }, count);
    },
  });
  const jobFailures = new Counter({
    name: "job_failures_total",
    help: "Job attempts that failed (each is retried until its attempts run out), by kind.",
    labelNames: ["kind"] as const,
    registers,
  });
  const paymentsCredited = new Counter({
    name: "payments_credited_total",
    help: "Payments credited to a learner, by kind (subscription, waitlist) and plan.",
    labelNames: ["kind", "plan"] as const,
    registers,
  });
  const paymentsCreditedPesewas = new Counter({
    name: "payments_credited_pesewas_total",
    help: "Amount of the payments credited, in pesewas (GHS / 100), by kind and plan.",
    labelNames: ["kind", "plan"] as const,
    registers,
  });
  const paymentsReconciled = new Counter({
    name: "payments_reconciled_total",
    help: "Pending payments asked about at Paystack by reconciliation, by outcome (credited, failed, abandoned, pending, unavailable, ...).",
    labelNames: ["outcome"] as const,
    registers,
  });
  const refundsReconciled = new Counter({
    name: "refunds_reconciled_total",
    help: "Pending refunds asked about at Paystack by reconciliation, by outcome (counted, updated, pending, never-reached, unavailable).",
    labelNames: ["outcome"] as const,
    registers,
  });
  const autoRenewals = new Counter({
    name: "auto_renewals_total",
    help: "Automatic renewal charges of saved cards, by outcome (success, failed, unavailable, pending, cancelled).",
    labelNames: ["outcome"] as const,
    registers,
  });
  const exchangeRateFailures = new Counter({
    name: "exchange_rate_fetch_failures_total",
    help: "Failed fetches of the USD to GHS rate (the last good rate is kept).",
    registers,
  });
  const exchangeRateRefusals = new Counter({
    name: "exchange_rate_refused_total",
    help: "Fetched USD to GHS rates refused as implausible, by reason (the last good rate is kept).",
    labelNames: ["reason"] as const,
    registers,
  });
  const smsSent = new Counter({
    name: "sms_sent_total",
    help: "SMS handed to Hubtel (or the development mailbox), by kind and outcome (accepted, failed: retried).",
    labelNames: ["kind", "outcome"] as const,
    registers,
  });
  for (const reason of EXCHANGE_RATE_REFUSALS) exchangeRateRefusals.inc({ reason }, 0);

  return {
    registry,
    observeRequest: (method, route, statusCode, seconds) =>
      requestDuration.observe({ method, route, status_code: statusCode }, seconds),
    jobFailed: (kind) => jobFailures.inc({ kind }),
    smsSent: (kind, outcome) => smsSent.inc({ kind, outcome }),
    paymentCredited: ({ kind, plan, amountMinor }) => {
      paymentsCredited.inc({ kind, plan });
      paymentsCreditedPesewas.inc({ kind, plan }, amountMinor);
    },
    paymentReconciled: (outcome) => paymentsReconciled.inc({ outcome }),
    refundReconciled: (outcome) => refundsReconciled.inc({ outcome }),
    autoRenewal: (outcome) => autoRenewals.inc({ outcome }),
    exchangeRateFetchFailed: () => exchangeRateFailures.inc(),
    exchangeRateRefused: (reason) => exchangeRateRefusals.inc({ reason }),
  };
}

function registerPoolGauges(registers: Registry[], poolUse: () => PoolUse | null) {
  const gauge = (name: string, help: string, read: (use: PoolUse) => number) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        const use = poolUse();
        if (use) this.set(read(use));
      },
    });
  gauge("db_pool_connections", "Open connections in the PostgreSQL pool.", (use) => use.total);
  gauge("db_pool_idle_connections", "Open connections not running a query.", (use) => use.idle);
  gauge("db_pool_waiting_requests", "Queries waiting for a connection (the pool is exhausted).", (use) => use.waiting);
}
