// Attack suite (issue 7): hostile input on every route the router knows (and every endpoint of
// the auth library behind /api/auth/*): broken JSON, the wrong JSON, 1 MB bodies, deep nesting,
// 100,000-character strings, NUL bytes and odd Unicode in each field, the wrong types, the wrong
// content types and hostile query strings. Never a 5xx; every refusal in the one error shape;
// what must be refused changes nothing. One route's worth of this is in errors.api.test.ts and
// learning.api.test.ts ("malformed bodies are a 400, never a 5xx").
import { randomBytes } from "node:crypto";
import type { HTTPMethods, InjectOptions, LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestUsers, ipAllocator, PASSWORD, type TestUser } from "../testing/accounts.ts";
import { createTestApp, type TestApp } from "../testing/test-app.ts";
import {
  authLibraryRoutes,
  concretePath,
  expectErrorShape,
  expectNothingChanged,
  routeCollector,
  schemaFields,
} from "../testing/attack-kit.ts";
import { randomSecret } from "../testing/secrets.ts";

const nextIp = ipAllocator(63);

/** Each sweep sends some thousand requests. */
const SWEEP_TIMEOUT_MS = 300_000;
const CONCURRENCY = 8;

type Target = { method: HTTPMethods; url: string; bodyFields: string[]; queryFields: string[]; validBody: object | null };

/**
 * A body each route accepts (or would, but for the made-up ids in its path): one field at a time
 * is then replaced with something hostile, so that the rest of the body gets it past the checks
 * that come first.
 */
const VALID_BODIES: Record<string, object> = {
  "POST /api/contact": { name: "Ama", email: "ama@example.com", message: "Hello" },
  "POST /api/accounts/register": { fullName: "Ama Mensah", email: "hostile@example.com", password: PASSWORD, confirmPassword: PASSWORD },
  "POST /api/accounts/forgot-password": { email: "nobody@example.com" },
  "POST /api/subscription-management": { action: "check_eligibility", planId: "advanced" },
  "POST /api/verify-paystack": { reference: "LTF-WAITLIST-ADVANCED-1", type: "waitlist", plan: "advanced" },
  "POST /api/waitlist/checkout": { plan: "advanced" },
  "POST /api/programs/:track/quiz/answers": { questionIndex: 0, option: "A" },
  "POST /api/admin/programs": { id: "beginner", title: "T", duration: "D", priceUsd: 1, order: 1, description: [], modules: [] },
  "PUT /api/admin/programs/:id": { title: "T", duration: "D", priceUsd: 1, order: 1, description: ["a"], modules: [] },
  "PUT /api/admin/programs/:id/quiz": { title: "Q", questions: [{ question: "Q?", options: ["A) a", "B) b"], answer: "A" }] },
  "PUT /api/admin/users/:id/plan": { plan: "intermediate" },
  "PUT /api/admin/users/:id/progress": { progress: { beginner: { a: true } } },
  "POST /api/auth/sign-in/email": { email: "nobody@example.com", password: "a wrong password" },
  "POST /api/auth/sign-up/email": { name: "Ama", email: "hostile-signup@example.com", password: PASSWORD },
  "POST /api/auth/sign-in/social": { provider: "google", callbackURL: "/" },
  "POST /api/auth/request-password-reset": { email: "nobody@example.com", redirectTo: "/reset-password" },
  "POST /api/auth/reset-password": { token: "not-a-token", newPassword: "a new password" },
  "POST /api/auth/send-verification-email": { email: "nobody@example.com", callbackURL: "/" },
  "POST /api/auth/update-user": { name: "Ama" },
  "POST /api/auth/change-email": { newEmail: "new@example.com" },
  "POST /api/auth/change-password": { currentPassword: "not it", newPassword: "a new password" },
  "POST /api/auth/revoke-session": { token: "not-a-token" },
  "POST /api/auth/unlink-account": { providerId: "google" },
  "POST /api/auth/link-social": { provider: "google", callbackURL: "/" },
  "POST /api/auth/get-access-token": { providerId: "google" },
  "POST /api/auth/refresh-token": { providerId: "google" },
  "POST /api/auth/delete-user": { password: "not it" },
};

