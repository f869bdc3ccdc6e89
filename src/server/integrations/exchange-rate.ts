// The USD -> GHS rate from an open exchange-rate API, cached in the database for an hour (so
// every app server shares it); when the service fails, or answers a rate that cannot be right,
// the last good rate is kept and the service is not asked again for a few minutes.
import { inArray } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { z } from "zod";
import type { Db } from "../db/client.ts";
import { config } from "../db/schema.ts";
import type { ExchangeRateRefusal, Metrics } from "../metrics/metrics.ts";

export const RATE_CACHE_MS = 60 * 60 * 1000;
/**
 * After a failed fetch the service is left alone this long: asking on every request would make each
 * page wait for a service that hangs, and keep one that answers 429 shut (docs/integrations.md,
 * "Exchange rate").
 */
export const RETRY_AFTER_FAILURE_MS = 5 * 60 * 1000;
/**
 * A rate is used only within this band of cedis per dollar, and within MAX_RATE_CHANGE of the last
 * good rate: a wrong answer from the service must not price a month at a few pesewas
 * (docs/integrations.md, "Exchange rate").
 */
export const PLAUSIBLE_GHS_PER_USD = { min: 5, max: 100 } as const;
export const MAX_RATE_CHANGE = 0.2;
const CACHE_KEY = "exchange_rate";
const FAILURE_KEY = "exchange_rate_failure";

const rateResponseSchema = z.object({
  result: z.literal("success"),
  rates: z.object({ GHS: z.number().positive() }),
});
// A cached rate outside the band (written before the band was checked) is no last good rate.
const cachedRateSchema = z.object({
  ghsPerUsd: z.number().min(PLAUSIBLE_GHS_PER_USD.min).max(PLAUSIBLE_GHS_PER_USD.max),
  fetchedAt: z.string(),
});
export type ExchangeRate = z.infer<typeof cachedRateSchema>;
const failureSchema = z.object({ at: z.string() });

export type ExchangeRateDeps = {
  db: Db;
  url: string;
  log: FastifyBaseLogger;
  metrics: Pick<Metrics, "exchangeRateFetchFailed" | "exchangeRateRefused">;
};

/** Why a fetched rate may not be used, or null when it may. */
function rateRefusal(ghsPerUsd: number, last: ExchangeRate | null): ExchangeRateRefusal | null {
  if (!(ghsPerUsd >= PLAUSIBLE_GHS_PER_USD.min && ghsPerUsd <= PLAUSIBLE_GHS_PER_USD.max)) return "out_of_band";
  if (last && Math.abs(ghsPerUsd - last.ghsPerUsd) > MAX_RATE_CHANGE * last.ghsPerUsd) return "too_far_from_last";
  return null;
}

class RefusedRate extends Error {
  constructor(
    readonly reason: ExchangeRateRefusal,
    readonly ghsPerUsd: number,
  ) {
    super(`exchange rate ${ghsPerUsd} refused: ${reason}`);
  }
}

async function fetchRate(url: string): Promise<number> {
  const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
  const parsed = rateResponseSchema.safeParse(await response.json().catch(() => null));
  if (!response.ok || !parsed.success) throw new Error(`exchange-rate service answered ${response.status}`);
  return parsed.data.rates.GHS;
}

/** The current rate, or null when none was ever fetched and the service is down. */
export async function currentRate(deps: ExchangeRateDeps, now: Date): Promise<ExchangeRate | null> {
  const rows = await deps.db.select().from(config).where(inArray(config.key, [CACHE_KEY, FAILURE_KEY]));
  const valueOf = (key: string) => rows.find((row) => row.key === key)?.value;
  const age = (iso: string) => now.getTime() - Date.parse(iso);
  const cached = cachedRateSchema.safeParse(valueOf(CACHE_KEY));
  const last = cached.success ? cached.data : null;
  if (last && age(last.fetchedAt) < RATE_CACHE_MS) return last;
  const failure = failureSchema.safeParse(valueOf(FAILURE_KEY));
  if (failure.success && age(failure.data.at) < RETRY_AFTER_FAILURE_MS) return last;

  // One fetch at a time per service: a burst of requests after the cache expires waits for the
  // same answer instead of each asking (and, if the service is slow, each timing out).
  const pending = refreshing.get(deps.url);
  if (pending) return pending;
  const refresh = refreshRate(deps, now, last).finally(() => refreshing.delete(deps.url));
  refreshing.set(deps.url, refresh);
  return refresh;
}

const refreshing = new Map<string, Promise<ExchangeRate | null>>();

async function refreshRate(deps: ExchangeRateDeps, now: Date, last: ExchangeRate | null): Promise<ExchangeRate | null> {
  try {
    const ghsPerUsd = await fetchRate(deps.url);
    const refusal = rateRefusal(ghsPerUsd, last);
    if (refusal) throw new RefusedRate(refusal, ghsPerUsd);
    const next = { ghsPerUsd, fetchedAt: now.toISOString() };
    await deps.db
      .insert(config)
      .values({ key: CACHE_KEY, value: next })
      .onConflictDoUpdate({ target: config.key, set: { value: next } });
    return next;
  } catch (error) {
    if (error instanceof RefusedRate) {
      const { reason, ghsPerUsd } = error;
      deps.log.warn({ reason, ghsPerUsd, lastGoodRate: last?.ghsPerUsd ?? null }, "exchange rate refused; keeping the last good rate");
      deps.metrics.exchangeRateRefused(reason);
    } else {
      deps.log.warn({ err: error }, "exchange rate unavailable; keeping the last good rate");
      deps.metrics.exchangeRateFetchFailed();
    }
    const failedAt = { at: now.toISOString() };
    await deps.db
      .insert(config)
      .values({ key: FAILURE_KEY, value: failedAt })
      .onConflictDoUpdate({ target: config.key, set: { value: failedAt } });
    return last;
  }
}
