// A request id on every request (docs/operations.md, "Observability"): a sane X-Request-Id is kept, anything
// else replaced and never echoed; the id comes back in the header, in every error body and in
// every log line of the request.
import { sql } from "drizzle-orm";
import type { InjectOptions, LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ipAllocator, lockOut, signIn } from "../testing/accounts.ts";
import { createTestApp, type TestApp } from "../testing/test-app.ts";

const nextIp = ipAllocator(80);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function requestIdOf(response: LightMyRequestResponse): string {
  const id = response.headers["x-request-id"];
  if (typeof id !== "string") throw new Error(`no X-Request-Id on ${response.statusCode} ${response.body.slice(0, 200)}`);
  return id;
}

/** An error answer: the one shape, with the same id as the header. */
function expectErrorWithId(response: LightMyRequestResponse, status: number, code: string) {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.json()).toEqual({ error: { code, message: expect.any(String), requestId: requestIdOf(response) } });
}

describe("request ids", () => {
  let t: TestApp;
  const inject = (options: InjectOptions) => t.app.inject({ remoteAddress: nextIp(), ...options });
  const withId = (id: string, options: InjectOptions = { method: "GET", url: "/api/nope" }) =>
    inject({ ...options, headers: { ...options.headers, "x-request-id": id } });

  beforeAll(async () => {
    t = await createTestApp({ seed: false });
  });
  afterAll(() => t.close());

  it.each([
    ["a UUID", "0f8fad5b-d9cb-469f-a165-70867728950e"],
    ["a load balancer's trace id", "1-67891233-abcdef012345678912345678"],
    ["a single character", "a"],
    ["64 characters", "x".repeat(64)],
    ["dots, colons, dashes and underscores", "edge-1.trace_42:span"],
  ])("keeps a sane incoming id (%s) in the header and the error body", async (_, id) => {
    const response = await withId(id);
    expect(requestIdOf(response)).toBe(id);
    expectErrorWithId(response, 404, "NOT_FOUND");
  });

  it("generates a fresh id for each request that brings none", async () => {
    const first = await inject({ method: "GET", url: "/api/nope" });
    const second = await inject({ method: "GET", url: "/api/nope" });
    expect(requestIdOf(first)).toMatch(UUID);
    expect(requestIdOf(second)).toMatch(UUID);
    expect(requestIdOf(first)).not.toBe(requestIdOf(second));
    expectErrorWithId(first, 404, "NOT_FOUND");
  });

  it.each([
    ["too long (65 characters)", "x".repeat(65)],
    ["empty", ""],
    ["a space", "abc def"],
    ["markup", "<script>alert(1)</script>"],
    ["a slash", "a/b"],
    ["a quote", 'a"b'],
    ["non-ASCII", "abcé"],
    ["a CR/LF header injection", "abc\r\nSet-Cookie: stolen=1"],
    ["a bare LF", "abc\nx"],
  ])("replaces a malformed incoming id (%s) and never echoes it", async (_, id) => {
    const response = await withId(id);
    expect(requestIdOf(response)).toMatch(UUID);
    expect(response.headers["set-cookie"]).toBeUndefined();
    expectErrorWithId(response, 404, "NOT_FOUND");
    if (id !== "") expect(response.body).not.toContain(id);
  });

  it("replaces an id sent twice (the values joined are not one sane id)", async () => {
    const response = await inject({ method: "GET", url: "/api/nope", headers: { "x-request-id": ["one", "two"] } });
    expect(requestIdOf(response)).toMatch(UUID);
  });

  it("is on a successful answer", async () => {
    const response = await withId("ok-1", { method: "GET", url: "/api/health/live" });
    expect(response.statusCode).toBe(200);
    expect(requestIdOf(response)).toBe("ok-1");
  });

  it("is in a validation error", async () => {
    const response = await withId("validation-1", { method: "POST", url: "/api/contact", payload: {} });
    expect(requestIdOf(response)).toBe("validation-1");
    expectErrorWithId(response, 400, "VALIDATION");
  });

  it("is in an address Fastify cannot decode, answered in the one error shape", async () => {
    const response = await withId("bad-url-1", { method: "GET", url: "/api/programs/%E0%A4%A" });
    expect(requestIdOf(response)).toBe("bad-url-1");
    expectErrorWithId(response, 400, "FST_ERR_BAD_URL");
  });

  it("comes with the security headers of every other answer on the addresses Fastify refuses", async () => {
    const securityHeaders = (response: LightMyRequestResponse) =>
      Object.fromEntries(
        ["content-security-policy", "x-content-type-options", "x-frame-options", "referrer-policy"].map((name) => [
          name,
          response.headers[name],
        ]),
      );
    const ordinary = securityHeaders(await withId("ordinary-1", { method: "GET", url: "/api/health/live" }));
    expect(ordinary["content-security-policy"]).toContain("default-src 'self'");
    const undecodable = await withId("bad-url-2", { method: "GET", url: "/api/programs/%E0%A4%A" });
    const tooLong = await withId("long-1", { method: "GET", url: `/api/programs/${"a".repeat(200)}` });
    for (const response of [undecodable, tooLong]) {
      expect(response.statusCode).toBeGreaterThanOrEqual(400);
      expect(securityHeaders(response)).toEqual(ordinary);
    }
  });

  it("is in answers from the auth library's mount, errors included", async () => {
    const session = await withId("auth-ok-1", { method: "GET", url: "/api/auth/get-session" });
    expect(session.statusCode).toBe(200);
    expect(requestIdOf(session)).toBe("auth-ok-1");

    const response = await t.app.inject({
      method: "POST",
      url: "/api/auth/sign-in/email",
      headers: { origin: t.services.env.appUrl, "x-request-id": "auth-error-1" },
      payload: { email: "nobody@example.com", password: "wrong password" },
      remoteAddress: nextIp(),
    });
    expect(requestIdOf(response)).toBe("auth-error-1");
    expectErrorWithId(response, 401, "INVALID_EMAIL_OR_PASSWORD");
  });

  it("is in a 429", async () => {
    const ip = nextIp();
    // Tries at a locked account reach the per-address limit (100 in 5 minutes) without hashing a
    // password each; malformed ones are no longer counted (docs/product.md, "Timings and limits").
    await lockOut(t, "limited@example.com", nextIp);
    let response = await signIn(t, "limited@example.com", "wrong password", ip);
    for (let i = 0; i < 150 && response.statusCode !== 429; i++) {
      response = await signIn(t, "limited@example.com", `wrong password ${i}`, ip);
    }
    expect(response.statusCode).toBe(429);
    expect(requestIdOf(response)).toMatch(UUID);
    expect(response.json()).toMatchObject({ error: { requestId: requestIdOf(response) } });
  });

  it("gives a built script or stylesheet the headers a file needs, and a page or an API answer all of them", async () => {
    const asset = await inject({ method: "GET", url: "/assets/not-built.js" });
    expect(asset.headers["x-content-type-options"]).toBe("nosniff");
    expect(asset.headers["cross-origin-resource-policy"]).toBe("same-origin");
    expect(asset.headers["content-security-policy"]).toBeUndefined();
    expect(asset.headers["x-frame-options"]).toBeUndefined();
    requestIdOf(asset);
    for (const url of ["/api/nope", "/assets-not/x.js"]) {
      const answer = await inject({ method: "GET", url });
      expect(answer.headers["content-security-policy"], url).toContain("default-src 'self'");
      expect(answer.headers["x-frame-options"], url).toBe("SAMEORIGIN");
    }
  });
});

