// Account helpers for API tests: sign up, read the development mailbox, sign in, carry cookies.
// Users are made the way a person makes one: register, open the verification link from the dev
// mailbox, sign in. A plan is then set directly in the users table, as a payment or an
// administrator would.
import { and, desc, eq, sql } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { expect } from "vitest";
import { waitText } from "../../shared/contracts/accounts.ts";
import type { Plan, SubscriptionStatus } from "../../shared/plans.ts";
import { LOCKOUT_FAILURES } from "../auth/login-lockout.ts";
import { devMail, jobs, users } from "../db/schema.ts";
import { MAIL_JOB } from "../emails/outbox.ts";
import { setUserPlan } from "../features/users/users.service.ts";
import type { TestApp } from "./test-app.ts";

/**
 * The browser origin Better Auth trusts in tests (APP_URL defaults to http://localhost:3000).
 * The helpers below send the app's own APP_URL, so they also work for an app that listens.
 */
export const ORIGIN = "http://localhost:3000";
export const PASSWORD = "correct horse";

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Hands out client addresses, one block per test file, so that per-IP rate limits never carry
 * from one request or test to the next unless a test reuses an address on purpose. With `network`
 * 127 they are loopback addresses, which a request over real HTTP can be sent from.
 */
export function ipAllocator(block: number, network: 10 | 127 = 10): () => string {
  let next = 0;
  return () => {
    next++;
    return `${network}.${block}.${Math.floor(next / 250)}.${(next % 250) + 1}`;
  };
}

type SetCookie = string | string[] | undefined;

function setCookieList(setCookie: SetCookie): string[] {
  if (Array.isArray(setCookie)) return setCookie;
  return setCookie ? [setCookie] : [];
}

/** The `Cookie` header a browser would send back after these Set-Cookie headers. */
export function cookieHeader(...responses: SetCookie[]): string {
  const jar = new Map<string, string>();
  for (const cookie of responses.flatMap(setCookieList)) {
    const pair = cookie.split(";")[0] ?? "";
    const name = pair.split("=")[0] ?? "";
    const expired = /max-age=0\b/i.test(cookie) || pair.endsWith("=");
    if (expired) jar.delete(name);
    else jar.set(name, pair);
  }
  return [...jar.values()].join("; ");
}

/** The session cookie's own Set-Cookie line, if the response set one. */
export function sessionSetCookie(response: LightMyRequestResponse): string | undefined {
  return setCookieList(response.headers["set-cookie"]).find((c) => c.startsWith("ta.session_token="));
}

/**
 * The development mailbox's messages to `email`, newest first, once the outbox's due messages are
 * delivered (each is a job, which a test app runs only when asked).
 */
export async function mailsTo(t: TestApp, email: string) {
  await mailDelivered(t);
  return t.database.db.select().from(devMail).where(eq(devMail.to, email)).orderBy(desc(devMail.id));
}

/**
 * Every email queued so far and due has been handed to the mail server (docs/testing.md): this
 * app's outbox runs now, and a message another instance is claiming or sending is waited for. A
 * message waiting to be tried again later is not.
 */
