// The auth library's own routes under /api/auth that the browser calls (docs/accounts.md). The
// library registers and serves them itself (src/server/auth/auth.routes.ts hands them over), so
// these declarations are the browser's side only: what it sends, exactly as the library takes it,
// and how it reads the answer. Signing out sits in SESSION_ENDPOINTS (session.ts), with the session.
import { changePasswordRequestSchema, deleteAccountRequestSchema, linkedAccountsResponseSchema, nameFormSchema } from "./account-settings.ts";
import {
  loginFormSchema,
  providerCallbackQuerySchema,
  resetPasswordRequestSchema,
  sendVerificationEmailRequestSchema,
  socialSignInRequestSchema,
  socialSignInResponseSchema,
  verifyEmailQuerySchema,
  verifyEmailResponseSchema,
} from "./accounts.ts";
import { endpoint } from "./endpoint.ts";
import { authAcknowledgementSchema, emptyBodySchema } from "./session.ts";

/** Signing in, verifying and resetting, and the account page's name, password, devices, sign-in methods and deletion. */
export const AUTH_LIBRARY_ENDPOINTS = {
  signIn: endpoint({ method: "POST", path: "/api/auth/sign-in/email", body: loginFormSchema, response: authAcknowledgementSchema }),
  socialSignIn: endpoint({ method: "POST", path: "/api/auth/sign-in/social", body: socialSignInRequestSchema, response: socialSignInResponseSchema }),
  /**
   * MQL5's return, handed to the library: a navigation (`addressOf`), not a call, answered with a
   * redirect to where the sign-in goes on.
   */
  mql5Callback: endpoint({ method: "GET", path: "/api/auth/callback/mql5", query: providerCallbackQuerySchema, response: authAcknowledgementSchema }),
  resetPassword: endpoint({ method: "POST", path: "/api/auth/reset-password", body: resetPasswordRequestSchema, response: authAcknowledgementSchema }),
  sendVerificationEmail: endpoint({
    method: "POST",
    path: "/api/auth/send-verification-email",
    body: sendVerificationEmailRequestSchema,
    response: authAcknowledgementSchema,
  }),
  verifyEmail: endpoint({ method: "GET", path: "/api/auth/verify-email", query: verifyEmailQuerySchema, response: verifyEmailResponseSchema }),
  linkedAccounts: endpoint({ method: "GET", path: "/api/auth/list-accounts", response: linkedAccountsResponseSchema }),
  // The server lets only the name through (auth.routes.ts).
  changeName: endpoint({ method: "POST", path: "/api/auth/update-user", body: nameFormSchema, response: authAcknowledgementSchema }),
  changePassword: endpoint({ method: "POST", path: "/api/auth/change-password", body: changePasswordRequestSchema, response: authAcknowledgementSchema }),
  signOutOtherSessions: endpoint({ method: "POST", path: "/api/auth/revoke-other-sessions", body: emptyBodySchema, response: authAcknowledgementSchema }),
  deleteAccount: endpoint({ method: "POST", path: "/api/auth/delete-user", body: deleteAccountRequestSchema, response: authAcknowledgementSchema }),
};
