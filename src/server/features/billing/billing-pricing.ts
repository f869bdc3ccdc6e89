// Pricing: what each plan costs, the program's own price (else the defaults) at the cached
// exchange rate. The prices route shows these quotes and checkout charges them: one place to price.
import { inArray } from "drizzle-orm";
import {
  cediAmountPesewas,
  DEFAULT_SUBSCRIPTION_USD,
  DEFAULT_WAITLIST_USD,
  nextCohort,
  WAITLIST_FALLBACK_RATE,
} from "../../../shared/billing.ts";
import type { Prices } from "../../../shared/contracts/billing.ts";
import { PAID_PLANS, type PaidPlan } from "../../../shared/plans.ts";
import type { Db } from "../../db/client.ts";
import { programs } from "../../db/schema.ts";
import { currentRate, type ExchangeRate } from "../../integrations/exchange-rate.ts";
import type { BillingDeps, Kind } from "./billing.service.ts";

function rateNow(deps: BillingDeps, now: Date): Promise<ExchangeRate | null> {
  return currentRate({ db: deps.db, url: deps.env.exchangeRateUrl, log: deps.log, metrics: deps.metrics }, now);
}

async function programPricesUsdCents(db: Db): Promise<Partial<Record<PaidPlan, number>>> {
  const rows = await db
    .select({ id: programs.id, cents: programs.priceUsdCents })
    .from(programs)
    .where(inArray(programs.id, [...PAID_PLANS]));
  return Object.fromEntries(rows.filter((r) => r.cents !== null).map((r) => [r.id, r.cents ?? 0]));
}

/** What quotes are made from, read once a request: the cached rate and the programs' prices. */
export type PriceBook = { rate: ExchangeRate | null; programUsdCents: Partial<Record<PaidPlan, number>> };

export async function loadPriceBook(deps: BillingDeps, now: Date): Promise<PriceBook> {
  const [rate, programUsdCents] = await Promise.all([rateNow(deps, now), programPricesUsdCents(deps.db)]);
  return { rate, programUsdCents };
}

/** A plan's price: USD cents, and GHS pesewas at `ghsPerUsd` unless there is no rate to use. */
export type Quote =
  | { usdCents: number; ghsPerUsd: number; ghsPesewas: number }
  | { usdCents: number; ghsPerUsd: null; ghsPesewas: null };

/**
 * The server's price for a plan and kind. USD: the program's price, else the spec's defaults.
 * GHS: at the cached rate; without one the waitlist uses its fallback rate and a subscription
 * has no cedi price.
 */
export function quote(book: PriceBook, kind: Kind, plan: PaidPlan): Quote {
  const defaultUsd = (kind === "waitlist" ? DEFAULT_WAITLIST_USD : DEFAULT_SUBSCRIPTION_USD)[plan];
  const usdCents = book.programUsdCents[plan] ?? Math.round(defaultUsd * 100);
  const ghsPerUsd = book.rate?.ghsPerUsd ?? (kind === "waitlist" ? WAITLIST_FALLBACK_RATE : null);
  if (ghsPerUsd === null) return { usdCents, ghsPerUsd: null, ghsPesewas: null };
  return { usdCents, ghsPerUsd, ghsPesewas: cediAmountPesewas(usdCents / 100, ghsPerUsd) };
}

/** GET /api/prices: every plan's quote, in dollars and cedis, and how payments are taken. */
export async function getPrices(deps: BillingDeps, now: Date): Promise<Prices> {
  const book = await loadPriceBook(deps, now);
  const price = (kind: Kind, plan: PaidPlan) => {
    const { usdCents, ghsPesewas } = quote(book, kind, plan);
    return { usd: usdCents / 100, ghs: ghsPesewas === null ? null : ghsPesewas / 100 };
  };
  const { paystack } = deps.env;
  return {
    rate: { ghsPerUsd: book.rate?.ghsPerUsd ?? null, fetchedAt: book.rate?.fetchedAt ?? null },
    subscription: { intermediate: price("subscription", "intermediate"), advanced: price("subscription", "advanced") },
    waitlist: { intermediate: price("waitlist", "intermediate"), advanced: price("waitlist", "advanced") },
    cohort: nextCohort(now),
    payments: {
      enabled: paystack.mode !== "disabled",
      testMode: paystack.mode === "simulator",
      inlineScriptUrl: paystack.mode === "disabled" ? null : paystack.inlineScriptUrl,
    },
  };
}
