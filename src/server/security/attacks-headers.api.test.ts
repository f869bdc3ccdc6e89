// Attack suite (issue 7): what the browser is told to protect. Security headers on every kind of
// answer (JSON, refusals, the auth library's own pages and redirects, the CSV download, HTML):
// a page's whole set on everything that may be shown as a page, and on the JSON answers of the
// app's routes, which never are, nosniff and the resource policy only (docs/performance.md,
// "Data"); HSTS in production, and the session cookie's flags: HttpOnly, SameSite=Lax, Secure
// behind an https APP_URL, and a token no script can read from a JSON answer either.
// Already covered elsewhere: the headers on a JSON answer, a 404 and a validation error, and HSTS
// on /api/health in production (errors.api.test.ts); HttpOnly and SameSite=Lax, no Secure over
// plain http (accounts.api.test.ts).
import type { InjectOptions, LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createSignedInUser,
  createVerifiedAccount,
  ipAllocator,
  PASSWORD,
  signIn,
  type TestUser,
} from "../testing/accounts.ts";
import { createTestApp, type TestApp } from "../testing/test-app.ts";
import { expectNothingChanged } from "../testing/attack-kit.ts";
import { randomSecret } from "../testing/secrets.ts";

const nextIp = ipAllocator(65);

const PRODUCTION_URL = "https://academy.example";
const PRODUCTION_ENV = { NODE_ENV: "production", AUTH_SECRET: randomSecret(), APP_URL: PRODUCTION_URL };

/**
 * Answers of every kind the app gives, as a browser would ask for them: "json" for the JSON
 * answers of the app's own routes (errors included), "page" for all that may be shown as a page.
 */
function requestsOfEveryKind(admin: TestUser | null, origin: string): [string, InjectOptions, "json" | "page"][] {
  const cookie = admin ? { cookie: admin.cookie } : {};
  return [
    ["a public JSON answer", { url: "/api/programs" }, "json"],
    ["the session answer", { url: "/api/me", headers: cookie }, "json"],
    ["a 401", { url: "/api/progress" }, "json"],
    ["a 404", { url: "/api/nope" }, "page"],
    ["a page path that is not a page", { url: "/not-a-page" }, "page"],
    ["a validation error", { method: "POST", url: "/api/contact", payload: {} }, "json"],
    ["a 413", { method: "POST", url: "/api/contact", payload: { name: "x".repeat(70_000) } }, "json"],
    ["a 415", { method: "POST", url: "/api/contact", headers: { "content-type": "text/plain" }, payload: "x" }, "json"],
    ["a refused webhook", { method: "POST", url: "/api/paystack/webhook", payload: {} }, "page"],
    ["the auth library's JSON", { url: "/api/auth/ok" }, "page"],
    ["the auth library's HTML error page", { url: "/api/auth/error?error=%3Cscript%3Ealert(1)%3C%2Fscript%3E" }, "page"],
    ["the auth library's redirect", { url: "/api/auth/verify-email?token=nope&callbackURL=%2F" }, "page"],
    ["the auth library's refusal", { method: "POST", url: "/api/auth/sign-in/email", headers: { origin }, payload: { email: "x@example.com", password: "nope" } }, "page"],
    ["the CSV download", { url: "/api/admin/users.csv", headers: cookie }, "page"],
  ];
}

/** Headers that govern a page (what it may load, frame, open, link to): they do nothing on JSON. */
const PAGE_ONLY_HEADERS = [
  "content-security-policy",
  "cross-origin-opener-policy",
  "origin-agent-cluster",
  "referrer-policy",
  "x-dns-prefetch-control",
  "x-download-options",
  "x-frame-options",
  "x-permitted-cross-domain-policies",
  "x-xss-protection",
];

/** A JSON answer of the app's: read as JSON only (nosniff), by this site only (the resource policy), and no CORS grant. */
function expectJsonAnswerHeaders(response: LightMyRequestResponse, what: string) {
  const { headers } = response;
  expect(headers["content-type"], what).toMatch(/^application\/json/);
  expect(headers["x-content-type-options"], what).toBe("nosniff");
  expect(headers["cross-origin-resource-policy"], what).toBe("same-origin");
  for (const name of PAGE_ONLY_HEADERS) expect(headers[name], `${what}: ${name}`).toBeUndefined();
  expect(headers["x-powered-by"], what).toBeUndefined();
  expect(headers["access-control-allow-origin"], what).toBeUndefined();
  expect(headers["access-control-allow-credentials"], what).toBeUndefined();
}

