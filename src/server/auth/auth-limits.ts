// Per-address limits on the auth library's endpoints and on new accounts (docs/product.md,
// "Limits"). Learners often share one public address (a carrier's NAT, a seminar room on one
// Wi-Fi), so these are counted in dozens: what guards one account whatever the address is the
// per-account lockout (login-lockout.ts) and mail limits (account-mail-limit.ts). All are counted in
// the database, so N instances allow what one allows (docs/operations.md, "Several instances").
import { LIMIT_MESSAGES } from "../../shared/contracts/accounts.ts";
import type { Db } from "../db/client.ts";
import { countRequest, releaseRequest } from "../plugins/rate-limit-store.ts";

const MINUTE = 60;
const HOUR = 60 * MINUTE;

/** New accounts from one address: a seminar room of 40 signs up at once; hundreds do not. */
export const SIGN_UPS_PER_ADDRESS = { max: 60, windowMs: HOUR * 1000 } as const;

/**
 * Per-address limits on the auth library's endpoints, by the path it routes (never the path a
 * client spelled), counted by our /api/auth mount (auth.routes.ts) rather than by the library,
 * which would count a request on arrival, before its body is read (docs/product.md, "Timings and
 * limits"). Any other path: 100 a minute.
 */
export const LIBRARY_LIMITS = {
  "/sign-in/email": { window: 5 * MINUTE, max: 100 },
  "/sign-in/social": { window: 5 * MINUTE, max: 60 },
  "/sign-in/oauth2": { window: 5 * MINUTE, max: 60 },
  "/send-verification-email": { window: 10 * MINUTE, max: 60 },
  "/reset-password": { window: 10 * MINUTE, max: 20 },
  "/change-password": { window: 10 * MINUTE, max: 10 },
  "/change-email": { window: 10 * MINUTE, max: 10 },
} as const;

export const DEFAULT_LIBRARY_LIMIT = { window: MINUTE, max: 100 } as const;

type LibraryLimit = { window: number; max: number };

/** The per-address limit on the library's `path`, its window in seconds. */
export function libraryLimit(path: string): LibraryLimit {
  const rules: Record<string, LibraryLimit> = LIBRARY_LIMITS;
  return rules[path] ?? DEFAULT_LIBRARY_LIMIT;
}

const libraryKey = (path: string, address: string) => `auth:${path}:${address}`;

/**
 * Counts a request to the library's `path` for this address, as it is handed to the library: null
 * when it may go ahead, else the milliseconds until it may.
 */
export async function claimLibraryRequest(db: Db, path: string, address: string, nowMs: number): Promise<number | null> {
  const { window, max } = libraryLimit(path);
  const { current, ttl } = await countRequest(db, libraryKey(path, address), window * 1000, nowMs);
  return current <= max ? null : ttl;
}

/** The library refused the request before acting on it (its body, its origin): its count is given back. */
export async function releaseLibraryRequest(db: Db, path: string, address: string, nowMs: number): Promise<void> {
  await releaseRequest(db, libraryKey(path, address), libraryLimit(path).window * 1000, nowMs);
}

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
