// Mails to one account are limited per account, not only per client address: requests from many
// addresses would otherwise flood one inbox. Reset and verification mails share the numbers.
import type { Db } from "../db/client.ts";
import { countRequest, requestsInWindow } from "../plugins/rate-limit-store.ts";

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

/** True when a verification mail for this account was refused in the current window. */
export async function verificationMailRefused(db: Db, userId: string, nowMs: number): Promise<boolean> {
  return (await requestsInWindow(db, verificationMailKey(userId), ACCOUNT_MAIL_WINDOW_MS, nowMs)) > MAILS_PER_ACCOUNT;
}
