// Prometheus metrics at /metrics (docs/operations.md, "Observability"): there only with METRICS_TOKEN, to its
// bearer only, in every mode; request durations by route pattern, the job queue, the pool, and
// exchange-rate failures. Payments: metrics-payments.api.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readEnv } from "../env.ts";
import { CONTACT_FORWARD_JOB } from "../features/contact/contact.service.ts";
import { EXPIRY_REMINDER_JOB } from "../features/billing/billing-expiry.ts";
import { enqueueJob } from "../jobs/queue.ts";
import { freePort } from "../testing/child-process-env.ts";
import { hasMetric, metricValue, scrapeMetrics, TEST_METRICS_TOKEN } from "../testing/metrics.ts";
import { createTestApp, type TestApp } from "../testing/test-app.ts";
import { oneCharacterOff, randomSecret } from "../testing/secrets.ts";

const PRODUCTION = { NODE_ENV: "production", AUTH_SECRET: randomSecret() };

describe("/metrics without METRICS_TOKEN", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ seed: false });
  });
  afterAll(() => t.close());

  it.each([
    ["no credentials", {}],
    ["a bearer token", { authorization: `Bearer ${TEST_METRICS_TOKEN}` }],
  ])("does not exist: a JSON 404 with %s", async (_, headers) => {
    const response = await t.app.inject({ method: "GET", url: "/metrics", headers });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      error: { code: "NOT_FOUND", message: "No route for GET /metrics.", requestId: response.headers["x-request-id"] },
    });
  });
});

describe.each([
  ["outside production", {}],
  ["in production", PRODUCTION],
])("/metrics with METRICS_TOKEN, %s", (_, mode) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ seed: false, env: { ...mode, METRICS_TOKEN: TEST_METRICS_TOKEN } });
  });
  afterAll(() => t.close());

  it.each([
    ["no Authorization header", undefined],
    ["a wrong token", `Bearer ${oneCharacterOff(TEST_METRICS_TOKEN)}`],
    ["a longer token", `Bearer ${TEST_METRICS_TOKEN}x`],
    ["the token without the Bearer scheme", TEST_METRICS_TOKEN],
    ["the token as Basic credentials", `Basic ${TEST_METRICS_TOKEN}`],
  ])("refuses %s with 401", async (_, authorization) => {
    const response = await t.app.inject({
      method: "GET",
      url: "/metrics",
      headers: authorization === undefined ? {} : { authorization },
    });
    expect(response.statusCode).toBe(401);
    expect(response.headers["www-authenticate"]).toBe("Bearer");
    expect(response.json()).toEqual({
      error: { code: "UNAUTHENTICATED", message: "The metrics token is required.", requestId: response.headers["x-request-id"] },
    });
    expect(response.body).not.toContain("http_request_duration_seconds");
  });

  it("answers the token's bearer with Prometheus' text exposition, process metrics included", async () => {
    const response = await t.app.inject({
      method: "GET",
      url: "/metrics",
      headers: { authorization: `Bearer ${TEST_METRICS_TOKEN}` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.headers["cache-control"]).toBe("no-store");
    expect(response.body).toContain("# TYPE http_request_duration_seconds histogram");
    expect(hasMetric(response.body, "process_cpu_user_seconds_total")).toBe(true);
    expect(hasMetric(response.body, "nodejs_eventloop_lag_seconds")).toBe(true);
  });
});