export async function mailDelivered(t: TestApp) {
  // Polled on the real clock: a test may have faked Date (vi.waitFor would move a faked clock on).
  const deadline = performance.now() + 20_000;
  for (;;) {
    await t.services.jobs.runDue(MAIL_JOB);
    // Still due and pending: another instance holds it in the transaction that claims it.
    const [waiting] = await t.database.db
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(eq(jobs.kind, MAIL_JOB), sql`(${jobs.status} = 'running' or (${jobs.status} = 'pending' and ${jobs.runAt} <= now()))`))
      .limit(1);
    if (!waiting) return;
    if (performance.now() > deadline) throw new Error(`mail job ${waiting.id} was not delivered within 20 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The first link in the newest mail to `email` whose path is `path`, as a URL. */
export async function linkInLastMail(t: TestApp, email: string, path: string): Promise<URL> {
  const [mail] = await mailsTo(t, email);
  if (!mail) throw new Error(`no mail to ${email}`);
  return linkIn(mail.text, path);
}

export function linkIn(text: string, path: string): URL {
  const link = (text.match(/https?:\/\/\S+/g) ?? []).map((href) => new URL(href)).find((url) => url.pathname === path);
  if (!link) throw new Error(`no ${path} link in:\n${text}`);
  return link;
}

/** A complete registration form for `email`, with PASSWORD; `overrides` replace or add fields. */
export function registrationForm(email: string, overrides: Record<string, unknown> = {}) {
  return { fullName: "Ama Mensah", email, password: PASSWORD, confirmPassword: PASSWORD, ...overrides };
}

export function register(t: TestApp, payload: Record<string, unknown>, remoteAddress: string) {
  return t.app.inject({ method: "POST", url: "/api/accounts/register", headers: { origin: t.services.env.appUrl }, payload, remoteAddress });
}

export function verifyEmail(t: TestApp, token: string, remoteAddress?: string) {
  return t.app.inject({ method: "GET", url: `/api/auth/verify-email?${new URLSearchParams({ token })}`, remoteAddress });
}

export function forgotPassword(t: TestApp, payload: Record<string, unknown>, remoteAddress: string) {
  return t.app.inject({ method: "POST", url: "/api/accounts/forgot-password", payload, remoteAddress });
}

export function resetPassword(t: TestApp, payload: Record<string, unknown>, remoteAddress: string) {
  return t.app.inject({ method: "POST", url: "/api/auth/reset-password", headers: { origin: t.services.env.appUrl }, payload, remoteAddress });
}

export function signIn(t: TestApp, email: string, password: string, remoteAddress: string) {
  return t.app.inject({
    method: "POST",
    url: "/api/auth/sign-in/email",
    headers: { origin: t.services.env.appUrl },
    payload: { email, password },
    remoteAddress,
  });
}

/**
 * Locks `email` out with wrong passwords, each from an address of its own. Later tries at it are
 * refused before any password is hashed, yet count against their address's sign-in limit: a cheap
 * way to spend that allowance.
 */
export async function lockOut(t: TestApp, email: string, nextIp: () => string) {
  for (let attempt = 1; attempt <= LOCKOUT_FAILURES; attempt++) {
    expectStatus(`wrong password ${attempt} for ${email}`, await signIn(t, email, `wrong password ${attempt}`, nextIp()), 401);
  }
}

export function signOut(t: TestApp, cookie: string) {
  return t.app.inject({ method: "POST", url: "/api/auth/sign-out", headers: { cookie, origin: t.services.env.appUrl }, payload: {} });
}

export async function me(t: TestApp, cookie: string) {
  const response = await t.app.inject({ method: "GET", url: "/api/me", headers: { cookie } });
  if (response.statusCode !== 200) throw new Error(`/api/me answered ${response.statusCode}: ${response.body}`);
  return response.json<{ user: Record<string, unknown> | null }>().user;
}

function expectStatus(what: string, response: LightMyRequestResponse, status: number) {
  if (response.statusCode !== status) {
    throw new Error(`${what}: expected ${status}, got ${response.statusCode}: ${response.body}`);
  }
}

/** Registers through the API and follows the emailed verification link; returns nothing signed in. */
export async function createVerifiedAccount(t: TestApp, email: string, nextIp: () => string, password = PASSWORD) {
  const form = registrationForm(email, { fullName: "Test Learner", password, confirmPassword: password });
  expectStatus(`register ${email}`, await register(t, form, nextIp()), 201);
  const link = await linkInLastMail(t, email, "/verify-email");
  expectStatus(`verify ${email}`, await verifyEmail(t, link.searchParams.get("oobCode") ?? "", nextIp()), 200);
}

export type TestUser = { id: string; email: string; cookie: string };

/** The users row's subscription after sign-up; all omitted keeps the signup default (legacyFree). */
export type TestUserPlan = {
  /** The stored plan; null leaves the row without one. */
  plan?: Plan | null;
  /** Defaults to active for a paid plan, inactive otherwise. */
  status?: SubscriptionStatus;
  /** Defaults to 30 days from now for a paid plan, none otherwise. */
  subscriptionEnd?: Date | null;
};

export type TestUserOptions = TestUserPlan & { email: string; nextIp: () => string };

/**
 * A verified, signed-in user with the plan asked for. Safe to call many times in parallel: each
 * request comes from an address of its own, so the per-address limits never trip.
 */
export async function createSignedInUser(t: TestApp, options: TestUserOptions): Promise<TestUser> {
  const { database } = t;
  const email = options.email.toLowerCase();
  await createVerifiedAccount(t, email, options.nextIp);
  const response = await signIn(t, email, PASSWORD, options.nextIp());
  expectStatus(`sign in ${email}`, response, 200);
  const cookie = cookieHeader(response.headers["set-cookie"]);

  const [user] = await database.db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = ${email}`);
  if (!user) throw new Error(`no users row for ${email}`);

  const { plan = "legacyFree", status, subscriptionEnd } = options;
  if (options.plan !== undefined || status !== undefined || subscriptionEnd !== undefined) {
    const paid = plan === "intermediate" || plan === "advanced";
    const now = Date.now();
    await database.db
      .update(users)
      .set({
        subscriptionPlan: plan,
        subscriptionStatus: status ?? (paid ? "active" : "inactive"),
        subscriptionStart: paid ? new Date(now - DAY_MS) : null,
        subscriptionEnd: subscriptionEnd !== undefined ? subscriptionEnd : paid ? new Date(now + 30 * DAY_MS) : null,
      })
      .where(eq(users.id, user.id));
  }

  return { id: user.id, email, cookie };
}

/** Gives the account a plan the way the operator command does (with its audit entry). */
export async function givePlan(t: TestApp, email: string, plan: Plan) {
  await setUserPlan(t.database.db, { email, plan, actorId: null, reason: "test", now: new Date() });
}

/**
 * Signs in one user per key at once (each `${key}@example.com`, with the given plan) and
 * returns a lookup that fails loudly for a key that was not created.
 */
export async function createTestUsers<K extends string>(
  t: TestApp,
  nextIp: () => string,
  users: Record<K, TestUserPlan>,
): Promise<(key: K) => TestUser> {
  const entries = Object.entries<TestUserPlan>(users) as [K, TestUserPlan][];
  const made = await Promise.all(
    entries.map(([key, options]) => createSignedInUser(t, { email: `${key}@example.com`, nextIp, ...options })),
  );
  const byKey = new Map(entries.map(([key], index) => [key, made[index]]));
  return (key) => {
    const found = byKey.get(key);
    if (!found) throw new Error(`no test user ${key}`);
    return found;
  };
}

/** Any message `LIMIT_MESSAGES.x` makes, whatever its wait ("4 minutes", "30 seconds"). */
export function limitMessagePattern(message: (ms: number) => string): RegExp {
  const [before = "", after = ""] = message(1000).split(waitText(1000));
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`^${escape(before)}\\d+ (second|minute)s?${escape(after)}$`);
}

/** The answer of a limit: 429 in the one error shape, with the limit's message. */
export function limitAnswer(message: (ms: number) => string) {
  return { error: { code: "TOO_MANY_REQUESTS", message: expect.stringMatching(limitMessagePattern(message)), requestId: expect.any(String) } };
}
