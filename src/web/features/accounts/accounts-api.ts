import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ACCOUNTS_ENDPOINTS, type Credentials, type RegisterRequest, type SocialSignInRequest } from "../../../shared/contracts/accounts.ts";
import { AUTH_LIBRARY_ENDPOINTS } from "../../../shared/contracts/auth-library.ts";
import { ApiRequestError, call } from "../../lib/api.ts";
import { meQuery } from "../../session/session.ts";

/** The `code` of the server's `{ error: { code, message } }` answer, when the error is one. */
export function errorCode(error: unknown): string | undefined {
  return error instanceof ApiRequestError ? error.code : undefined;
}

export function isEmailNotVerified(error: unknown): boolean {
  return errorCode(error) === "EMAIL_NOT_VERIFIED";
}

const signInWithEmail = (credentials: Credentials) => call(AUTH_LIBRARY_ENDPOINTS.signIn, { body: credentials });

export function useSignIn() {
  return useMutation({ mutationFn: signInWithEmail });
}

/**
 * The server sends a fresh verification mail whenever an unverified email signs in, so resending
 * is signing in again: the 403 EMAIL_NOT_VERIFIED answer means the mail went out. A success means
 * the email was verified meanwhile and the user is now signed in.
 */
export function useResendVerificationBySignIn() {
  return useMutation({
    mutationFn: async (credentials: Credentials): Promise<"sent" | "signed-in"> => {
      try {
        await signInWithEmail(credentials);
        return "signed-in";
      } catch (error) {
        if (isEmailNotVerified(error)) return "sent";
        throw error;
      }
    },
  });
}

export function useSocialSignIn() {
  return useMutation({
    mutationFn: (request: SocialSignInRequest) => call(AUTH_LIBRARY_ENDPOINTS.socialSignIn, { body: request }),
    onSuccess: ({ url }) => {
      window.location.href = url;
    },
  });
}

export function useRegister() {
  return useMutation({
    mutationFn: (request: RegisterRequest) => call(ACCOUNTS_ENDPOINTS.register, { body: request }),
  });
}

export function useRequestPasswordReset() {
  return useMutation({
    mutationFn: (email: string) => call(ACCOUNTS_ENDPOINTS.forgotPassword, { body: { email } }),
  });
}

export function useResetPassword() {
  return useMutation({
    mutationFn: (request: { newPassword: string; token: string }) =>
      call(AUTH_LIBRARY_ENDPOINTS.resetPassword, { body: request }),
  });
}

export function useSendVerificationEmail() {
  return useMutation({
    mutationFn: (email: string) => call(AUTH_LIBRARY_ENDPOINTS.sendVerificationEmail, { body: { email } }),
  });
}

/**
 * Verifies a mailed token once: keyed on the token, never retried or refetched, so React's
 * development double effects and a later revisit do not spend the token twice. Verifying may
 * also sign the user in, so the session is reloaded afterwards.
 */
/** What opening a verification link did (docs/accounts.md, "Verification links"). */
export type VerificationOutcome =
  | { kind: "verified" }
  | { kind: "already-verified" }
  | { kind: "email-changed"; email: string };

export function useVerifyEmail(token: string) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: ["verify-email", token],
    queryFn: async (): Promise<VerificationOutcome> => {
      const answer = await call(AUTH_LIBRARY_ENDPOINTS.verifyEmail, { query: { token } });
      void queryClient.invalidateQueries({ queryKey: meQuery.queryKey });
      // Only an email change answers with the account, at its new address.
      if (answer.user) return { kind: "email-changed", email: answer.user.email };
      return { kind: answer.alreadyVerified ? "already-verified" : "verified" };
    },
    retry: false,
    staleTime: Infinity,
    gcTime: Infinity,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
}
