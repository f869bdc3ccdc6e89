// Better Auth answers errors as { code, message } in its own words; the browser gets our one
// error shape with the spec's wording (docs/product.md, "Accounts"), chosen here on the server.
import { APIError } from "better-auth/api";
import { ACCOUNT_MESSAGES } from "../../shared/contracts/account-settings.ts";
import { AUTH_MESSAGES } from "../../shared/contracts/accounts.ts";

const BY_CODE: Record<string, string> = {
  INVALID_EMAIL_OR_PASSWORD: AUTH_MESSAGES.wrongPassword,
  INVALID_PASSWORD: AUTH_MESSAGES.wrongPassword,
  CREDENTIAL_ACCOUNT_NOT_FOUND: AUTH_MESSAGES.wrongPassword,
  USER_NOT_FOUND: AUTH_MESSAGES.wrongPassword,
  EMAIL_NOT_VERIFIED: AUTH_MESSAGES.emailNotVerified,
  USER_ALREADY_EXISTS: AUTH_MESSAGES.emailInUse,
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: AUTH_MESSAGES.emailInUse,
  INVALID_EMAIL: AUTH_MESSAGES.invalidEmail,
  PASSWORD_TOO_SHORT: AUTH_MESSAGES.passwordTooShort,
  PASSWORD_TOO_LONG: "Password should be at most 128 characters",
  SESSION_EXPIRED: AUTH_MESSAGES.requiresRecentLogin,
  BANNED_USER: AUTH_MESSAGES.userDisabled,
  TOKEN_EXPIRED: AUTH_MESSAGES.expiredActionCode,
};

/**
 * The codes of our own checks inside the library (auth-hooks.ts, and the refusals of an account
 * deletion). The library has none of these, and their message is already the one to show.
 */
const OWN_CODES = new Set(["TOO_MANY_REQUESTS", "VALIDATION", "PAYMENT_PENDING", "LAST_ADMIN"]);

/** The account page's endpoints ask for the signed-in user's own password, never an email's. */
const OWN_PASSWORD_PATHS = new Set(["/change-password", "/delete-user"]);
const OWN_PASSWORD_MESSAGES: Record<string, string> = {
  INVALID_PASSWORD: ACCOUNT_MESSAGES.passwordWrong,
  CREDENTIAL_ACCOUNT_NOT_FOUND: ACCOUNT_MESSAGES.noPassword,
};

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/** A limit of ours refusing a request inside the library: 429 with its message and Retry-After. */
export function limitRefusal(retryAfterMs: number, message: (ms: number) => string): APIError {
  const body = { code: "TOO_MANY_REQUESTS", message: message(retryAfterMs) };
  return new APIError("TOO_MANY_REQUESTS", body, { "retry-after": String(seconds(retryAfterMs)) });
}

/**
 * The same as a Response: for a hook that runs after the endpoint (the library would keep the
 * endpoint's status for an error), and for a per-address limit counted before the library (auth.routes.ts).
 */
export function limitResponse(retryAfterMs: number, message: (ms: number) => string): Response {
  const body = { code: "TOO_MANY_REQUESTS", message: message(retryAfterMs) };
  return Response.json(body, { status: 429, headers: { "retry-after": String(seconds(retryAfterMs)) } });
}

export function validationRefusal(message: string): APIError {
  return new APIError("BAD_REQUEST", { code: "VALIDATION", message });
}

/** What the library said, as read from its answer: its code and message, and the wait of a 429. */
export type LibraryError = { code?: string; message?: string; retryAfterSeconds?: number };

/** The message for an error answer of the library at `path` (the path it routes, e.g. `/sign-in/email`). */
export function authErrorMessage(path: string, error: LibraryError): string {
  const { code, message } = error;
  if (code && message && OWN_CODES.has(code)) return message;
  if (path === "/verify-email") return AUTH_MESSAGES.verificationFailed;
  if (OWN_PASSWORD_PATHS.has(path) && code && OWN_PASSWORD_MESSAGES[code]) return OWN_PASSWORD_MESSAGES[code];
  if (path === "/reset-password" && (code === "INVALID_TOKEN" || code === "TOKEN_EXPIRED")) {
    return AUTH_MESSAGES.resetLinkInvalid;
  }
  return (code && BY_CODE[code]) ?? AUTH_MESSAGES.authFailed;
}
