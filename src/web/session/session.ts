// The session every page needs (header, guards, home): kept apart from the account pages' code
// so that the first page load stays small.
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "react-router";
import { SESSION_ENDPOINTS, type MeUser } from "../../shared/contracts/session.ts";
import { call } from "../lib/api.ts";
import { forgetSignedInReads } from "../lib/service-worker.ts";
import { notify } from "../ui/toast.tsx";

export const PLAN_WATCH_INTERVAL_MS = 30_000;

/**
 * The session. The plan is watched live (docs/product.md, "Shell"): a payment or an admin's change
 * shows up within 30 seconds, or as soon as the visitor comes back to the tab.
 */
export const meQuery = queryOptions({
  queryKey: ["me"],
  queryFn: () => call(SESSION_ENDPOINTS.me, {}),
  refetchOnWindowFocus: "always",
  refetchInterval: (query) => (query.state.data?.user ? PLAN_WATCH_INTERVAL_MS : false),
});

export function useMe() {
  return useQuery(meQuery);
}

/**
 * docs/product.md, "Routes and guards": a user counts as logged in only once the email is verified.
 */
export function useSignedInUser(): { user: MeUser | null; isPending: boolean } {
  const me = useMe();
  const user = me.data?.user;
  return { user: user?.emailVerified ? user : null, isPending: me.isPending };
}

export function useSignOut() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: () => call(SESSION_ENDPOINTS.signOut, { body: {} }),
    // Leave first: a guarded page that saw the session end would send the visitor to /login.
    onSuccess: async () => {
      // The reads kept for offline go first, before the home page asks for the session again
      // (started, not waited for: the page must not hang on the browser's storage).
      void forgetSignedInReads();
      await navigate("/");
      // Nothing of this user's (progress, tracks) may show to whoever signs in next on this tab,
      // nor offline on this device (docs/product.md, "Offline").
      queryClient.clear();
      queryClient.setQueryData(meQuery.queryKey, { user: null });
    },
    onError: (error) => notify.error(error.message),
  });
}
