// The Users tab and a learner's page: the list (paged by the server, so the browser holds one page
// at a time), the plan, Admit from Waitlist, the Fix tool, the progress editor and the CSV. Every
// change refreshes the counts and the lists on screen.
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  ADMIN_MESSAGES,
  ADMIN_USERS_ENDPOINTS,
  type AdminUser,
  type ProgressUpdate,
  type UserSort,
} from "../../../../shared/contracts/admin.ts";
import { addressOf } from "../../../../shared/contracts/endpoint.ts";
import type { Plan } from "../../../../shared/plans.ts";
import { call } from "../../../lib/api.ts";
import { notify } from "../../../ui/toast.tsx";
import { ADMIN_KEY, refreshAdmin, refusalMessage } from "../admin-api.ts";

export type UsersFilter = {
  page: number;
  /** A part of the email; empty means everyone. */
  search: string;
  waitlistPending: boolean;
  sort: UserSort;
};

function usersQuery(filter: UsersFilter) {
  const query = {
    page: filter.page,
    sort: filter.sort,
    search: filter.search || undefined,
    waitlistPending: filter.waitlistPending ? "true" : undefined,
  };
  return queryOptions({
    queryKey: [...ADMIN_KEY, "users", "list", filter],
    queryFn: () => call(ADMIN_USERS_ENDPOINTS.list, { query }),
    // The page on screen stays while the next one loads, so paging and typing do not flash.
    placeholderData: keepPreviousData,
  });
}

export function useAdminUsers(filter: UsersFilter) {
  return useQuery(usersQuery(filter));
}

/**
 * The CSV of every user, streamed by the server and saved by the browser as a plain download, so
 * the table never passes through this page. Dates are in the admin's time zone.
 */
export function usersCsvUrl(timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone): string {
  return addressOf(ADMIN_USERS_ENDPOINTS.csv, undefined, { tz: timeZone });
}

type UserRef = Pick<AdminUser, "id" | "email">;

/** The plan selector: changes the plan at once (a paid plan runs one month from now). */
export function useSetUserPlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ user, plan }: { user: UserRef; plan: Plan }) =>
      call(ADMIN_USERS_ENDPOINTS.setPlan, { params: { id: user.id }, body: { plan } }),
    onSuccess: (_answer, { plan }) => notify.success(ADMIN_MESSAGES.planUpdated(plan)),
    onError: (error) => notify.error(refusalMessage(error, ADMIN_MESSAGES.planUpdateFailed)),
    onSettled: () => refreshAdmin(queryClient),
  });
}

/** Admit from Waitlist, from the Users and the Waitlist tabs alike. */
export function useAdmitUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (user: UserRef) => call(ADMIN_USERS_ENDPOINTS.admit, { params: { id: user.id } }),
    onSuccess: (_answer, user) => notify.success(ADMIN_MESSAGES.admitted(user.email)),
    onError: (error) => notify.error(refusalMessage(error, ADMIN_MESSAGES.admitFailed)),
    onSettled: () => refreshAdmin(queryClient),
  });
}

/** The Fix tool: every user without a plan gets legacyFree; the toast says how many. */
export function useFixMissingPlans() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call(ADMIN_USERS_ENDPOINTS.fixMissingPlans, {}),
    onSuccess: ({ fixed }) => notify.success(fixed > 0 ? ADMIN_MESSAGES.fixed(fixed) : ADMIN_MESSAGES.fixNone),
    onError: () => notify.error(ADMIN_MESSAGES.fixFailed),
    onSettled: () => refreshAdmin(queryClient),
  });
}

export function useUserProgress(userId: string) {
  return useQuery({
    queryKey: [...ADMIN_KEY, "users", "progress", userId],
    queryFn: () => call(ADMIN_USERS_ENDPOINTS.progress, { params: { id: userId } }),
    // What the admin edits is what is stored now, not what was loaded a minute ago.
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
}

/** Save of the progress modal; the modal shows the server's reason when it refuses, so no toast repeats it. */
export function useSaveUserProgress(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (progress: ProgressUpdate) => call(ADMIN_USERS_ENDPOINTS.setProgress, { params: { id: userId }, body: { progress } }),
    onSuccess: () => notify.success(ADMIN_MESSAGES.progressUpdated),
    onSettled: () => refreshAdmin(queryClient),
  });
}