/** A string that does not compress: what an attacker sends to get past an index's row size. */
function noise(length: number): string {
  return randomBytes(length).toString("base64url").slice(0, length).toLowerCase();
}

function nested(depth: number, open: string, close: string, inner: string): string {
  return `${open.repeat(depth)}${inner}${close.repeat(depth)}`;
}

const json = (payload: string, contentType = "application/json"): InjectOptions => ({ headers: { "content-type": contentType }, payload });

/** The route's valid body with one field replaced by `value`, for each field in turn. */
function eachField(target: Target, value: unknown): InjectOptions[] {
  const fields = target.bodyFields.length > 0 ? target.bodyFields : ["x"];
  return fields.map((field) => json(JSON.stringify({ ...target.validBody, [field]: value })));
}

type Attack = { name: string; mustRefuse: boolean; build(target: Target): InjectOptions[] };

const BODY_ATTACKS: Attack[] = [
  {
    name: "JSON syntax errors",
    mustRefuse: true,
    build: () => ['{"email": ', "{'email': 1}", '{"a": 1,}', '{"a": 1}{"b": 2}', "NaN", '"unterminated', '{"a": "\\x41"}'].map((p) => json(p)),
  },
  {
    name: "JSON that is not an object (null, numbers, strings, booleans, arrays)",
    mustRefuse: true,
    build: (target) => ["null", "-1", '"text"', "true", "[]", JSON.stringify([target.validBody ?? {}])].map((p) => json(p)),
  },
  {
    name: "a 1 MB body",
    mustRefuse: true,
    build: (target) => [json(JSON.stringify({ ...target.validBody, x: "a".repeat(1024 * 1024) })), json(`[${"1,".repeat(512 * 1024)}1]`)],
  },
  {
    name: "deeply nested JSON (5,000 levels)",
    mustRefuse: true,
    build: (target) => [json(nested(5000, "[", "]", "1")), json(nested(3000, '{"a":', "}", "1")), ...eachField(target, JSON.parse(nested(200, "[", "]", '"x"')))],
  },
  {
    name: "100,000-character strings in every field",
    mustRefuse: true,
    build: (target) => eachField(target, noise(100_000)),
  },
  {
    name: "NUL bytes in every field and in a key",
    mustRefuse: true,
    build: (target) => [
      ...eachField(target, "a\u0000b@example.com"),
      ...eachField(target, ["\u0000"]),
      json(JSON.stringify({ ...target.validBody, ["na\u0000me"]: "x" })),
    ],
  },
  {
    name: "the wrong types in every field",
    mustRefuse: true,
    // (No boolean: a flag like rememberMe takes one, and then the body is simply valid.)
    build: (target) => [...[1, null, [], { $gt: "" }].flatMap((value) => eachField(target, value)), json(`{"${target.bodyFields[0] ?? "x"}": 1e400}`)],
  },
  {
    name: "the wrong content types",
    mustRefuse: true,
    build: (target) => {
      const body = JSON.stringify(target.validBody ?? {});
      return [
        json("email=a%40b.co&password=x", "application/x-www-form-urlencoded"),
        json(body, "text/plain;charset=UTF-8"),
        json("<email>a@b.co</email>", "application/xml"),
        json('--x\r\nContent-Disposition: form-data; name="email"\r\n\r\na@b.co\r\n--x--', "multipart/form-data; boundary=x"),
        json(body, "application/json-patch+json"),
        json(body, "application/octet-stream"),
        { payload: body },
      ];
    },
  },
  {
    name: "10,000-character strings that do not compress, in every field",
    mustRefuse: false,
    build: (target) => [...eachField(target, noise(10_000)), ...eachField(target, `${noise(10_000)}@example.com`)],
  },
  {
    name: "odd Unicode in every field (lone surrogates, bidi overrides, non-characters, emoji, a BOM)",
    mustRefuse: false,
    build: (target) => [
      json(`\uFEFF${JSON.stringify(target.validBody ?? {})}`),
      ...["\ud800", "\u202eeviL@example.com", "\uffff\ufffe", "👩🏽‍💻@example.com", "e\u0301\u200b\u2028\u0007\u001b[31m"].flatMap((value) =>
        eachField(target, value),
      ),
    ],
  },
];

