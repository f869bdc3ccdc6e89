// Limits on the auth library's endpoints and on new accounts (docs/product.md, "Limits"). Learners
// often share one public address (a carrier's NAT, a seminar room on one Wi-Fi), so the per-address
// ones are counted in dozens, and count no request another site made: what guards one account or
// one link whatever the address is the per-account lockout (login-lockout.ts), the mail limits
// (account-mail-limit.ts) and the counts per link and per device below. All are counted in the
// database, so N instances allow what one allows (docs/operations.md, "Several instances").
import { createHash } from "node:crypto";
import { LIMIT_MESSAGES } from "../../shared/contracts/accounts.ts";
import type { Db } from "../db/client.ts";
import { countRequest, releaseRequest } from "../plugins/rate-limit-store.ts";

const MINUTE = 60;
const HOUR = 60 * MINUTE;

/** New accounts from one address: a seminar room of 40 signs up at once; hundreds do not. */
export const SIGN_UPS_PER_ADDRESS = { max: 60, windowMs: HOUR * 1000 } as const;

/**
 * Limits on the auth library's endpoints, by the route it serves (never the path a client
 * spelled), counted by our /api/auth mount (auth.routes.ts) rather than by the library, which
 * would count a request on arrival, before its body is read (docs/product.md, "Timings and
 * limits"). Each counts per address and per link or device (LibraryCaller). Any other path: 100 a
 * minute.
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

/**
 * What a request to the library is counted against (docs/product.md, "When a request counts
 * against a limit"): its address, unless another site made it (null then); and what it acts on,
 * from wherever it comes: the token of a link (a verification or reset link, a provider's return)
 * or, without one, the session it is signed in with.
 */
export type LibraryCaller = { address: string | null; guarded: { kind: "link" | "device"; token: string } | null };

/** What refused a request: its address's count, or its link's or device's. */
export type LibraryRefusal = { by: "address" | "link" | "device"; ms: number };

/** The counters of a request to `path`; a token is kept as its hash, so the counters hold no credential. */
function libraryKeys(path: string, caller: LibraryCaller): { by: LibraryRefusal["by"]; key: string }[] {
  const keys: { by: LibraryRefusal["by"]; key: string }[] = [];
  if (caller.address !== null) keys.push({ by: "address", key: `auth:${path}:${caller.address}` });
  if (caller.guarded !== null) {
    const hash = createHash("sha256").update(caller.guarded.token).digest("base64url");
    keys.push({ by: caller.guarded.kind, key: `auth:${path}:${caller.guarded.kind}:${hash}` });
  }
  return keys;
}

/**
 * Counts a request to the library's `path` (its route, `:token` left in) as it is handed to the
 * library, against each of its counters: null when it may go ahead, else what refused it (its
 * address first, when both did) and the milliseconds until every count lets it in.
 */
export async function claimLibraryRequest(db: Db, path: string, caller: LibraryCaller, nowMs: number): Promise<LibraryRefusal | null> {
  const { window, max } = libraryLimit(path);
  const refusals: LibraryRefusal[] = [];
  for (const { by, key } of libraryKeys(path, caller)) {
    const { current, ttl } = await countRequest(db, key, window * 1000, nowMs);
    if (current > max) refusals.push({ by, ms: ttl });
  }
  const [first] = refusals;
  return first ? { by: first.by, ms: Math.max(...refusals.map((refusal) => refusal.ms)) } : null;
}

/** The library refused the request before acting on it (its body, its origin): its counts are given back. */
export async function releaseLibraryRequest(db: Db, path: string, caller: LibraryCaller, nowMs: number): Promise<void> {
  for (const { key } of libraryKeys(path, caller)) await releaseRequest(db, key, libraryLimit(path).window * 1000, nowMs);
}

/** What a limit on the library's `path` answers, `ms` before it lets the caller in again. */
export function libraryLimitMessage(path: string, { by, ms }: LibraryRefusal): string {
  if (by === "link") return LIMIT_MESSAGES.linkRequests(ms);
  if (by === "device") return LIMIT_MESSAGES.deviceRequests(ms);
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