function expectProtectiveHeaders(response: LightMyRequestResponse, what: string) {
  const { headers } = response;
  const csp = String(headers["content-security-policy"] ?? "");
  const directive = (name: string) => csp.split(";").map((part) => part.trim()).find((part) => part.startsWith(`${name} `)) ?? "";
  expect(directive("default-src"), what).toBe("default-src 'self'");
  expect(directive("frame-ancestors"), what).toBe("frame-ancestors 'none'");
  expect(directive("object-src"), what).toBe("object-src 'none'");
  expect(directive("base-uri"), what).toBe("base-uri 'self'");
  expect(directive("form-action"), what).toBe("form-action 'self'");
  expect(directive("script-src"), what).not.toMatch(/'unsafe-inline'|'unsafe-eval'|\*|data:|blob:/);
  expect(headers["x-content-type-options"], what).toBe("nosniff");
  expect(headers["referrer-policy"], what).toBe("strict-origin-when-cross-origin");
  expect(["SAMEORIGIN", "DENY"], what).toContain(headers["x-frame-options"]);
  expect(headers["x-powered-by"], what).toBeUndefined();
  expect(headers["access-control-allow-origin"], what).toBeUndefined();
  expect(headers["access-control-allow-credentials"], what).toBeUndefined();
}

/** Every Set-Cookie line of a response, with its attributes in lower case. */
function cookiesOf(response: LightMyRequestResponse) {
  const raw = response.headers["set-cookie"];
  const lines = Array.isArray(raw) ? raw : raw ? [raw] : [];
  return lines.map((line) => {
    const [pair = "", ...attributes] = line.split(";").map((part) => part.trim());
    return { name: pair.split("=")[0] ?? "", value: pair.slice(pair.indexOf("=") + 1), attributes: attributes.map((a) => a.toLowerCase()) };
  });
}

describe("security headers and cookies (development and test configuration)", () => {
  let t: TestApp;
  let admin: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createSignedInUser(t, { email: "headers-admin@example.com", nextIp, plan: "admin" });
  });
  afterAll(() => t.close());

  it("every kind of answer that may be a page carries the CSP, nosniff, the referrer policy and frame protection, a JSON answer nosniff and the resource policy, and none a CORS grant", async () => {
    for (const [what, options, kind] of requestsOfEveryKind(admin, t.services.env.appUrl)) {
      const response = await t.app.inject({ remoteAddress: nextIp(), ...options, headers: { ...options.headers, origin: "https://evil.com" } });
      expect(response.statusCode, what).toBeLessThan(500);
      if (kind === "json") expectJsonAnswerHeaders(response, what);
      else expectProtectiveHeaders(response, what);
    }
  });

  it("the auth library's error page does not echo a script it was handed", async () => {
    const response = await t.app.inject({ url: "/api/auth/error?error=%3Cscript%3Ealert(1)%3C%2Fscript%3E&error_description=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E" });
    expect(response.statusCode).toBeLessThan(500);
    expect(response.body).not.toContain("<script>alert(1)</script>");
    expect(response.body).not.toContain("<img src=x onerror=alert(1)>");
  });

  it("the session token reaches no script: not in the sign-in answer, the session answers or anywhere else", async () => {
    const email = "token-reader@example.com";
    await createVerifiedAccount(t, email, nextIp);
    const signedIn = await signIn(t, email, PASSWORD, nextIp());
    expect(signedIn.statusCode).toBe(200);
    const session = cookiesOf(signedIn).find((c) => c.name === "ta.session_token");
    const token = decodeURIComponent(session?.value ?? "").split(".")[0] ?? "";
    expect(token.length).toBeGreaterThan(10);
    const cookie = `ta.session_token=${session?.value ?? ""}`;

    const answers: [string, LightMyRequestResponse][] = [["sign-in", signedIn]];
    await expectNothingChanged(t, async () => {
      for (const url of ["/api/auth/get-session", "/api/auth/list-sessions", "/api/auth/list-accounts", "/api/me"]) {
        answers.push([url, await t.app.inject({ url, headers: { cookie } })]);
      }
    });
    answers.push(["update-user", await t.app.inject({ method: "POST", url: "/api/auth/update-user", headers: { cookie, origin: t.services.env.appUrl }, payload: { name: "Reader" } })]);
    for (const [what, response] of answers) {
      expect(response.statusCode, `${what}: ${response.body}`).toBe(200);
      expect(response.body, what).not.toContain(token);
    }
    // The session itself still works: the cookie is how the browser carries it.
    expect((await t.app.inject({ url: "/api/auth/get-session", headers: { cookie } })).json()).toMatchObject({ user: { email } });
  });
});

/**
 * A production app with `env`, and a verified account for `email` on its database. Production
 * sends real mail only: the account is made through a development app on the same database.
 */
