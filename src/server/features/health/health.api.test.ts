import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../testing/test-app.ts";
import { randomSecret } from "../../testing/secrets.ts";

const version = (await import("../../../../package.json", { with: { type: "json" } })).default.version;

describe("GET /api/health/live and /api/health", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it("liveness answers with the version and uptime, without asking the database", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/health/live" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: "ok", version, uptimeSeconds: expect.any(Number) });
  });

  it("readiness reports the database, the emails not sent, the version, the uptime and how each outside service is provided", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/health" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: "ok",
      database: "ok",
      mail: { failing: 0 },
      version,
      uptimeSeconds: expect.any(Number),
      services: { email: "development-mailbox", payments: "simulator", chat: "missing", sms: "development-mailbox" },
    });
  });
});

describe("health in production", () => {
  const production = { NODE_ENV: "production", AUTH_SECRET: randomSecret(), APP_URL: "https://academy.example" };

  it.each([
    ["runs without", {}, { email: "missing", payments: "missing", chat: "missing", sms: "missing" }],
    [
      "has",
      {
        SMTP_URL: "smtps://user:pass@smtp.example.com:465",
        PAYSTACK_SECRET_KEY: "sk_test_x",
        CHAT_WIDGET_URL: "https://embed.tawk.to/abc/default",
        HUBTEL_CLIENT_ID: "hubtel-client",
        HUBTEL_CLIENT_SECRET: "hubtel-secret-value",
      },
      { email: "smtp", payments: "paystack", chat: "configured", sms: "hubtel" },
    ],
  ])("says which services production %s", async (_what, services, expected) => {
    const t = await createTestApp({ seed: false, env: { ...production, ...services } });
    try {
      const body = (await t.app.inject({ method: "GET", url: "/api/health" })).json<{ services: unknown }>();
      expect(body.services).toEqual(expected);
    } finally {
      await t.close();
    }
  });

  it("answers 503 with the same facts when the database does not answer", async () => {
    const t = await createTestApp({ seed: false });
    await t.database.close();
    try {
      const response = await t.app.inject({ method: "GET", url: "/api/health" });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({ status: "unavailable", database: "unreachable", version });
      expect((await t.app.inject({ method: "GET", url: "/api/health/live" })).statusCode).toBe(200);
    } finally {
      await t.app.close();
    }
  });
});
