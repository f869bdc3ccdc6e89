// Per-account lockout (docs/product.md, "Limits"): after 5 wrong passwords for one email within 15
// minutes, sign-in for that email is refused until 15 minutes after the first, whatever address
// the tries come from. A try claims its place in the count before its password is checked, in one
// statement (an upsert returning the new count), so tries sent at once are not all checked
// against the same count: the 6th and later are refused, in parallel and across instances
// (docs/operations.md, "Several instances"). The claim of a try that ends without a verdict on the
// password (an unverified email, a malformed request) is given back.
import { eq } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { loginFailures, rateLimits } from "../db/schema.ts";
import { countRequest, releaseRequest } from "../plugins/rate-limit-store.ts";

export const LOCKOUT_FAILURES = 5;
export const LOCKOUT_WINDOW_MS = 15 * 60_000;

/** No address is longer (RFC 5321), and login_failures' index could not hold a much longer one. */
const MAX_EMAIL_LENGTH = 254;

const lockoutKey = (email: string) => `sign-in-lockout:${email}`;

/** The account a sign-in is for, however its email is typed: the key of the lockout. */
export function lockoutEmail(body: unknown): string | null {
  if (typeof body !== "object" || body === null || !("email" in body) || typeof body.email !== "string") return null;
  const email = body.email.trim().toLowerCase();
  return email.length <= MAX_EMAIL_LENGTH ? email : null;
}

/**
 * Claims a password check for this account: null when it may go ahead, else the milliseconds until
 * the account's window ends and it may.
 */
export async function claimPasswordCheck(db: Db, email: string, nowMs: number): Promise<number | null> {
  const { current, ttl } = await countRequest(db, lockoutKey(email), LOCKOUT_WINDOW_MS, nowMs);
  return current <= LOCKOUT_FAILURES ? null : ttl;
}

/** The password was wrong: its claim stays in the count, and the failure is kept for an operator to read. */
export async function recordLoginFailure(db: Db, email: string): Promise<void> {
  await db.insert(loginFailures).values({ email });
}

/** The password was right: the account starts afresh. */
export async function clearLoginFailures(db: Db, email: string): Promise<void> {
  await db.delete(rateLimits).where(eq(rateLimits.key, lockoutKey(email)));
  await db.delete(loginFailures).where(eq(loginFailures.email, email));
}

/** The try ended without a verdict on the password: its claim is given back (in the same window). */
export async function releasePasswordCheck(db: Db, email: string, nowMs: number): Promise<void> {
  await releaseRequest(db, lockoutKey(email), LOCKOUT_WINDOW_MS, nowMs);
}