describe("request ids in the logs", () => {
  let t: TestApp;
  const lines: Record<string, unknown>[] = [];

  beforeAll(async () => {
    t = await createTestApp({
      seed: false,
      env: { LOG_LEVEL: "info" },
      logDestination: { write: (line) => lines.push(JSON.parse(line) as Record<string, unknown>) },
    });
  });
  afterAll(() => t.close());

  it("are JSON lines, one per request with its id, status and time", async () => {
    await t.app.inject({ method: "GET", url: "/api/nope", headers: { "x-request-id": "log-trace-1" }, remoteAddress: nextIp() });
    const ofRequest = lines.filter((line) => line.requestId === "log-trace-1");
    expect(ofRequest.map((line) => line.msg)).toEqual(["request completed"]);
    expect(ofRequest[0]).toMatchObject({ req: { method: "GET", url: "/api/nope" }, res: { statusCode: 404 } });
    expect(ofRequest[0]?.responseTime).toEqual(expect.any(Number));
    const untagged = lines.filter((line) => line.req !== undefined || line.res !== undefined).filter((line) => !line.requestId);
    expect(untagged).toEqual([]);
  });

  it("carry the generated id, never a malformed one", async () => {
    const hostile = "abc\r\ninjected";
    const response = await t.app.inject({ method: "GET", url: "/api/nope", headers: { "x-request-id": hostile }, remoteAddress: nextIp() });
    const id = requestIdOf(response);
    expect(lines.filter((line) => line.requestId === id)).toHaveLength(1);
    expect(JSON.stringify(lines)).not.toContain("injected");
  });

  it("tag a route's own log lines (a server failure) with the id the caller sees", async () => {
    await t.database.db.execute(sql`alter table programs rename to programs_hidden`);
    t.services.catalog.invalidate(); // the list is otherwise served from memory
    try {
      const response = await t.app.inject({ method: "GET", url: "/api/programs", headers: { "x-request-id": "log-trace-2" }, remoteAddress: nextIp() });
      expect(response.statusCode).toBe(500);
      expect(response.json()).toMatchObject({ error: { code: "INTERNAL", requestId: "log-trace-2" } });
    } finally {
      await t.database.db.execute(sql`alter table programs_hidden rename to programs`);
    }
    const failure = lines.find((line) => line.msg === "request failed");
    expect(failure).toMatchObject({ requestId: "log-trace-2", level: 50 });
  });
});
