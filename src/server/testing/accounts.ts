// Account helpers for API tests: sign up, read the development mailbox, sign in, carry cookies.
import { desc, eq } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { devMail } from "../db/schema.ts";
import type { TestApp } from "./test-app.ts";

/** The browser origin Better Auth trusts in tests (APP_URL defaults to http://localhost:3000). */
export const ORIGIN = "http://localhost:3000";
export const PASSWORD = "correct horse";

/**
 * Hands out client addresses, one block per test file, so that per-IP rate limits never carry
 * from one request or test to the next unless a test reuses an address on purpose.
 */
export function ipAllocator(block: number): () => string {
  let next = 0;
  return () => {
    next++;
    return `10.${block}.${Math.floor(next / 250)}.${(next % 250) + 1}`;
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

export async function mailsTo(t: TestApp, email: string) {
  return t.database.db.select().from(devMail).where(eq(devMail.to, email)).orderBy(desc(devMail.id));
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

export function register(t: TestApp, payload: Record<string, unknown>, remoteAddress: string) {
  return t.app.inject({ method: "POST", url: "/api/accounts/register", headers: { origin: ORIGIN }, payload, remoteAddress });
}

export function verifyEmail(t: TestApp, token: string) {
  return t.app.inject({ method: "GET", url: `/api/auth/verify-email?${new URLSearchParams({ token })}` });
}

export function signIn(t: TestApp, email: string, password: string, remoteAddress: string) {
  return t.app.inject({
    method: "POST",
    url: "/api/auth/sign-in/email",
    headers: { origin: ORIGIN },
    payload: { email, password },
    remoteAddress,
  });
}

export function signOut(t: TestApp, cookie: string) {
  return t.app.inject({ method: "POST", url: "/api/auth/sign-out", headers: { cookie, origin: ORIGIN }, payload: {} });
}

export async function me(t: TestApp, cookie: string) {
  const response = await t.app.inject({ method: "GET", url: "/api/me", headers: { cookie } });
  if (response.statusCode !== 200) throw new Error(`/api/me answered ${response.statusCode}: ${response.body}`);
  return response.json<{ user: Record<string, unknown> | null }>().user;
}

/** Registers through the API and follows the emailed verification link; returns nothing signed in. */
export async function createVerifiedAccount(t: TestApp, email: string, nextIp: () => string, password = PASSWORD) {
  const response = await register(t, { fullName: "Test Learner", email, password, confirmPassword: password }, nextIp());
  if (response.statusCode !== 201) throw new Error(`register answered ${response.statusCode}: ${response.body}`);
  const link = await linkInLastMail(t, email, "/verify-email");
  const verified = await verifyEmail(t, link.searchParams.get("oobCode") ?? "");
  if (verified.statusCode !== 200) throw new Error(`verify answered ${verified.statusCode}: ${verified.body}`);
}

/** A verified account, signed in: the Cookie header to send. */
export async function signedInAccount(t: TestApp, email: string, nextIp: () => string, password = PASSWORD) {
  await createVerifiedAccount(t, email, nextIp, password);
  const response = await signIn(t, email, password, nextIp());
  if (response.statusCode !== 200) throw new Error(`sign-in answered ${response.statusCode}: ${response.body}`);
  return cookieHeader(response.headers["set-cookie"]);
}
