// The account page's calls (docs/accounts.md): the auth library's endpoints for the name, the
// password, the other devices, the sign-in methods and deletion; ours for the devices list, one
// device and the email change.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "react-router";
import {
  ACCOUNT_MESSAGES,
  ACCOUNT_SETTINGS_ENDPOINTS,
  type ChangeEmailRequest,
  type DeleteAccountRequest,
} from "../../../shared/contracts/account-settings.ts";
import { AUTH_LIBRARY_ENDPOINTS } from "../../../shared/contracts/auth-library.ts";
import { SESSION_ENDPOINTS } from "../../../shared/contracts/session.ts";
import { call } from "../../lib/api.ts";
import { forgetSignedInReads } from "../../lib/service-worker.ts";
import { withRedirect } from "../../session/redirects.ts";
import { meQuery } from "../../session/session.ts";
import { notify } from "../../ui/toast.tsx";

const sessionsKey = ["account", "sessions"] as const;

export function useAccountSessions() {
  return useQuery({
    queryKey: sessionsKey,
    queryFn: () => call(ACCOUNT_SETTINGS_ENDPOINTS.sessions, {}),
  });
}

export function useLinkedAccounts() {
  return useQuery({
    queryKey: ["account", "linked"],
    // A sign-in read, never kept for offline: the account page shows without it.
    meta: { offline: "optional" },
    queryFn: () => call(AUTH_LIBRARY_ENDPOINTS.linkedAccounts, {}),
  });
}

export function useChangeName() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => call(AUTH_LIBRARY_ENDPOINTS.changeName, { body: { name } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: meQuery.queryKey }),
  });
}

export function useChangeEmail() {
  return useMutation({
    mutationFn: (request: ChangeEmailRequest) => call(ACCOUNT_SETTINGS_ENDPOINTS.changeEmail, { body: request }),
  });
}

export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: { currentPassword: string; newPassword: string }) =>
      call(AUTH_LIBRARY_ENDPOINTS.changePassword, { body: { ...request, revokeOtherSessions: true } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionsKey }),
  });
}

export function useSignOutSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(ACCOUNT_SETTINGS_ENDPOINTS.revokeSession, { params: { id } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionsKey }),
  });
}

export function useSignOutOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call(AUTH_LIBRARY_ENDPOINTS.signOutOtherSessions, { body: {} }),
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
    mutationFn: (request: DeleteAccountRequest) => call(AUTH_LIBRARY_ENDPOINTS.deleteAccount, { body: request }),
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
    mutationFn: () => call(SESSION_ENDPOINTS.signOut, { body: {} }),
    onSuccess: () => leave(withRedirect("/login", "/account")),
  });
}
