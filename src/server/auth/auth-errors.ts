// Better Auth answers errors as { code, message } in its own words; the browser gets our one
// error shape with the spec's wording (docs/product.md, "Accounts"), chosen here on the server.
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

export function authErrorMessage(path: string, status: number, code: string | undefined): string {
  if (status === 429) return AUTH_MESSAGES.tooManyRequests;
  if (path.endsWith("/verify-email")) return AUTH_MESSAGES.verificationFailed;
  if (path.endsWith("/reset-password") && (code === "INVALID_TOKEN" || code === "TOKEN_EXPIRED")) {
    return AUTH_MESSAGES.resetLinkInvalid;
  }
  return (code && BY_CODE[code]) ?? AUTH_MESSAGES.authFailed;
}
