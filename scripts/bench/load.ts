// Load runs with autocannon: loopback only, a fixed number of connections for a bounded time,
// after a short unmeasured warm-up; with the CPU time the server spent on the measured part. A
// route is measured in rounds, each after a round of the ceiling (the bare hello-world), so that
// its share of the ceiling compares two measurements taken side by side.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import autocannon, { type Options } from "autocannon";
import { projectRoot } from "./processes.ts";

export type LoadSettings = { connections: number; durationS: number; warmupS: number };

export type LoadTarget = {
  label: string;
  url: string;
  method?: "GET" | "POST";
  /** One Cookie header per connection, handed out in turn (a learner per connection). */
  cookies?: string[];
  /**
   * A JSON body and Cookie header for each request, by its number (quiz answers go round the
   * learners and the questions); instead of `cookies`.
   */
  requestAt?: (index: number) => { cookie: string; body: string };
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
  /** Answers with status 429. */
  tooMany: number;
  /**
   * The server's CPU time (user + system, all its threads) during the measured part over the
   * requests answered, in milliseconds; NaN when the process's CPU time cannot be read.
   */
  cpuMsPerRequest: number;
};

export const autocannonVersion: string = (
  JSON.parse(readFileSync(join(projectRoot, "node_modules", "autocannon", "package.json"), "utf8")) as { version: string }
).version;

async function settle(url: string): Promise<void> {
  const response = await fetch(url, { signal: AbortSignal.timeout(180_000) });
  await response.arrayBuffer();
}

/**
 * `cpuSeconds` reads the server's CPU time so far (Running.cpuSeconds): read just before and after
 * the measured part, the warm-up being a run of its own.
 */
export async function runLoad(
  target: LoadTarget,
  settings: LoadSettings,
  cpuSeconds: () => number = () => Number.NaN,
): Promise<LoadResult> {
  const method = target.method ?? "GET";
  // A POST carries the site's Origin, as the browser app's do: the app refuses one without it.
  const origin: Record<string, string> = method === "POST" ? { origin: new URL(target.url).origin } : {};
  const json: Record<string, string> = target.requestAt ? { "content-type": "application/json" } : {};
  const baseHeaders: Record<string, string> =
    method === "POST" ? (target.requestAt ? { ...origin, ...json } : { "content-length": "0", ...origin }) : {};
  const cookies = target.cookies ?? [];
  const first = target.requestAt?.(0);
  // One request first, alone: one-time work (the exchange rate that the first GET /api/prices
  // fetches and caches, say) stays out of the figures, and a route that fails is caught here.
  const primed = await fetch(target.url, {
    method,
    headers: { ...origin, ...json, ...(first ? { cookie: first.cookie } : cookies[0] ? { cookie: cookies[0] } : {}) },
    ...(first ? { body: first.body } : {}),
    signal: AbortSignal.timeout(60_000),
  });
  await primed.arrayBuffer();
  // A quiz answer past the limit per question (an earlier pass's) is a 429: still an answer.
  const expected = primed.ok || (target.requestAt !== undefined && primed.status === 429);
  if (!expected) throw new Error(`${method} ${new URL(target.url).pathname} answered ${primed.status} before the load`);
  let nextClient = 0;
  let nextRequest = 1;
  const options = (durationS: number): Options => ({
    url: target.url,
    method,
    connections: settings.connections,
    duration: durationS,
    pipelining: 1,
    timeout: 10,
    headers: baseHeaders,
    ...(cookies.length > 0
      ? {
          setupClient: (client) => {
            const cookie = cookies[nextClient++ % cookies.length] ?? "";
            client.setHeaders({ ...baseHeaders, cookie });
          },
        }
      : {}),
    ...(target.requestAt
      ? {
          requests: [
            {
              setupRequest: (request) => {
                const { cookie, body } = target.requestAt?.(nextRequest++) ?? { cookie: "", body: "" };
                return { ...request, headers: { ...baseHeaders, cookie }, body };
              },
            },
          ],
        }
      : {}),
  });
  if (settings.warmupS > 0) await autocannon(options(settings.warmupS));
  const cpuBefore = cpuSeconds();
  const result = await autocannon(options(settings.durationS));
  const cpuSpent = cpuSeconds() - cpuBefore;
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
    tooMany: result.statusCodeStats["429"]?.count ?? 0,
    cpuMsPerRequest: result.requests.total > 0 ? (cpuSpent * 1000) / result.requests.total : Number.NaN,
  };
}

/** What is loaded and how its server's CPU time is read. */
export type Loaded = { target: LoadTarget; cpuSeconds: () => number };

/** The round with the median requests per second (the lower of the two middle ones for an even count). */
export function medianRound(rounds: LoadResult[]): LoadResult {
  const sorted = [...rounds].sort((a, b) => a.requestsPerS - b.requestsPerS);
  const median = sorted[Math.floor((sorted.length - 1) / 2)];
  if (!median) throw new Error("no round was measured");
  return median;
}

export type Beside = {
  /** The route's median round. */
  route: LoadResult;
  /** The ceiling's median round, of those measured beside the route's; null without a ceiling. */
  ceiling: LoadResult | null;
  /** Every round, in the order run. */
  routeRounds: LoadResult[];
  ceilingRounds: LoadResult[];
};

/**
 * `rounds` rounds of the route, each right after a round of the ceiling: machine speed drifts over
 * minutes (the hello-world alone gave 45,000 to 96,000 requests a second from one run to another),
 * and a share compares the two under the same conditions. The route is warmed up once, before its first round.
 */
export async function runBeside(
  route: Loaded,
  ceiling: Loaded | null,
  settings: LoadSettings & { rounds: number },
): Promise<Beside> {
  const routeRounds: LoadResult[] = [];
  const ceilingRounds: LoadResult[] = [];
  for (let round = 0; round < settings.rounds; round++) {
    if (ceiling) ceilingRounds.push(await runLoad(ceiling.target, { ...settings, warmupS: 0 }, ceiling.cpuSeconds));
    const warmupS = round === 0 ? settings.warmupS : 0;
    routeRounds.push(await runLoad(route.target, { ...settings, warmupS }, route.cpuSeconds));
  }
  return {
    route: medianRound(routeRounds),
    ceiling: ceilingRounds.length > 0 ? medianRound(ceilingRounds) : null,
    routeRounds,
    ceilingRounds,
  };
}