function useProductionWithAccount(env: Record<string, string>, email: string): () => TestApp {
  let production: TestApp;
  let setup: TestApp;
  beforeAll(async () => {
    production = await createTestApp({ env });
    setup = await createTestApp({ database: production.database });
    await createVerifiedAccount(setup, email, nextIp);
  });
  afterAll(async () => {
    await setup.close();
    await production.close();
  });
  return () => production;
}

describe("security headers and cookies in production (https APP_URL)", () => {
  const email = "prod-cookie@example.com";
  const app = useProductionWithAccount(PRODUCTION_ENV, email);
  let production: TestApp;
  beforeAll(() => {
    production = app();
  });

  it("every kind of answer forces HTTPS (HSTS; a page also upgrade-insecure-requests) on top of the other headers", async () => {
    const signedIn = await signIn(production, email, PASSWORD, nextIp());
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    for (const [what, options, kind] of requestsOfEveryKind(null, PRODUCTION_URL)) {
      const response = await production.app.inject({ remoteAddress: nextIp(), ...options });
      expect(response.statusCode, what).toBeLessThan(500);
      expect(response.headers["strict-transport-security"], what).toBe("max-age=31536000; includeSubDomains");
      if (kind === "json") {
        expectJsonAnswerHeaders(response, what);
        continue;
      }
      expectProtectiveHeaders(response, what);
      expect(String(response.headers["content-security-policy"]), what).toContain("upgrade-insecure-requests");
      expect(String(response.headers["content-security-policy"]), what).not.toMatch(/http:/);
    }
  });

  it("scripts and frames from outside are exactly YouTube's IFrame Player API and its nocookie player", async () => {
    const response = await production.app.inject({ url: "/api/health" });
    const directives = String(response.headers["content-security-policy"]).split(";").map((part) => part.trim());
    expect(directives).toContain("script-src 'self' https://www.youtube.com/iframe_api https://www.youtube.com/s/player/");
    expect(directives).toContain("frame-src https://www.youtube-nocookie.com");
  });

  it("the session cookie is __Secure-, HttpOnly, Secure, SameSite=Lax, Path=/, and so is every cookie it sets", async () => {
    const signedIn = await signIn(production, email, PASSWORD, nextIp());
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    const cookies = cookiesOf(signedIn);
    const session = cookies.find((c) => c.name === "__Secure-ta.session_token");
    expect(session, JSON.stringify(cookies)).toBeDefined();
    expect(session?.attributes).toEqual(expect.arrayContaining(["httponly", "secure", "samesite=lax", "path=/"]));
    expect(session?.attributes.some((a) => a.startsWith("domain="))).toBe(false);
    for (const cookie of cookies) {
      expect(cookie.attributes, cookie.name).toEqual(expect.arrayContaining(["httponly", "secure", "samesite=lax"]));
    }

    const cookie = `__Secure-ta.session_token=${session?.value ?? ""}`;
    const signedOut = await production.app.inject({ method: "POST", url: "/api/auth/sign-out", headers: { cookie, origin: PRODUCTION_URL }, payload: {} });
    expect(signedOut.statusCode, signedOut.body).toBe(200);
    for (const cleared of cookiesOf(signedOut)) expect(cleared.attributes, cleared.name).toEqual(expect.arrayContaining(["httponly", "secure"]));
  });

  it("the session cookie over plain http (the name without __Secure-) is no session", async () => {
    const signedIn = await signIn(production, email, PASSWORD, nextIp());
    const value = cookiesOf(signedIn).find((c) => c.name === "__Secure-ta.session_token")?.value ?? "";
    const me = await production.app.inject({ url: "/api/me", headers: { cookie: `ta.session_token=${value}` } });
    expect(me.json()).toEqual({ user: null });
  });
});

describe("cookies in production whatever APP_URL's scheme", () => {
  const email = "prod-http-cookie@example.com";
  // Plain http is allowed in production for localhost only (TLS ends at the proxy in front).
  const production = useProductionWithAccount({ ...PRODUCTION_ENV, APP_URL: "http://localhost:3000" }, email);

  it("sets the session cookie Secure (and __Secure-) with an http://localhost APP_URL", async () => {
    const signedIn = await signIn(production(), email, PASSWORD, nextIp());
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    const cookies = cookiesOf(signedIn);
    expect(cookies.length).toBeGreaterThan(0);
    for (const cookie of cookies) {
      expect(cookie.name, JSON.stringify(cookies)).toMatch(/^__Secure-/);
      expect(cookie.attributes, cookie.name).toEqual(expect.arrayContaining(["httponly", "secure", "samesite=lax"]));
    }
  });
});
