import * as z from "zod/mini";
import { endpoint } from "./endpoint.ts";

export const MIN_PASSWORD_LENGTH = 8;

/**
 * Said after each message that tells of an email on its way: it is queued, and goes once the mail
 * server takes it, which may be a few minutes (docs/decisions/023-mail-outbox.md).
 */
export const MAY_TAKE_MINUTES = "It may take a few minutes to arrive.";

/** Every text the account screens show (docs/product.md, "Accounts"). */
export const AUTH_MESSAGES = {
  loginMissingBoth: "Please enter your email and password",
  loginMissingEmail: "Please enter your email",
  loginMissingPassword: "Please enter your password",
  fillAllFields: "Please fill in all fields",
  passwordsDoNotMatch: "Passwords do not match",
  passwordTooShort: "Password should be at least 8 characters",
  resetEmailRequired: "Please enter your email address",
  invalidEmail: "Please enter a valid email address.",
  forgotInvalidEmail: "Please enter a valid email.",
  forgotNoUser: "No user found with this email.",
  userDisabled: "This account has been disabled. Please contact support.",
  wrongPassword: "Incorrect email or password. Please try again.",
  network: "Network error. Please check your connection and try again.",
  emailInUse: "An account with this email already exists. Please log in instead.",
  requiresRecentLogin: "Please log in again to complete this action.",
  expiredActionCode: "The action code has expired. Please try again.",
  invalidActionCode: "Invalid action code. Please request a new verification link.",
  authFailed: "Authentication failed. Please try again.",
  unexpected: "An unexpected error occurred. Please try again.",
  verificationFailed: "Invalid or expired verification link.",
  verificationLinkMissing: "Invalid verification link.",
  registrationFailed: "Failed to complete registration. Please try again.",
  verificationMailFailed: "Account created but verification email could not be sent.",
  alreadyVerified: "Your email is already verified. Please log in.",
  verificationResent: `This email is already registered but not verified. We sent you a new verification link. ${MAY_TAKE_MINUTES}`,
  loginSuccess: "Login successful!",
  registrationSuccess: `Registration successful! Please check your email to verify your account. ${MAY_TAKE_MINUTES}`,
  resetEmailSent: `Password reset email sent! ${MAY_TAKE_MINUTES}`,
  passwordResetDone: "Your password has been reset. Please log in.",
  resetLinkInvalid: "This password reset link is invalid or has expired. Please request a new one.",
  emailVerified: "Email verified successfully!",
  // A reused verification link, opened signed in (signed out, it is `alreadyVerified`).
  emailAlreadyVerified: "Your email is already verified.",
  emailChanged: (email: string) => `Your email is now ${email}`,
  signedOutElsewhere: "You were signed out on this device from another session. Please log in again.",
  verificationEmailSent: `Verification email sent. Please check your inbox. ${MAY_TAKE_MINUTES}`,
  emailNotVerified: "Please verify your email before logging in. We sent you a new verification link.",
  googleAccountExists: "An account already exists with the same email but different sign-in credentials.",
  googleCancelled: "Sign in was cancelled",
  googlePopupBlocked: "Popup was blocked. Please allow popups for this site.",
  googleUnauthorizedDomain: "This domain is not authorized for Google Sign-In",
  googleFailed: "Failed to sign in with Google.",
  mql5Failed: "Failed to sign in with MQL5.",
  providerStale: "That sign-in had expired or was started again in another tab. Please try again.",
  providerEmailNotVerified: (provider: string) =>
    `Your ${provider} account's email address is not verified yet. We sent a verification link to it: open the link, then sign in with ${provider} again.`,
  providerNoEmail: (provider: string) =>
    `${provider} did not share your email address with us. Please allow it and try again, or sign up with your email.`,
  providerUnavailable: (provider: string) => `${provider} could not be reached. Please try again in a few minutes.`,
  providerNotConfigured: "This sign-in option is not set up yet.",
  profileNameInvalid: "Full name should be text of at most 100 characters",
  profileNameOnly: "Only your full name can be changed here.",
} as const;

