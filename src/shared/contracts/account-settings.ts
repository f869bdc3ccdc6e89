// The account page (/account): a learner's own name, email, password, sessions, sign-in methods and
// the deletion of the account (docs/accounts.md). Its texts sit here so that the browser shows
// exactly what the server says.
import * as z from "zod/mini";
import { AUTH_MESSAGES, MAY_TAKE_MINUTES, messageResponseSchema, MIN_PASSWORD_LENGTH } from "./accounts.ts";
import { endpoint } from "./endpoint.ts";

/** The longest full name, as registration allows it. */
export const MAX_NAME_LENGTH = 100;
const MAX_PASSWORD_LENGTH = 128;

/**
 * How long after signing in an account without a password may be deleted: signing in again is
 * its confirmation (docs/accounts.md, "Deleting an account").
 */
export const RECENT_SIGN_IN_MINUTES = 10;

/** What a deleted account's payments say in place of its email (docs/accounts.md). */
export const DELETED_ACCOUNT_EMAIL = "deleted account";

export const ACCOUNT_MESSAGES = {
  nameRequired: "Please enter your full name",
  nameTooLong: "Full name should be at most 100 characters",
  nameSaved: "Your name has been saved.",
  emailRequired: AUTH_MESSAGES.resetEmailRequired,
  // The spec's email-already-in-use message, less its advice to log in, which does not fit here.
  emailInUse: "An account with this email already exists.",
  emailUnchanged: "This is already your email address.",
  emailChangeSent: (email: string) =>
    `We sent a link to ${email}. Your email changes once you open it; until then, it stays as it is. ${MAY_TAKE_MINUTES}`,
  emailChangeMailFailed: "The link could not be sent. Please try again later.",
  passwordWrong: "Incorrect password. Please try again.",
  noPassword: "Your account signs in with Google or MQL5 and has no password.",
  passwordChanged: "Your password has been changed. Your other devices have been signed out.",
  otherSessionsSignedOut: "Your other devices have been signed out.",
  sessionSignedOut: "That device has been signed out.",
  sessionNotFound: "This device is no longer signed in.",
  currentSession: "This is the device you are using: use Logout to sign out of it.",
  deletePasswordRequired: "Please enter your password to delete your account.",
  deletePaymentPending:
    "A payment of yours is still being confirmed with Paystack. Please try again in a few minutes, once it is settled.",
  deleteLastAdmin: "You are the only administrator. Make another account an administrator before deleting yours.",
  accountDeleted: "Your account has been deleted.",
} as const;

/** The account forms show one message for the whole form (as the sign-in forms do). */
function issueOn<T>(ctx: z.core.ParsePayload<T>) {
  return (message: string): void => {
    ctx.issues.push({ code: "custom", message, input: ctx.value });
  };
}

/** The full name: registration's rules (some text, at most 100 characters), trimmed. */
export const nameFormSchema = z.object({ name: z.string().check(z.trim()) }).check((ctx) => {
  const issue = issueOn(ctx);
  if (!ctx.value.name) return issue(ACCOUNT_MESSAGES.nameRequired);
  if (ctx.value.name.length > MAX_NAME_LENGTH) return issue(ACCOUNT_MESSAGES.nameTooLong);
});

/** POST /api/accounts/change-email: the new address, trimmed and lowered as registration does. */
export const changeEmailRequestSchema = z
  .object({ newEmail: z.string().check(z.trim(), z.toLowerCase()) })
  .check((ctx) => {
    const issue = issueOn(ctx);
    if (!ctx.value.newEmail) return issue(ACCOUNT_MESSAGES.emailRequired);
    if (!z.email().safeParse(ctx.value.newEmail).success) return issue(AUTH_MESSAGES.invalidEmail);
  });
export type ChangeEmailRequest = z.input<typeof changeEmailRequestSchema>;

/** The change-password form: the current password, then registration's rules for the new one. */
export const changePasswordFormSchema = z
  .object({ currentPassword: z.string(), newPassword: z.string(), confirmPassword: z.string() })
  .check((ctx) => {
    const { currentPassword, newPassword, confirmPassword } = ctx.value;
    const issue = issueOn(ctx);
    if (!currentPassword || !newPassword || !confirmPassword) return issue(AUTH_MESSAGES.fillAllFields);
    if (newPassword !== confirmPassword) return issue(AUTH_MESSAGES.passwordsDoNotMatch);
    if (newPassword.length < MIN_PASSWORD_LENGTH) return issue(AUTH_MESSAGES.passwordTooShort);
    if (newPassword.length > MAX_PASSWORD_LENGTH) return issue("Password should be at most 128 characters");
  });

/** One signed-in device, as the account page lists it. */
export const accountSessionSchema = z.object({
  id: z.string(),
  /** "Chrome on Windows", read from the browser's user agent; "Unknown device" without one. */
  device: z.string(),
  ipAddress: z.nullable(z.string()),
  signedInAt: z.string(),
  /** When the session was last used or extended (extended at most once a day). */
  lastActiveAt: z.string(),
  current: z.boolean(),
});
export type AccountSession = z.infer<typeof accountSessionSchema>;

export const accountSessionsResponseSchema = z.object({ sessions: z.array(accountSessionSchema) });

/** GET /api/auth/list-accounts: the sign-in methods linked to the account (the library's answer). */
export const linkedAccountsResponseSchema = z.array(
  z.looseObject({ providerId: z.string(), createdAt: z.string() }),
);

/** The sign-in methods the page names, by the auth library's provider id. */
export const SIGN_IN_METHODS = [
  { providerId: "credential", label: "Email and password" },
  { providerId: "google", label: "Google" },
  { providerId: "mql5", label: "MQL5" },
] as const;

/** POST /api/auth/delete-user: the password, or nothing for an account without one. */
export const deleteAccountRequestSchema = z.object({ password: z.optional(z.string()) });
export type DeleteAccountRequest = z.input<typeof deleteAccountRequestSchema>;

/** POST /api/auth/change-password: the form's two passwords, and the other devices signed out. */
export const changePasswordRequestSchema = z.object({
  currentPassword: z.string(),
  newPassword: z.string(),
  revokeOtherSessions: z.literal(true),
});

/** The account page's devices and email change (docs/accounts.md). */
export const ACCOUNT_SETTINGS_ENDPOINTS = {
  sessions: endpoint({ method: "GET", path: "/api/accounts/sessions", response: accountSessionsResponseSchema }),
  revokeSession: endpoint({
    method: "DELETE",
    path: "/api/accounts/sessions/:id",
    params: z.object({ id: z.string() }),
    response: messageResponseSchema,
  }),
  changeEmail: endpoint({ method: "POST", path: "/api/accounts/change-email", body: changeEmailRequestSchema, response: messageResponseSchema }),
};
