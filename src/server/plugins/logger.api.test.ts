// Nothing secret in a log line (docs/operations.md, "What the logs never hold"): addresses keep
// only the query values known to be harmless, errors lose their SQL parameters, and a journey
// through every emailed link and a sign-in leaves none of its tokens in the logs.
import type { RouteOptions } from "fastify";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createVerifiedAccount,
  forgotPassword,
  ipAllocator,
  linkInLastMail,
  PASSWORD,
  resetPassword,
  signIn,
  verifyEmail,
} from "../testing/accounts.ts";
import { TEST_METRICS_TOKEN } from "../testing/metrics.ts";
import { createTestApp, type TestApp } from "../testing/test-app.ts";
import { loggedAuthMessage, loggedError, loggedUrl, REDACTED } from "./logger.ts";

const nextIp = ipAllocator(81);

describe("loggedUrl", () => {
  it.each([
    ["/reset-password?token=abc123", `/reset-password?token=${REDACTED}`],
    ["/verify-email?oobCode=abc&callbackURL=%2Fx%3Ftoken%3Dabc", `/verify-email?oobCode=${REDACTED}&callbackURL=${REDACTED}`],
    ["/api/admin/users?page=2&search=ama%40example.com", `/api/admin/users?page=2&search=${REDACTED}`],
    ["/api/admin/dashboard?from=2026-01-01&to=2026-02-01&tz=Africa%2FAccra", "/api/admin/dashboard?from=2026-01-01&to=2026-02-01&tz=Africa%2FAccra"],
    ["/metrics?token=abc&flag", `/metrics?token=${REDACTED}&flag`],
    ["/api/auth/reset-password/abc123?callbackURL=%2Freset", `/api/auth/reset-password/${REDACTED}?callbackURL=${REDACTED}`],
    ["/api/programs", "/api/programs"],
  ])("logs %s as %s", (url, logged) => {
    expect(loggedUrl(url)).toBe(logged);
  });
});

