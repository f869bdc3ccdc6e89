// A @fastify/rate-limit store in the database, so that every app server counts the same
// requests (an in-memory counter would let each of N servers allow the limit again).
import { randomUUID } from "node:crypto";
import { and, eq, gt, sql } from "drizzle-orm";
import type { FastifyRequest, RouteOptions } from "fastify";
import type { Db } from "../db/client.ts";
import { rateLimits } from "../db/schema.ts";

type Result = { current: number; ttl: number };
type Callback = (error: Error | null, result?: Result) => void;

/** Counts one request for `key` in a fixed window; one statement, safe under concurrency. */
export async function countRequest(db: Db, key: string, windowMs: number, nowMs: number): Promise<Result> {
  const windowStart = nowMs - windowMs;
  const rows = await db
    .insert(rateLimits)
    .values({ id: randomUUID(), key, count: 1, lastRequest: nowMs })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`case when ${rateLimits.lastRequest} <= ${windowStart} then 1 else ${rateLimits.count} + 1 end`,
        lastRequest: sql`case when ${rateLimits.lastRequest} <= ${windowStart} then ${nowMs} else ${rateLimits.lastRequest} end`,
      },
    })
    .returning({ count: rateLimits.count, windowStartedAt: rateLimits.lastRequest });
  const row = rows[0];
  if (!row) throw new Error("rate limit counter was not written");
  // Requests counted together may carry clocks a few milliseconds apart: a window another one
  // opened "later" still ends within one window of this request.
  return { current: row.count, ttl: Math.min(windowMs, Math.max(0, row.windowStartedAt + windowMs - nowMs)) };
}

/** Gives back one request counted for `key`, when its window is still the one it was counted in. */
export async function releaseRequest(db: Db, key: string, windowMs: number, nowMs: number): Promise<void> {
  await db
    .update(rateLimits)
    .set({ count: sql`greatest(${rateLimits.count} - 1, 0)` })
    .where(and(eq(rateLimits.key, key), gt(rateLimits.lastRequest, nowMs - windowMs)));
}

/** Builds the store class @fastify/rate-limit instantiates; each route gets its own key space. */
export function databaseRateLimitStore(db: Db) {
  return class DatabaseRateLimitStore {
    prefix = "global:";

    incr(key: string, callback: Callback, timeWindow: number) {
      countRequest(db, `${this.prefix}${key}`, timeWindow, Date.now()).then(
        (result) => callback(null, result),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }

    // Typed as the route's options; at run time they also carry the route as `routeInfo`.
    child(routeOptions: RouteOptions & { routeInfo?: RouteOptions }) {
      const route = routeOptions.routeInfo ?? routeOptions;
      const store = new DatabaseRateLimitStore();
      store.prefix = `route:${String(route.method)} ${route.url}:`;
      return store;
    }
  };
}

/** Whether the route's limit is counted per client address: it has no key of its own. */
export function limitedPerAddress(request: FastifyRequest): boolean {
  const limit = request.routeOptions.config.rateLimit;
  return limit !== undefined && limit !== false && limit.keyGenerator === undefined;
}
