// One load run with autocannon: loopback only, a fixed number of connections for a bounded time,
// after a short unmeasured warm-up.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import autocannon from "autocannon";
import { projectRoot } from "./processes.ts";

export type LoadSettings = { connections: number; durationS: number; warmupS: number };

export type LoadTarget = {
  label: string;
  url: string;
  method?: "GET" | "POST";
  /** One Cookie header per connection, handed out in turn (a learner per connection). */
  cookies?: string[];
  /**
   * Fetched once after the run, waiting for its answer: the server finishes the requests still
   * queued when the load stopped before the next measurement starts (a database query, on the app).
   */
  settleUrl?: string;
};

export type LoadResult = {
  label: string;
  requestsPerS: number;
  p50Ms: number;
  p99Ms: number;
  total: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** Status codes other than 2xx, with their counts, e.g. "429 x120". */
  otherStatuses: string;
};

export const autocannonVersion: string = (
  JSON.parse(readFileSync(join(projectRoot, "node_modules", "autocannon", "package.json"), "utf8")) as { version: string }
).version;

async function settle(url: string): Promise<void> {
  const response = await fetch(url, { signal: AbortSignal.timeout(180_000) });
  await response.arrayBuffer();
}

export async function runLoad(target: LoadTarget, settings: LoadSettings): Promise<LoadResult> {
  const method = target.method ?? "GET";
  // A POST carries the site's Origin, as the browser app's do: the app refuses one without it.
  const origin: Record<string, string> = method === "POST" ? { origin: new URL(target.url).origin } : {};
  const baseHeaders: Record<string, string> = method === "POST" ? { "content-length": "0", ...origin } : {};
  const cookies = target.cookies ?? [];
  // One request first, alone: one-time work (the exchange rate that the first GET /api/prices
  // fetches and caches, say) stays out of the figures, and a route that fails is caught here.
  const primed = await fetch(target.url, {
    method,
    headers: { ...origin, ...(cookies[0] ? { cookie: cookies[0] } : {}) },
    signal: AbortSignal.timeout(60_000),
  });
  await primed.arrayBuffer();
  if (!primed.ok) throw new Error(`${method} ${new URL(target.url).pathname} answered ${primed.status} before the load`);
  let nextClient = 0;
  const result = await autocannon({
    url: target.url,
    method,
    connections: settings.connections,
    duration: settings.durationS,
    pipelining: 1,
    timeout: 10,
    headers: baseHeaders,
    ...(settings.warmupS > 0 ? { warmup: { connections: settings.connections, duration: settings.warmupS } } : {}),
    ...(cookies.length > 0
      ? {
          setupClient: (client) => {
            const cookie = cookies[nextClient++ % cookies.length] ?? "";
            client.setHeaders({ ...baseHeaders, cookie });
          },
        }
      : {}),
  });
  if (target.settleUrl) await settle(target.settleUrl);
  const otherStatuses = Object.entries(result.statusCodeStats)
    .filter(([code]) => !code.startsWith("2"))
    .map(([code, { count }]) => `${code} x${count}`)
    .join(", ");
  return {
    label: target.label,
    requestsPerS: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    otherStatuses,
  };
}