/** How long until a limit lets one try again, as its message says it: "30 seconds", "4 minutes". */
export function waitText(milliseconds: number): string {
  const seconds = Math.max(1, Math.ceil(milliseconds / 1000));
  if (seconds < 60) return seconds === 1 ? "1 second" : `${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? "1 minute" : `${minutes} minutes`;
}

/**
 * What each limit answers (docs/product.md, "Limits"): what was limited and when to try again, in
 * milliseconds from now. Only the lockout, which counts wrong passwords, speaks of passwords; the reset
 * limits are about reset emails and links.
 */
export const LIMIT_MESSAGES = {
  lockedOut: (ms: number) =>
    `Too many failed sign-in attempts for this account. Please try again in ${waitText(ms)} or reset your password.`,
  signUps: (ms: number) => `Too many sign-ups from your network. Please try again in ${waitText(ms)}.`,
  signIns: (ms: number) => `Too many sign-in attempts from your network. Please try again in ${waitText(ms)}.`,
  verificationEmails: (ms: number) =>
    `Too many verification emails for this account. Please try again in ${waitText(ms)}.`,
  verificationRequests: (ms: number) =>
    `Too many verification email requests from your network. Please try again in ${waitText(ms)}.`,
  resetEmails: (ms: number) =>
    `Too many password reset emails for this account. Please try again in ${waitText(ms)}.`,
  resetRequests: (ms: number) =>
    `Too many password reset requests from your network. Please try again in ${waitText(ms)}.`,
  resetAttempts: (ms: number) =>
    `Too many password reset attempts from your network. Please try again in ${waitText(ms)}.`,
  requests: (ms: number) => `Too many requests from your network. Please try again in ${waitText(ms)}.`,
  linkRequests: (ms: number) => `Too many requests with this link. Please try again in ${waitText(ms)}.`,
  deviceRequests: (ms: number) => `Too many requests from this device. Please try again in ${waitText(ms)}.`,
} as const;

const email = z.string().check(z.trim(), z.toLowerCase());

/** POST /api/accounts/register: the form's fields, checked in the spec's order. */
export const registerRequestSchema = z
  .object({
    fullName: z.string().check(z.trim()),
    email,
    password: z.string(),
    confirmPassword: z.string(),
  })
  .check((ctx) => {
    const { fullName, email, password, confirmPassword } = ctx.value;
    const issue = (message: string) => {
      ctx.issues.push({ code: "custom", message, input: ctx.value });
    };
    if (!fullName || !email || !password || !confirmPassword) return issue(AUTH_MESSAGES.fillAllFields);
    if (!z.email().safeParse(email).success) return issue(AUTH_MESSAGES.invalidEmail);
    if (password !== confirmPassword) return issue(AUTH_MESSAGES.passwordsDoNotMatch);
    if (password.length < MIN_PASSWORD_LENGTH) return issue(AUTH_MESSAGES.passwordTooShort);
    if (password.length > 128) return issue("Password should be at most 128 characters");
    if (fullName.length > 100) return issue("Full name should be at most 100 characters");
  });
export type RegisterRequest = z.input<typeof registerRequestSchema>;

export const registerResponseSchema = z.object({
  status: z.enum(["created", "created-mail-failed", "verification-resent"]),
  message: z.string(),
});
export type RegisterResponse = z.infer<typeof registerResponseSchema>;

/** POST /api/accounts/forgot-password */
export const forgotPasswordRequestSchema = z.object({
  email: z.pipe(
    z
      .string({ error: AUTH_MESSAGES.resetEmailRequired })
      .check(z.trim(), z.toLowerCase(), z.minLength(1, AUTH_MESSAGES.resetEmailRequired)),
    z.email({ error: AUTH_MESSAGES.forgotInvalidEmail }),
  ),
});
export const messageResponseSchema = z.object({ message: z.string() });


const emailFormat = z.email();
const PASSWORD_TOO_LONG = "Password should be at most 128 characters";

/** The account forms show one message for the whole form, so their issues sit at the form level. */
function formIssue<T>(ctx: z.core.ParsePayload<T>) {
  return (message: string): void => {
    ctx.issues.push({ code: "custom", message, input: ctx.value });
  };
}

/** The login form (docs/product.md, "Accounts"): one message naming what is missing. */
export const loginFormSchema = z
  .object({ email, password: z.string() })
  .check((ctx) => {
    const { email, password } = ctx.value;
    const issue = formIssue(ctx);
    if (!email && !password) return issue(AUTH_MESSAGES.loginMissingBoth);
    if (!email) return issue(AUTH_MESSAGES.loginMissingEmail);
    if (!password) return issue(AUTH_MESSAGES.loginMissingPassword);
  });
export type Credentials = z.infer<typeof loginFormSchema>;

/** The forgot-password form: the same messages the server answers with. */
export const forgotPasswordFormSchema = z.object({ email }).check((ctx) => {
  const issue = formIssue(ctx);
  if (!ctx.value.email) return issue(AUTH_MESSAGES.resetEmailRequired);
  if (!emailFormat.safeParse(ctx.value.email).success) return issue(AUTH_MESSAGES.forgotInvalidEmail);
});

/** The reset-password form: the signup's password rules, in the same order. */
export const resetPasswordFormSchema = z
  .object({ newPassword: z.string(), confirmPassword: z.string() })
  .check((ctx) => {
    const { newPassword, confirmPassword } = ctx.value;
    const issue = formIssue(ctx);
    if (!newPassword || !confirmPassword) return issue(AUTH_MESSAGES.fillAllFields);
    if (newPassword !== confirmPassword) return issue(AUTH_MESSAGES.passwordsDoNotMatch);
    if (newPassword.length < MIN_PASSWORD_LENGTH) return issue(AUTH_MESSAGES.passwordTooShort);
    if (newPassword.length > 128) return issue(PASSWORD_TOO_LONG);
  });

/** POST /api/auth/reset-password: the new password and the mailed link's token. */
export const resetPasswordRequestSchema = z.object({ newPassword: z.string(), token: z.string() });

/** POST /api/auth/send-verification-email: the signed-in user's own address. */
export const sendVerificationEmailRequestSchema = z.object({ email: z.string() });

export const SOCIAL_PROVIDERS = ["google", "mql5"] as const;
export type SocialProvider = (typeof SOCIAL_PROVIDERS)[number];

export const PROVIDER_NAMES: Record<SocialProvider, string> = { google: "Google", mql5: "MQL5" };

/** The auth library's codes for a return it cannot match to a sign-in it started (back button, two tabs, too slow). */
const STALE_RETURN_CODES = new Set([
  "state_mismatch",
  "state_not_found",
  "state_invalid",
  "state_security_mismatch",
  "please_restart_the_process",
  "invalid_callback_request",
  "no_code",
  "no_callback_url",
]);

/**
 * What a failed return from a sign-in provider means, in a sentence a person understands
 * (docs/product.md, "Accounts"): `error` is the provider's code (RFC 6749's access_denied, ...) or
 * the auth library's; `provider` is null when the return does not say which. Never the raw code.
 */
export function providerErrorMessage(provider: SocialProvider | null, error: string): string {
  const name = provider ? PROVIDER_NAMES[provider] : null;
  if (error === "access_denied") return AUTH_MESSAGES.googleCancelled;
  if (error === "account_not_linked") return AUTH_MESSAGES.googleAccountExists;
  if (STALE_RETURN_CODES.has(error)) return AUTH_MESSAGES.providerStale;
  if (error === "email_not_verified") return name ? AUTH_MESSAGES.providerEmailNotVerified(name) : AUTH_MESSAGES.emailNotVerified;
  if (!name) return AUTH_MESSAGES.authFailed;
  if (error === "email_not_found") return AUTH_MESSAGES.providerNoEmail(name);
  if (error === "server_error" || error === "temporarily_unavailable") return AUTH_MESSAGES.providerUnavailable(name);
  return provider === "google" ? AUTH_MESSAGES.googleFailed : AUTH_MESSAGES.mql5Failed;
}

/** POST /api/auth/sign-in/social: the browser then leaves for `url`. */
export const socialSignInRequestSchema = z.object({
  provider: z.enum(SOCIAL_PROVIDERS),
  callbackURL: z.string(),
  errorCallbackURL: z.string(),
});
export type SocialSignInRequest = z.infer<typeof socialSignInRequestSchema>;
export const socialSignInResponseSchema = z.object({ url: z.string(), redirect: z.boolean() });

/**
 * GET /api/auth/verify-email's answer (docs/accounts.md, "Verification links"): the library's
 * `user` is the account at its new address after an email change, null after a verification;
 * `alreadyVerified` is ours, for a link whose email was verified before.
 */
export const verifyEmailResponseSchema = z.object({
  user: z.optional(z.nullable(z.object({ email: z.string() }))),
  alreadyVerified: z.optional(z.boolean()),
});

/** GET /api/auth/verify-email: the mailed link's token. */
export const verifyEmailQuerySchema = z.object({ token: z.string() });

/** GET /api/auth/callback/mql5: what MQL5 sent back to /login, handed to the library as it came. */
export const providerCallbackQuerySchema = z.object({ code: z.string(), state: z.string() });

/** Our own account routes beside the auth library's (docs/accounts.md). */
export const ACCOUNTS_ENDPOINTS = {
  register: endpoint({ method: "POST", path: "/api/accounts/register", body: registerRequestSchema, response: registerResponseSchema, status: 201 }),
  forgotPassword: endpoint({ method: "POST", path: "/api/accounts/forgot-password", body: forgotPasswordRequestSchema, response: messageResponseSchema }),
};