describe("what /metrics reports", () => {
  let t: TestApp;
  let deadRateService = "";
  beforeAll(async () => {
    // Nothing listens there: every fetch of the exchange rate fails.
    deadRateService = `http://127.0.0.1:${await freePort()}/v6/latest/USD`;
    t = await createTestApp({ env: { METRICS_TOKEN: TEST_METRICS_TOKEN, EXCHANGE_RATE_URL: deadRateService } });
  });
  afterAll(() => t.close());

  it("times requests by method, route pattern (never the raw URL) and status", async () => {
    const count = (labels: Record<string, string>) => async () =>
      metricValue(await scrapeMetrics(t), "http_request_duration_seconds_count", labels);
    const programs = count({ method: "GET", route: "/api/programs", status_code: "200" });
    const track = count({ method: "GET", route: "/api/programs/:track", status_code: "401" });
    const unmatched = count({ method: "GET", route: "unmatched", status_code: "404" });
    const before = { programs: await programs(), track: await track(), unmatched: await unmatched() };

    expect((await t.app.inject({ method: "GET", url: "/api/programs" })).statusCode).toBe(200);
    expect((await t.app.inject({ method: "GET", url: "/api/programs" })).statusCode).toBe(200);
    expect((await t.app.inject({ method: "GET", url: "/api/programs/beginner" })).statusCode).toBe(401);
    expect((await t.app.inject({ method: "GET", url: "/api/no-such-thing-4711" })).statusCode).toBe(404);

    expect(await programs()).toBe(before.programs + 2);
    expect(await track()).toBe(before.track + 1);
    expect(await unmatched()).toBe(before.unmatched + 1);
    const text = await scrapeMetrics(t);
    expect(text).not.toContain("beginner");
    expect(text).not.toContain("no-such-thing-4711");
    expect(metricValue(text, "http_request_duration_seconds_bucket", { route: "/api/programs", le: "+Inf" })).toBeGreaterThanOrEqual(2);
  });

  it("counts pending jobs by kind in the database, every kind the runner handles included", async () => {
    const pending = async (kind: string) => metricValue(await scrapeMetrics(t), "jobs_pending", { kind });
    const before = await pending(CONTACT_FORWARD_JOB);
    await enqueueJob(t.database.db, CONTACT_FORWARD_JOB, { name: "Ama", email: "ama@example.com", message: "Hi" });
    await enqueueJob(t.database.db, CONTACT_FORWARD_JOB, { name: "Kofi", email: "kofi@example.com", message: "Hi" });
    expect(await pending(CONTACT_FORWARD_JOB)).toBe(before + 2);
    expect(hasMetric(await scrapeMetrics(t), "jobs_pending", { kind: EXPIRY_REMINDER_JOB })).toBe(true);

    await t.services.jobs.runDue(); // no CONTACT_WEBHOOK_URL: forwarding is skipped, the jobs are done
    expect(await pending(CONTACT_FORWARD_JOB)).toBe(0);
  });

  it("counts a failed job attempt by kind", async () => {
    const failures = async () => metricValue(await scrapeMetrics(t), "job_failures_total", { kind: "test.no-handler" });
    expect(await failures()).toBe(0);
    await enqueueJob(t.database.db, "test.no-handler", {});
    expect(await t.services.jobs.runDue()).toBe(1);
    expect(await failures()).toBe(1);
    // Failed once, it waits to be retried: still pending.
    expect(metricValue(await scrapeMetrics(t), "jobs_pending", { kind: "test.no-handler" })).toBe(1);
  });

  it("counts a failed exchange-rate fetch", async () => {
    const failures = async () => metricValue(await scrapeMetrics(t), "exchange_rate_fetch_failures_total");
    const before = await failures();
    const prices = await t.app.inject({ method: "GET", url: "/api/prices" });
    expect(prices.statusCode).toBe(200);
    expect(await failures()).toBe(before + 1);
  });

  it("reports the PostgreSQL pool's connections, and no pool on PGlite", async () => {
    const text = await scrapeMetrics(t);
    if (t.database.kind === "postgres") {
      expect(metricValue(text, "db_pool_connections")).toBeGreaterThanOrEqual(1);
      expect(hasMetric(text, "db_pool_idle_connections")).toBe(true);
      expect(metricValue(text, "db_pool_waiting_requests")).toBe(0);
    } else {
      expect(text).not.toContain("db_pool_");
    }
  });
});

describe("METRICS_TOKEN", () => {
  it.each([
    ["too short", "x".repeat(31), /METRICS_TOKEN: must be at least 32 characters/],
    ["with a space", `${"x".repeat(20)} ${"x".repeat(20)}`, /METRICS_TOKEN: must be printable ASCII without spaces/],
  ])("is refused when %s, naming the variable", (_, token, message) => {
    expect(() => readEnv({ METRICS_TOKEN: token })).toThrow(message);
  });
});
