// Mails to one account are limited per account, not only per client address: requests from many
// addresses would otherwise flood one inbox. Reset and verification mails share the numbers.
import { and, eq, gt } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { rateLimits } from "../db/schema.ts";
import { countRequest } from "../plugins/rate-limit-store.ts";

export const MAILS_PER_ACCOUNT = 3;
export const ACCOUNT_MAIL_WINDOW_MS = 15 * 60_000;

const verificationMailKey = (userId: string) => `verification-mail:${userId}`;

/**
 * Counts a verification mail for this account; false when the account already had its share in
 * this window, and the mail must not go out. One statement, so two requests at once cannot both
 * take the last one.
 */
export async function claimVerificationMail(db: Db, userId: string, nowMs: number): Promise<boolean> {
  const { current } = await countRequest(db, verificationMailKey(userId), ACCOUNT_MAIL_WINDOW_MS, nowMs);
  return current <= MAILS_PER_ACCOUNT;
}

/**
 * When a verification mail for this account was refused in the current window, the milliseconds
 * until the window ends (and a mail may go out again); otherwise null.
 */
export async function verificationMailWait(db: Db, userId: string, nowMs: number): Promise<number | null> {
  // The counter's last_request is the start of its window (countRequest).
  const [row] = await db
    .select({ count: rateLimits.count, windowStartedAt: rateLimits.lastRequest })
    .from(rateLimits)
    .where(and(eq(rateLimits.key, verificationMailKey(userId)), gt(rateLimits.lastRequest, nowMs - ACCOUNT_MAIL_WINDOW_MS)));
  return row && row.count > MAILS_PER_ACCOUNT ? row.windowStartedAt + ACCOUNT_MAIL_WINDOW_MS - nowMs : null;
}