describe("loggedError", () => {
  it("drops the parameters of a failed query, in its message, its stack and its cause", async () => {
    const t = await createTestApp({ seed: false });
    try {
      const failure = await t.database.db.execute(sql`select ${"secret-parameter-42"}::int`).then(
        () => null,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(Error);
      const logged = JSON.stringify(loggedError(failure));
      expect(logged).toContain("Failed query");
      expect(logged).not.toContain("secret-parameter-42");
    } finally {
      await t.close();
    }
  });

  it("drops headers, cookies and parameters an error carries, and a message naming parameters", () => {
    const error = Object.assign(new Error("Failed query: select $1\nparams: hunter2"), {
      headers: { cookie: "ta.session_token=hunter2" },
      params: ["hunter2"],
      cause: Object.assign(new Error("inner"), { detail: "Key (token)=(hunter2) already exists." }),
    });
    expect(JSON.stringify(loggedError(error))).not.toContain("hunter2");
    expect(loggedError("Failed query: select $1\nparams: hunter2")).toBe(`Failed query: select $1\nparams: ${REDACTED}`);
  });
});

describe("loggedAuthMessage", () => {
  it.each([
    ["Invalid callbackURL: /reset?token=abc123", `Invalid callbackURL: ${REDACTED}`],
    ["Invalid origin: https://evil.example/?code=abc123", `Invalid origin: ${REDACTED}`],
    ["Failed query: select $1\nparams: abc123", `Failed query: select $1\nparams: ${REDACTED}`],
    ["User not found", "User not found"],
  ])("logs the auth library's %j as %j", (message, logged) => {
    expect(loggedAuthMessage(message)).toBe(logged);
  });
});

describe("the logs of a journey through every emailed link", () => {
  let t: TestApp;
  const lines: string[] = [];
  const routes: RouteOptions[] = [];

  beforeAll(async () => {
    t = await createTestApp({
      env: { LOG_LEVEL: "debug", METRICS_TOKEN: TEST_METRICS_TOKEN },
      logDestination: { write: (line) => lines.push(line) },
      onRoute: (route) => routes.push(route),
    });
  });
  afterAll(() => t.close());

  const get = (url: string) => t.app.inject({ method: "GET", url, remoteAddress: nextIp() });

  it("holds none of the tokens, codes, passwords or cookies", async () => {
    const secrets: string[] = [PASSWORD, TEST_METRICS_TOKEN];
    const email = "logged-journey@example.com";

    // Verification: registering mails a link; opening it as the browser does.
    await createVerifiedAccount(t, email, nextIp);
    secrets.push((await linkInLastMail(t, email, "/verify-email")).searchParams.get("oobCode") ?? "");

    // Sign-in: the password in the body, the session in the cookie.
    const signedIn = await signIn(t, email, PASSWORD, nextIp());
    expect(signedIn.statusCode).toBe(200);
    const sessionCookie = signedIn.cookies.find((cookie) => cookie.name === "ta.session_token");
    secrets.push(sessionCookie?.value ?? "");
    const cookie = `ta.session_token=${sessionCookie?.value ?? ""}`;

    // Email change: the link mailed to the new address.
    const newEmail = "logged-journey-moved@example.com";
    const change = await t.app.inject({
      method: "POST",
      url: "/api/accounts/change-email",
      headers: { cookie, origin: t.services.env.appUrl },
      payload: { newEmail },
      remoteAddress: nextIp(),
    });
    expect(change.statusCode, change.body).toBe(200);
    const changeCode = (await linkInLastMail(t, newEmail, "/verify-email")).searchParams.get("oobCode") ?? "";
    secrets.push(changeCode);
    await get(`/verify-email?${new URLSearchParams({ oobCode: changeCode })}`);
    expect((await verifyEmail(t, changeCode, nextIp())).statusCode).toBe(200);

    // Password reset: the link opened (the page and the auth library's own address), then used.
    expect((await forgotPassword(t, { email: newEmail }, nextIp())).statusCode).toBe(200);
    const resetToken = (await linkInLastMail(t, newEmail, "/reset-password")).searchParams.get("token") ?? "";
    secrets.push(resetToken);
    await get(`/reset-password?${new URLSearchParams({ token: resetToken })}`);
    await get(`/api/auth/reset-password/${resetToken}?callbackURL=%2Freset-password`);
    const newPassword = "a logged-journey password";
    secrets.push(newPassword);
    expect((await resetPassword(t, { token: resetToken, newPassword }, nextIp())).statusCode).toBe(200);
    expect((await signIn(t, newEmail, newPassword, nextIp())).statusCode).toBe(200);

    // A mistaken scrape with the token in the address.
    await get(`/metrics?token=${TEST_METRICS_TOKEN}`);

    expect(secrets.every((secret) => secret.length >= 8)).toBe(true);
    expect(lines.some((line) => line.includes("/reset-password?token="))).toBe(true);
    for (const secret of secrets) expect(lines.filter((line) => line.includes(secret))).toEqual([]);
  });

  it("holds none of the credentials sent to any route, in its address or its body", async () => {
    const secret = "SECRET-IN-THE-ADDRESS-7731";
    const names = ["token", "code", "oobCode", "state", "key", "secret", "password", "signature", "otp", "callbackURL", "redirect", "email", "anything"];
    const query = names.map((name) => `${name}=${secret}`).join("&");
    const requested = new Set<string>();
    for (const route of routes) {
      const methods = (Array.isArray(route.method) ? route.method : [route.method]).filter((method) => method !== "HEAD" && method !== "OPTIONS");
      const path = route.url.replace(/:\w+/g, "1").replace(/\*/g, "x");
      for (const method of methods) {
        if (requested.has(`${method} ${path}`)) continue;
        requested.add(`${method} ${path}`);
        await t.app.inject({
          method,
          url: `${path}?${query}`,
          headers: { origin: t.services.env.appUrl, authorization: `Bearer ${secret}`, cookie: `ta.session_token=${secret}` },
          ...(method === "GET" || method === "DELETE" ? {} : { payload: { token: secret, password: secret } }),
          remoteAddress: nextIp(),
        });
      }
    }
    // And addresses no route answers, or that Fastify cannot decode.
    for (const url of ["/no-such-page", "/api/no-such-route", "/api/programs/%E0%A4%A", `/${"a".repeat(200)}`]) {
      await t.app.inject({ method: "GET", url: `${url}?${query}`, remoteAddress: nextIp() });
    }
    expect(requested.size).toBeGreaterThan(50);
    expect(lines.filter((line) => line.includes(secret))).toEqual([]);
  });
});
