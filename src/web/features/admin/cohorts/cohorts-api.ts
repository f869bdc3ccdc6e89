// The cohorts of the Waitlist tab (docs/admin.md, "Cohorts"): a page of cohorts with their places
// by track, creating and editing one, and "Admit all", whose run is followed every second while
// it goes on; and the waitlist's places, of every cohort or one. Every change refreshes the
// console's counts and lists.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import {
  COHORT_ENDPOINTS,
  COHORT_MESSAGES,
  type AdmissionRun,
  type CreateCohortRequest,
  type UpdateCohortRequest,
} from "../../../../shared/contracts/cohorts.ts";
import { ADMIN_RECORDS_ENDPOINTS } from "../../../../shared/contracts/admin.ts";
import type { PaidPlan } from "../../../../shared/plans.ts";
import { ApiRequestError, call } from "../../../lib/api.ts";
import { notify } from "../../../ui/toast.tsx";
import { ADMIN_KEY, refreshAdmin } from "../admin-api.ts";

/** How often a running Admit all is asked how far it got. */
export const RUN_POLL_MS = 1000;

export function useCohorts(page: number) {
  return useQuery({
    queryKey: [...ADMIN_KEY, "cohorts", { page }],
    queryFn: () => call(COHORT_ENDPOINTS.list, { query: { page } }),
    placeholderData: keepPreviousData,
  });
}

/** New cohort; the form shows the server's refusal, the toast what was done. */
export function useCreateCohort() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (cohort: CreateCohortRequest) =>
      call(COHORT_ENDPOINTS.create, { body: cohort }),
    onSuccess: ({ cohort }) => notify.success(COHORT_MESSAGES.created(cohort.name)),
    onSettled: () => refreshAdmin(queryClient),
  });
}

export function useUpdateCohort(name: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (fields: UpdateCohortRequest) => call(COHORT_ENDPOINTS.update, { params: { name }, body: fields }),
    onSuccess: () => notify.success(COHORT_MESSAGES.saved(name)),
    onSettled: () => refreshAdmin(queryClient),
  });
}

/**
 * The server's sentence when it refused what the admin can put right (a missing start date, a
 * name taken, nobody left to admit: every 4xx here names the field or the state), else `fallback`.
 */
export function cohortRefusal(error: unknown, fallback: string): string {
  return error instanceof ApiRequestError && error.status >= 400 && error.status < 500 ? error.message : fallback;
}

const runKey = (id: string) => [...ADMIN_KEY, "cohort-run", id];

/** Starts Admit all; the dialog shows the server's refusal (already running, nobody left). */
export function useStartAdmitAll() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ cohort, track }: { cohort: string; track: PaidPlan }) =>
      call(COHORT_ENDPOINTS.admitAll, { params: { name: cohort }, body: { track } }),
    onSuccess: (answer) => queryClient.setQueryData(runKey(answer.run.id), answer),
    onSettled: () => refreshAdmin(queryClient),
  });
}

/**
 * A run as it stands: the one the list gave, followed every second while it is running. When it
 * ends, the counts, the cohorts and the places load again, so the rows show who was admitted.
 */
export function useFollowedRun(listed: AdmissionRun | null): AdmissionRun | null {
  const queryClient = useQueryClient();
  const running = listed?.status === "running";
  const followed = useQuery({
    queryKey: runKey(listed?.id ?? ""),
    queryFn: () => call(COHORT_ENDPOINTS.admissionRun, { params: { id: listed?.id ?? "" } }),
    enabled: running,
    refetchInterval: (query) => (query.state.data?.run.status === "running" ? RUN_POLL_MS : false),
  });
  const run = running ? (followed.data?.run ?? listed) : listed;
  const ended = running && followed.data !== undefined && followed.data.run.status !== "running";
  useEffect(() => {
    if (ended) void refreshAdmin(queryClient);
  }, [ended, queryClient]);
  return run;
}

/** The waitlist's places, of every cohort or of one (docs/admin.md, "Cohorts"). */
export function useAdminWaitlist(page: number, cohort = "") {
  return useQuery({
    queryKey: [...ADMIN_KEY, "waitlist", { page, cohort }],
    queryFn: () => call(ADMIN_RECORDS_ENDPOINTS.waitlist, { query: { page, cohort: cohort || undefined } }),
    placeholderData: keepPreviousData,
  });
}
