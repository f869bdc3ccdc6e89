// The USD -> GHS rate from an open exchange-rate API, cached in the database for an hour (so
// every app server shares it); when the service fails, the last good rate is kept and the
// service is not asked again for a few minutes.
import { inArray } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { z } from "zod";
import type { Db } from "../db/client.ts";
import { config } from "../db/schema.ts";
import type { Metrics } from "../metrics/metrics.ts";

export const RATE_CACHE_MS = 60 * 60 * 1000;
/**
 * After a failed fetch the service is left alone this long: asking on every request would make each
 * page wait for a service that hangs, and keep one that answers 429 shut (docs/integrations.md,
 * "Exchange rate").
 */
export const RETRY_AFTER_FAILURE_MS = 5 * 60 * 1000;
const CACHE_KEY = "exchange_rate";
const FAILURE_KEY = "exchange_rate_failure";

const rateResponseSchema = z.object({
  result: z.literal("success"),
  rates: z.object({ GHS: z.number().positive() }),
});
const cachedRateSchema = z.object({ ghsPerUsd: z.number().positive(), fetchedAt: z.string() });
export type ExchangeRate = z.infer<typeof cachedRateSchema>;
const failureSchema = z.object({ at: z.string() });

export type ExchangeRateDeps = {
  db: Db;
  url: string;
  log: FastifyBaseLogger;
  metrics: Pick<Metrics, "exchangeRateFetchFailed">;
};

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
    const next = { ghsPerUsd: await fetchRate(deps.url), fetchedAt: now.toISOString() };
    await deps.db
      .insert(config)
      .values({ key: CACHE_KEY, value: next })
      .onConflictDoUpdate({ target: config.key, set: { value: next } });
    return next;
  } catch (error) {
    deps.log.warn({ err: error }, "exchange rate unavailable; keeping the last good rate");
    deps.metrics.exchangeRateFetchFailed();
    const failedAt = { at: now.toISOString() };
    await deps.db
      .insert(config)
      .values({ key: FAILURE_KEY, value: failedAt })
      .onConflictDoUpdate({ target: config.key, set: { value: failedAt } });
    return last;
  }
}
