// The account page's calls (docs/accounts.md): the auth library's endpoints for the name, the
// password, the other devices, the sign-in methods and deletion; ours for the devices list, one
// device and the email change.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "react-router";
import {
  ACCOUNT_MESSAGES,
  accountSessionsResponseSchema,
  linkedAccountsResponseSchema,
  type ChangeEmailRequest,
  type DeleteAccountRequest,
} from "../../../shared/contracts/account-settings.ts";
import { messageResponseSchema } from "../../../shared/contracts/accounts.ts";
import { authAcknowledgementSchema } from "../../../shared/contracts/session.ts";
import { apiRequest } from "../../lib/api.ts";
import { forgetSignedInReads } from "../../lib/service-worker.ts";
import { withRedirect } from "../../session/redirects.ts";
import { meQuery } from "../../session/session.ts";
import { notify } from "../../ui/toast.tsx";

const sessionsKey = ["account", "sessions"] as const;

export function useAccountSessions() {
  return useQuery({
    queryKey: sessionsKey,
    queryFn: () => apiRequest("/api/accounts/sessions", accountSessionsResponseSchema),
  });
}

export function useLinkedAccounts() {
  return useQuery({
    queryKey: ["account", "linked"],
    // A sign-in read, never kept for offline: the account page shows without it.
    meta: { offline: "optional" },
    queryFn: () => apiRequest("/api/auth/list-accounts", linkedAccountsResponseSchema),
  });
}

export function useChangeName() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) =>
      apiRequest("/api/auth/update-user", authAcknowledgementSchema, { method: "POST", body: { name } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: meQuery.queryKey }),
  });
}

export function useChangeEmail() {
  return useMutation({
    mutationFn: (request: ChangeEmailRequest) =>
      apiRequest("/api/accounts/change-email", messageResponseSchema, { method: "POST", body: request }),
  });
}

export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: { currentPassword: string; newPassword: string }) =>
      apiRequest("/api/auth/change-password", authAcknowledgementSchema, {
        method: "POST",
        body: { ...request, revokeOtherSessions: true },
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionsKey }),
  });
}

export function useSignOutSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest(`/api/accounts/sessions/${encodeURIComponent(id)}`, messageResponseSchema, { method: "DELETE" }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionsKey }),
  });
}

export function useSignOutOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiRequest("/api/auth/revoke-other-sessions", authAcknowledgementSchema, { method: "POST", body: {} }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionsKey }),
  });
}

/** Leaves for the home page, then forgets everything of this user (as signing out does). */
function useLeaveSignedOut() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return async (to: string) => {
    // Started first, never waited for: the page must not hang on the browser's storage.
    void forgetSignedInReads();
    await navigate(to, { replace: true });
    queryClient.clear();
    queryClient.setQueryData(meQuery.queryKey, { user: null });
  };
}

export function useDeleteAccount() {
  const leave = useLeaveSignedOut();
  return useMutation({
    mutationFn: (request: DeleteAccountRequest) =>
      apiRequest("/api/auth/delete-user", authAcknowledgementSchema, { method: "POST", body: request }),
    // The home page says nothing of it: the toast does.
    onSuccess: async () => {
      notify.success(ACCOUNT_MESSAGES.accountDeleted);
      await leave("/");
    },
  });
}

/** Signs out and opens the login page, which brings the person back here: a fresh sign-in. */
export function useSignInAgain() {
  const leave = useLeaveSignedOut();
  return useMutation({
    mutationFn: () => apiRequest("/api/auth/sign-out", authAcknowledgementSchema, { method: "POST", body: {} }),
    onSuccess: () => leave(withRedirect("/login", "/account")),
  });
}
