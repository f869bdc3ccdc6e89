// The part of autocannon's API (9.x, which ships no types) that the benchmarks use.
declare module "autocannon" {
  import type { EventEmitter } from "node:events";

  export type Histogram = {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p1: number;
    p2_5: number;
    p10: number;
    p25: number;
    p50: number;
    p75: number;
    p90: number;
    p97_5: number;
    p99: number;
    p99_9: number;
    p99_99: number;
    p99_999: number;
  };

  export type Result = {
    url: string;
    connections: number;
    pipelining: number;
    duration: number;
    errors: number;
    timeouts: number;
    mismatches: number;
    non2xx: number;
    resets: number;
    "2xx": number;
    statusCodeStats: Record<string, { count: number }>;
    /** Milliseconds. */
    latency: Histogram & { totalCount: number };
    /** Requests per second sample (one a second); `total` is every completed request. */
    requests: Histogram & { sent: number };
    throughput: Histogram;
  };

  export type Client = {
    setHeaders(headers: Record<string, string>): void;
  };

  /** One request as autocannon is about to send it; a `setupRequest` returns it changed. */
  export type Request = { method?: string; path?: string; headers?: Record<string, string>; body?: string };

  export type Options = {
    url: string;
    connections?: number;
    duration?: number;
    pipelining?: number;
    timeout?: number;
    method?: "GET" | "POST" | "PUT" | "DELETE" | "PATCH" | "HEAD";
    headers?: Record<string, string>;
    body?: string;
    setupClient?: (client: Client) => void;
    requests?: { setupRequest?: (request: Request) => Request }[];
    warmup?: { connections?: number; duration?: number };
  };

  export type Instance = EventEmitter & PromiseLike<Result>;

  function autocannon(options: Options): Instance;
  export default autocannon;
}