const HOSTILE_QUERY_VALUES = [
  "%00",
  "a%00b",
  "%E0%A4%A",
  "%",
  "1&FIELD=2",
  "%F0%9F%98%80%ED%A0%80",
  encodeURIComponent("'; drop table users; --"),
  "-1",
  "1e309",
];

describe("hostile input on every route", () => {
  const collected = routeCollector();
  let t: TestApp;
  let targets: Target[];
  let user: (key: "admin" | "learner") => TestUser;

  beforeAll(async () => {
    // Listening: a request that gets through to a checkout reaches the Paystack simulator.
    t = await createTestApp({ onRoute: collected.onRoute, listen: true });
    user = await createTestUsers(t, nextIp, { admin: { plan: "admin" }, learner: {} });
    const fromRouter = collected.routes
      .filter((r) => r.method !== "HEAD" && !r.url.includes("*") && !r.url.startsWith("/dev/"))
      .map((r) => ({
        method: r.method,
        url: r.url,
        bodyFields: schemaFields(r.route.schema?.body),
        queryFields: schemaFields(r.route.schema?.querystring),
      }));
    const known = new Set(fromRouter.map((r) => `${r.method} ${r.url}`));
    const fromAuthLibrary = authLibraryRoutes(t).filter((r) => !known.has(`${r.method} ${r.url}`));
    const library = new Map(authLibraryRoutes(t).map((r) => [`${r.method} ${r.url}`, r]));
    targets = [...fromRouter, ...fromAuthLibrary].map((target) => {
      const key = `${target.method} ${target.url}`;
      const validBody = VALID_BODIES[key] ?? null;
      // Our sign-in route forwards to the library's: its fields are the library's.
      const fields = library.get(key)?.bodyFields ?? target.bodyFields;
      return { ...target, validBody, bodyFields: fields.length > 0 ? fields : Object.keys(validBody ?? {}) };
    });
  });
  afterAll(() => t.close());

  /** Who sends it: the administrator (past every guard), except where that would end the session. */
  function callerFor(target: Target): TestUser | null {
    if (/sign-out|revoke|delete-user|change-password/.test(target.url)) return null;
    return target.url.startsWith("/api/auth/") ? user("learner") : user("admin");
  }

  function send(target: Target, options: InjectOptions): Promise<LightMyRequestResponse> {
    const caller = callerFor(target);
    const query = typeof options.query === "string" ? options.query : "";
    // No program or user has the id: an administrator's DELETE or PUT that got through would find nothing to harm.
    const path = concretePath(target.url, { id: "no-such-id", track: "beginner", moduleId: "sample", token: "sample-token" });
    return t.app.inject({
      method: target.method,
      url: query ? `${path}?${query}` : path,
      remoteAddress: nextIp(),
      ...(target.method === "GET" ? {} : { payload: options.payload ?? {} }),
      headers: {
        origin: t.services.env.appUrl,
        ...(target.method === "GET" ? {} : options.headers),
        ...(caller ? { cookie: caller.cookie } : {}),
      },
    });
  }

  function check(target: Target, response: LightMyRequestResponse, what: string) {
    const label = `${target.method} ${target.url} [${what}] -> ${response.statusCode} ${response.body.slice(0, 200)}`;
    expect(response.statusCode, label).toBeLessThan(500);
    if (response.statusCode >= 400) expectErrorShape(response, label);
  }

  /** Sends every request of the sweep, a few at a time, and checks each answer. */
  async function sweep(requests: { target: Target; options: InjectOptions; what: string }[]) {
    expect(requests.length).toBeGreaterThan(20);
    for (let start = 0; start < requests.length; start += CONCURRENCY) {
      const batch = requests.slice(start, start + CONCURRENCY);
      const answers = await Promise.all(batch.map(({ target, options }) => send(target, options)));
      answers.forEach((response, index) => {
        const request = batch[index];
        if (request) check(request.target, response, request.what);
      });
    }
  }

  function bodyRequests(attack: Attack) {
    return targets
      .filter((r) => r.method !== "GET")
      .flatMap((target) => attack.build(target).map((options, index) => ({ target, options, what: `${attack.name} #${index}` })));
  }

  it("enumerates the routes: the app's own and the auth library's, with the fields each reads", () => {
    const names = targets.map((r) => `${r.method} ${r.url}`);
    expect(names).toEqual(
      expect.arrayContaining([
        "POST /api/contact",
        "POST /api/accounts/register",
        "PUT /api/admin/programs/:id",
        "POST /api/paystack/webhook",
        "POST /api/auth/sign-in/email",
        "POST /api/auth/update-user",
        "POST /api/auth/sign-up/email",
        "GET /api/auth/verify-email",
      ]),
    );
    expect(targets.length).toBeGreaterThan(40);
    const fields = (key: string) => targets.find((r) => `${r.method} ${r.url}` === key)?.bodyFields;
    expect(fields("POST /api/contact")).toEqual(["name", "email", "message"]);
    expect(fields("POST /api/auth/sign-in/email")).toEqual(expect.arrayContaining(["email", "password", "callbackURL"]));
    expect(fields("POST /api/auth/sign-up/email")).toEqual(expect.arrayContaining(["name", "email", "password", "image"]));
    // Every route that takes a body we know how to fill has one.
    for (const key of Object.keys(VALID_BODIES)) expect(names, key).toContain(key);
  });

  it.each(BODY_ATTACKS.filter((a) => a.mustRefuse).map((a) => [a.name, a] as const))(
    "%s: refused without a 5xx, in the one error shape, changing nothing",
    async (_name, attack) => {
      // A route that reads no body may still answer 2xx; the snapshot shows that it wrote nothing.
      await expectNothingChanged(t, () => sweep(bodyRequests(attack)));
    },
    SWEEP_TIMEOUT_MS,
  );

  it.each(BODY_ATTACKS.filter((a) => !a.mustRefuse).map((a) => [a.name, a] as const))(
    "%s: answered without a 5xx, refusals in the one error shape",
    async (_name, attack) => {
      await sweep(bodyRequests(attack));
    },
    SWEEP_TIMEOUT_MS,
  );

  it(
    "hostile query strings (NUL, broken percent-encoding, repeats, 100,000 characters) on every route: never a 5xx",
    async () => {
      const requests = targets.flatMap((target) => {
        const fields = target.queryFields.length > 0 ? target.queryFields : ["x"];
        const values = fields.flatMap((field) => [
          ...HOSTILE_QUERY_VALUES.map((value) => `${field}=${value.replace("FIELD", field)}`),
          `${field}[]=1&${field}[$gt]=`,
          `${field}=${noise(100_000)}`,
        ]);
        return [...values, "__proto__[x]=1&constructor[prototype][x]=1"].map((query) => ({
          target,
          options: { query, ...(target.method === "GET" ? {} : json(JSON.stringify(target.validBody ?? {}))) },
          what: query.slice(0, 40),
        }));
      });
      await sweep(requests);
    },
    SWEEP_TIMEOUT_MS,
  );
});

describe("the development fakes in production", () => {
  it("are not in the router: the Paystack simulator, the mailbox and the sign-in stand-ins answer 404", async () => {
    const collected = routeCollector();
    const t = await createTestApp({ seed: false, onRoute: collected.onRoute, env: { NODE_ENV: "production", AUTH_SECRET: randomSecret() } });
    try {
      expect(collected.routes.filter((r) => r.url.startsWith("/dev"))).toEqual([]);
      await expectNothingChanged(t, async () => {
        for (const [method, url] of [
          ["GET", "/dev/mail"],
          ["GET", "/dev/mail/messages"],
          ["POST", "/dev/fakes/paystack/simulate/LTF-INTERMEDIATE-1"],
          ["POST", "/dev/fakes/paystack/transaction/initialize"],
          ["GET", "/dev/fakes/google/.well-known/openid-configuration"],
          ["GET", "/dev/fakes/exchange-rate/v6/latest/USD"],
        ] as const) {
          const response = await t.app.inject({ method, url, ...(method === "POST" ? { payload: {} } : {}) });
          expect(response.statusCode, url).toBe(404);
          expectErrorShape(response, url);
        }
      });
    } finally {
      await t.close();
    }
  });
});
