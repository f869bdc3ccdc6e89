// Per-account lockout: after 5 wrong passwords for one email within 15 minutes, sign-in for that
// email is refused until the oldest failure is 15 minutes old, whatever address the tries come from.
import { and, count, eq, gt } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { loginFailures } from "../db/schema.ts";

export const LOCKOUT_FAILURES = 5;
export const LOCKOUT_WINDOW_MS = 15 * 60_000;

export async function isLockedOut(db: Db, email: string, now: Date): Promise<boolean> {
  const since = new Date(now.getTime() - LOCKOUT_WINDOW_MS);
  const [row] = await db
    .select({ failures: count() })
    .from(loginFailures)
    .where(and(eq(loginFailures.email, email), gt(loginFailures.createdAt, since)));
  return (row?.failures ?? 0) >= LOCKOUT_FAILURES;
}

export async function recordLoginFailure(db: Db, email: string): Promise<void> {
  await db.insert(loginFailures).values({ email });
}

export async function clearLoginFailures(db: Db, email: string): Promise<void> {
  await db.delete(loginFailures).where(eq(loginFailures.email, email));
}
