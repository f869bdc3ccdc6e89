import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  messageResponseSchema,
  registerResponseSchema,
  socialSignInResponseSchema,
  type Credentials,
  type RegisterRequest,
  type SocialSignInRequest,
  verifyEmailResponseSchema,
} from "../../../shared/contracts/accounts.ts";
import { authAcknowledgementSchema } from "../../../shared/contracts/session.ts";
import { ApiRequestError, apiRequest } from "../../lib/api.ts";
import { meQuery } from "../../session/session.ts";

/** The `code` of the server's `{ error: { code, message } }` answer, when the error is one. */
export function errorCode(error: unknown): string | undefined {
  return error instanceof ApiRequestError ? error.code : undefined;
}

export function isEmailNotVerified(error: unknown): boolean {
  return errorCode(error) === "EMAIL_NOT_VERIFIED";
}

const signInWithEmail = (credentials: Credentials) =>
  apiRequest("/api/auth/sign-in/email", authAcknowledgementSchema, { method: "POST", body: credentials });

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
    mutationFn: (request: SocialSignInRequest) =>
      apiRequest("/api/auth/sign-in/social", socialSignInResponseSchema, { method: "POST", body: request }),
    onSuccess: ({ url }) => {
      window.location.href = url;
    },
  });
}

export function useRegister() {
  return useMutation({
    mutationFn: (request: RegisterRequest) =>
      apiRequest("/api/accounts/register", registerResponseSchema, { method: "POST", body: request }),
  });
}

export function useRequestPasswordReset() {
  return useMutation({
    mutationFn: (email: string) =>
      apiRequest("/api/accounts/forgot-password", messageResponseSchema, { method: "POST", body: { email } }),
  });
}

export function useResetPassword() {
  return useMutation({
    mutationFn: (request: { newPassword: string; token: string }) =>
      apiRequest("/api/auth/reset-password", authAcknowledgementSchema, { method: "POST", body: request }),
  });
}

export function useSendVerificationEmail() {
  return useMutation({
    mutationFn: (email: string) =>
      apiRequest("/api/auth/send-verification-email", authAcknowledgementSchema, {
        method: "POST",
        body: { email },
      }),
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
      const answer = await apiRequest(`/api/auth/verify-email?${new URLSearchParams({ token })}`, verifyEmailResponseSchema);
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
