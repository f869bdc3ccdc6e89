import { sql } from "drizzle-orm";
import type { InjectOptions, LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contacts } from "../db/schema.ts";
import { createTestApp, type TestApp } from "../testing/test-app.ts";
import { GENERIC_ERROR_MESSAGE } from "./errors.ts";
import { randomSecret } from "../testing/secrets.ts";

const valid = { name: "Ama", email: "ama@example.com", message: "Hello" };

// "    at handler (/work/src/x.ts:12:5)" or "at async Promise.all (index 0)".
const STACK_FRAME = /\bat (async )?[\w$.<>[\]]+ \(|\bat [^\s]*:\d+:\d+|node_modules|\.[cm]?[jt]s:\d+/;

/** Asserts the one error shape (with the request id of the header), a JSON content type, and nothing internal in the body. */
function expectError(response: LightMyRequestResponse, status: number, code?: string) {
  expect(response.statusCode).toBe(status);
  expect(response.headers["content-type"]).toMatch(/^application\/json/);
  const body = response.json<{ error: { code: string; message: string; requestId: string } }>();
  expect(Object.keys(body)).toEqual(["error"]);
  expect(Object.keys(body.error).sort()).toEqual(["code", "message", "requestId"]);
  expect(body.error.requestId).toBe(response.headers["x-request-id"]);
  expect(body.error.message).toMatch(/\S/);
  if (code) expect(body.error.code).toBe(code);
  expect(response.body).not.toMatch(STACK_FRAME);
  expect(response.body).not.toContain("stack");
  return body.error;
}

describe("error responses", () => {
  let t: TestApp;
  let ip = 0;
  // Each request from its own address, so the contact route's rate limit stays out of the way.
  const inject = (options: InjectOptions) =>
    t.app.inject({ remoteAddress: `10.1.0.${++ip}`, ...options });

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const storedContacts = async () => (await t.database.db.select().from(contacts)).length;

  it.each([
    ["GET", "/api/nope"],
    ["GET", "/api"],
    ["GET", "/api/programs/beginner/secret"],
    ["POST", "/api/programs"],
    ["DELETE", "/api/contact"],
  ] as const)("answers %s %s with a JSON 404", async (method, url) => {
    const response = await inject({ method, url });
    const error = expectError(response, 404, "NOT_FOUND");
    expect(error.message).toBe(`No route for ${method} ${url}.`);
  });

  it("does not echo the query string in a 404", async () => {
    const response = await inject({ method: "GET", url: "/api/nope?token=secret" });
    const error = expectError(response, 404, "NOT_FOUND");
    expect(error.message).toBe("No route for GET /api/nope.");
  });

  it.each([
    ["the contact route's 16 KiB", 17],
    ["the app's 64 KiB", 65],
  ])("answers a body over %s limit with 413", async (_limit, kib) => {
    const payload = JSON.stringify({ ...valid, message: "x".repeat(kib * 1024) });
    const response = await inject({
      method: "POST",
      url: "/api/contact",
      headers: { "content-type": "application/json" },
      payload,
    });
    const error = expectError(response, 413, "FST_ERR_CTP_BODY_TOO_LARGE");
    expect(error.message).toBe("The request body is too large.");
    expect(await storedContacts()).toBe(0);
  });

  it("answers malformed JSON with 400 and no parser internals", async () => {
    const response = await inject({
      method: "POST",
      url: "/api/contact",
      headers: { "content-type": "application/json" },
      payload: '{"name": "Ama", "email":',
    });
    const error = expectError(response, 400, "FST_ERR_CTP_INVALID_JSON_BODY");
    expect(error.message).toBe("The request body is not valid JSON.");
    expect(response.body).not.toContain("SyntaxError");
    expect(response.body).not.toContain("position");
    expect(await storedContacts()).toBe(0);
  });

  it("answers an empty JSON body with 400", async () => {
    const response = await inject({
      method: "POST",
      url: "/api/contact",
      headers: { "content-type": "application/json" },
      payload: "",
    });
    const error = expectError(response, 400, "FST_ERR_CTP_EMPTY_JSON_BODY");
    expect(error.message).toBe("The request body is empty.");
  });

  it("answers a JSON body that is not an object with 400", async () => {
    const response = await inject({
      method: "POST",
      url: "/api/contact",
      headers: { "content-type": "application/json" },
      payload: "[1, 2, 3]",
    });
    expectError(response, 400, "VALIDATION");
    expect(await storedContacts()).toBe(0);
  });

  it.each([["text/plain"], ["application/x-www-form-urlencoded"], ["application/xml"]])(
    "answers a %s body with 415",
    async (contentType) => {
      const response = await inject({
        method: "POST",
        url: "/api/contact",
        headers: { "content-type": contentType },
        payload: "name=Ama&email=ama@example.com&message=Hello",
      });
      const error = expectError(response, 415, "FST_ERR_CTP_INVALID_MEDIA_TYPE");
      expect(error.message).toBe("Unsupported content type: send JSON.");
      expect(await storedContacts()).toBe(0);
    },
  );

  it.each([
    ["a JSON answer", "GET", "/api/programs", 200],
    ["a validation error", "POST", "/api/contact", 400],
  ] as const)("sends %s nosniff and the resource policy, and none of a page's headers (docs/performance.md, \"Data\")", async (_, method, url, status) => {
    const response = await inject({ method, url, ...(method === "POST" ? { payload: {} } : {}) });
    expect(response.statusCode).toBe(status);
    expect(response.headers["content-type"]).toMatch(/^application\/json/);
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
    expect(response.headers["cross-origin-resource-policy"]).toBe("same-origin");
    for (const pageOnly of ["content-security-policy", "x-frame-options", "cross-origin-opener-policy", "referrer-policy", "x-xss-protection"]) {
      expect(response.headers[pageOnly], pageOnly).toBeUndefined();
    }
    expect(response.headers["x-powered-by"]).toBeUndefined();
  });

  it.each([
    ["a 404", "GET", "/api/nope", 404],
    ["a page", "GET", "/not-a-page", 404],
  ] as const)("sends security headers with %s", async (_, method, url, status) => {
    const response = await inject({ method, url });
    expect(response.statusCode).toBe(status);
    const headers = response.headers;
    const csp = String(headers["content-security-policy"]);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain("'unsafe-eval'");
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["x-frame-options"]).toBe("SAMEORIGIN");
    expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    expect(headers["x-powered-by"]).toBeUndefined();
  });

  it("does not force HTTPS outside production", async () => {
    const response = await inject({ method: "GET", url: "/api/health" });
    expect(response.headers["strict-transport-security"]).toBeUndefined();
    expect(String(response.headers["content-security-policy"])).not.toContain(
      "upgrade-insecure-requests",
    );
  });

  it("answers a server failure with 500 and a plain sentence, hiding the cause", async () => {
    await t.database.db.execute(sql`alter table programs rename to programs_hidden`);
    t.services.catalog.invalidate(); // the list is otherwise served from memory
    try {
      const response = await inject({ method: "GET", url: "/api/programs" });
      const error = expectError(response, 500, "INTERNAL");
      expect(error.message).toBe(GENERIC_ERROR_MESSAGE);
      expect(response.body).not.toMatch(/relation|programs|select|postgres|pglite/i);
    } finally {
      await t.database.db.execute(sql`alter table programs_hidden rename to programs`);
    }
    expect((await inject({ method: "GET", url: "/api/programs" })).statusCode).toBe(200);
  });
});

describe("security headers in production", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ seed: false, env: { NODE_ENV: "production", AUTH_SECRET: randomSecret() } });
  });
  afterAll(() => t.close());

  it("force HTTPS", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/health" });
    expect(response.headers["strict-transport-security"]).toBe(
      "max-age=31536000; includeSubDomains",
    );
    expect(String(response.headers["content-security-policy"])).toContain(
      "upgrade-insecure-requests",
    );
  });
});
