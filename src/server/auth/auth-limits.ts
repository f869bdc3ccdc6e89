// Per-address limits on the auth library's endpoints and on new accounts (docs/product.md,
// "Limits"). Learners often share one public address (a carrier's NAT, a seminar room on one
// Wi-Fi), so these are counted in dozens: what guards one account whatever the address is the
// per-account lockout (login-lockout.ts) and mail limits (account-mail-limit.ts). All are counted in
// the database, so N instances allow what one allows (docs/operations.md, "Several instances").
import { LIMIT_MESSAGES } from "../../shared/contracts/accounts.ts";
import type { Db } from "../db/client.ts";
import { countRequest } from "../plugins/rate-limit-store.ts";

const MINUTE = 60;
const HOUR = 60 * MINUTE;

/** New accounts from one address: a seminar room of 40 signs up at once; hundreds do not. */
export const SIGN_UPS_PER_ADDRESS = { max: 60, windowMs: HOUR * 1000 } as const;

/**
 * The auth library's own per-address limits, by the path it routes (`ctx.path`, never the path a
 * client spelled). Any other path: 100 a minute. The sign-up rule limits nothing (the library's
 * sign-up endpoint is not served; our register route calls the library directly), but its hour
 * keeps our own counters alive: the library deletes every rate_limits row older than its longest
 * window when one of its windows ends, and ours (the lockout's and the mail limit's 15 minutes,
 * the sign-up hour) share that table. The retention job keeps them an hour too (docs/operations.md, "Retention").
 */
export const LIBRARY_LIMITS = {
  "/sign-in/email": { window: 5 * MINUTE, max: 100 },
  "/sign-in/social": { window: 5 * MINUTE, max: 60 },
  "/sign-in/oauth2": { window: 5 * MINUTE, max: 60 },
  "/sign-up/email": { window: SIGN_UPS_PER_ADDRESS.windowMs / 1000, max: SIGN_UPS_PER_ADDRESS.max },
  "/send-verification-email": { window: 10 * MINUTE, max: 60 },
  "/reset-password": { window: 10 * MINUTE, max: 20 },
  "/change-password": { window: 10 * MINUTE, max: 10 },
  "/change-email": { window: 10 * MINUTE, max: 10 },
} as const;

export const DEFAULT_LIBRARY_LIMIT = { window: MINUTE, max: 100 } as const;

/** What the library's per-address limit on `path` answers, `ms` before it lets the address in again. */
export function libraryLimitMessage(path: string, ms: number): string {
  if (path.startsWith("/sign-in/")) return LIMIT_MESSAGES.signIns(ms);
  if (path === "/send-verification-email") return LIMIT_MESSAGES.verificationRequests(ms);
  if (path === "/reset-password") return LIMIT_MESSAGES.resetAttempts(ms);
  return LIMIT_MESSAGES.requests(ms);
}

/**
 * Counts a new account for this address, in the library's hook on its sign-up, which our register
 * route calls (the library's own sign-up endpoint is not served): null when it may go ahead, else
 * the milliseconds until it may.
 */
export async function claimSignUp(db: Db, address: string, nowMs: number): Promise<number | null> {
  const { current, ttl } = await countRequest(db, `sign-up:${address}`, SIGN_UPS_PER_ADDRESS.windowMs, nowMs);
  return current <= SIGN_UPS_PER_ADDRESS.max ? null : ttl;
}
