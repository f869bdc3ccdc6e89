// The admin console's people and records: users (plan, admit, progress, fix tool, CSV), the
// waitlist, payments, the audit log and contact messages. Lists are paged by the server, so the
// browser holds one page at a time; every change refreshes the counts and the lists on screen.
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  ADMIN_MESSAGES,
  auditListSchema,
  fixPlansResponseSchema,
  messageListSchema,
  okSchema,
  paymentListSchema,
  refundResponseSchema,
  userListSchema,
  userProgressSchema,
  userResponseSchema,
  waitlistListSchema,
  type AdminPayment,
  type AdminUser,
  type ProgressUpdate,
  type UserSort,
} from "../../../shared/contracts/admin.ts";
import { formatCedis } from "../../../shared/billing.ts";
import type { PaymentStatus } from "../../../shared/contracts/billing.ts";
import type { Plan } from "../../../shared/plans.ts";
import { apiRequest, ApiRequestError } from "../../lib/api.ts";
import { notify } from "../../ui/toast.tsx";
import { ADMIN_KEY, refreshAdmin } from "./admin-api.ts";

// ---- Lists --------------------------------------------------------------------------------------

export type UsersFilter = {
  page: number;
  /** A part of the email; empty means everyone. */
  search: string;
  waitlistPending: boolean;
  sort: UserSort;
};

function usersQuery(filter: UsersFilter) {
  const params = new URLSearchParams({ page: String(filter.page), sort: filter.sort });
  if (filter.search) params.set("search", filter.search);
  if (filter.waitlistPending) params.set("waitlistPending", "true");
  return queryOptions({
    queryKey: [...ADMIN_KEY, "users", "list", filter],
    queryFn: () => apiRequest(`/api/admin/users?${params}`, userListSchema),
    // The page on screen stays while the next one loads, so paging and typing do not flash.
    placeholderData: keepPreviousData,
  });
}

export function useAdminUsers(filter: UsersFilter) {
  return useQuery(usersQuery(filter));
}

/** The waitlist's places, of every cohort or of one (docs/admin.md, "Cohorts"). */
export function useAdminWaitlist(page: number, cohort = "") {
  const params = new URLSearchParams({ page: String(page) });
  if (cohort) params.set("cohort", cohort);
  return useQuery({
    queryKey: [...ADMIN_KEY, "waitlist", { page, cohort }],
    queryFn: () => apiRequest(`/api/admin/waitlist?${params}`, waitlistListSchema),
    placeholderData: keepPreviousData,
  });
}

export type PaymentsFilter = {
  page: number;
  /** One status, or every one (""). */
  status: PaymentStatus | "";
  /** Days on the admin's own calendar (YYYY-MM-DD), both included; "" for no bound. */
  from: string;
  to: string;
};

/** The instant a day starts on the admin's calendar, or null for a day that is not a date. */
function startOfLocalDay(day: string, plusDays = 0): Date | null {
  const start = new Date(`${day}T00:00:00`);
  if (Number.isNaN(start.getTime())) return null;
  start.setDate(start.getDate() + plusDays);
  return start;
}

/** The server's query for a filter: the days become instants, from the first's start to the end of the last. */
export function paymentsQuery(filter: PaymentsFilter): URLSearchParams {
  const params = new URLSearchParams({ page: String(filter.page) });
  if (filter.status) params.set("status", filter.status);
  const from = filter.from ? startOfLocalDay(filter.from) : null;
  const to = filter.to ? startOfLocalDay(filter.to, 1) : null;
  if (from) params.set("from", from.toISOString());
  if (to) params.set("to", to.toISOString());
  return params;
}

export function useAdminPayments(filter: PaymentsFilter) {
  return useQuery({
    queryKey: [...ADMIN_KEY, "payments", filter],
    queryFn: () => apiRequest(`/api/admin/payments?${paymentsQuery(filter)}`, paymentListSchema),
    placeholderData: keepPreviousData,
  });
}

export function useAdminAudit(page: number, user: string) {
  const params = new URLSearchParams({ page: String(page) });
  if (user) params.set("user", user);
  return useQuery({
    queryKey: [...ADMIN_KEY, "audit", { page, user }],
    queryFn: () => apiRequest(`/api/admin/audit?${params}`, auditListSchema),
    placeholderData: keepPreviousData,
  });
}

export function useAdminMessages(page: number) {
  return useQuery({
    queryKey: [...ADMIN_KEY, "messages", { page }],
    queryFn: () => apiRequest(`/api/admin/messages?${new URLSearchParams({ page: String(page) })}`, messageListSchema),
    placeholderData: keepPreviousData,
  });
}

/**
 * The CSV of every user, streamed by the server and saved by the browser as a plain download, so
 * the table never passes through this page. Dates are in the admin's time zone.
 */
export function usersCsvUrl(timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone): string {
  return `/api/admin/users.csv?${new URLSearchParams({ tz: timeZone })}`;
}

// ---- Changes ------------------------------------------------------------------------------------

const userPath = (id: string) => `/api/admin/users/${encodeURIComponent(id)}`;

/**
 * The server's own words when it refused for a reason the admin can act on (your own plan, already
 * admitted, user gone: 401-499 but not the 400 of a malformed request), else the spec's message.
 */
export function refusalMessage(error: unknown, fallback: string): string {
  return error instanceof ApiRequestError && error.status > 400 && error.status < 500 ? error.message : fallback;
}

type UserRef = Pick<AdminUser, "id" | "email">;

/** The plan selector: changes the plan at once (a paid plan runs one month from now). */
export function useSetUserPlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ user, plan }: { user: UserRef; plan: Plan }) =>
      apiRequest(`${userPath(user.id)}/plan`, userResponseSchema, { method: "PUT", body: { plan } }),
    onSuccess: (_answer, { plan }) => notify.success(ADMIN_MESSAGES.planUpdated(plan)),
    onError: (error) => notify.error(refusalMessage(error, ADMIN_MESSAGES.planUpdateFailed)),
    onSettled: () => refreshAdmin(queryClient),
  });
}

/** Admit from Waitlist, from the Users and the Waitlist tabs alike. */
export function useAdmitUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (user: UserRef) => apiRequest(`${userPath(user.id)}/admit`, userResponseSchema, { method: "POST" }),
    onSuccess: (_answer, user) => notify.success(ADMIN_MESSAGES.admitted(user.email)),
    onError: (error) => notify.error(refusalMessage(error, ADMIN_MESSAGES.admitFailed)),
    onSettled: () => refreshAdmin(queryClient),
  });
}

/** Who a payment's learner is, as the refund dialog and its toast name them. */
export function learnerOf(payment: Pick<AdminPayment, "userName" | "userEmail">): string {
  return payment.userName ? `${payment.userName} (${payment.userEmail})` : payment.userEmail;
}

/**
 * A refund through Paystack (docs/subscriptions.md, "Refunds"). The dialog shows the server's
 * refusal; the toast says what was refunded.
 */
export function useRefundPayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ payment, amountMinor, reason }: { payment: AdminPayment; amountMinor: number; reason: string }) =>
      apiRequest(`/api/admin/payments/${encodeURIComponent(payment.id)}/refund`, refundResponseSchema, {
        method: "POST",
        body: { amountMinor, ...(reason ? { reason } : {}) },
      }),
    onSuccess: ({ refund }, { payment }) => notify.success(ADMIN_MESSAGES.refunded(formatCedis(refund.amountMinor), learnerOf(payment))),
    onSettled: () => refreshAdmin(queryClient),
  });
}

/**
 * The server's words for a refused refund: every refusal it explains (4xx but the 400 of a
 * malformed request, and a Paystack that did not answer), else the spec's message.
 */
export function refundRefusal(error: unknown): string {
  if (error instanceof ApiRequestError && (error.status === 502 || error.status === 503)) return error.message;
  return refusalMessage(error, ADMIN_MESSAGES.refundFailed);
}

/** The Fix tool: every user without a plan gets legacyFree; the toast says how many. */
export function useFixMissingPlans() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest("/api/admin/users/fix-missing-plans", fixPlansResponseSchema, { method: "POST" }),
    onSuccess: ({ fixed }) => notify.success(fixed > 0 ? ADMIN_MESSAGES.fixed(fixed) : ADMIN_MESSAGES.fixNone),
    onError: () => notify.error(ADMIN_MESSAGES.fixFailed),
    onSettled: () => refreshAdmin(queryClient),
  });
}

// ---- Progress -----------------------------------------------------------------------------------

export function useUserProgress(userId: string) {
  return useQuery({
    queryKey: [...ADMIN_KEY, "users", "progress", userId],
    queryFn: () => apiRequest(`${userPath(userId)}/progress`, userProgressSchema),
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
    mutationFn: (progress: ProgressUpdate) =>
      apiRequest(`${userPath(userId)}/progress`, okSchema, { method: "PUT", body: { progress } }),
    onSuccess: () => notify.success(ADMIN_MESSAGES.progressUpdated),
    onSettled: () => refreshAdmin(queryClient),
  });
}

// ---- How values read ----------------------------------------------------------------------------

/** A date in the admin's own calendar, or N/A (docs/product.md, "Admin console"). */
export function formatLocalDate(iso: string | null): string {
  return iso ? new Date(iso).toLocaleDateString(undefined, { dateStyle: "medium" }) : "N/A";
}

export function formatLocalDateTime(iso: string | null): string {
  return iso ? new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" }) : "N/A";
}

/** Minor units (pesewas) as cedis with two decimals (docs/data.md, "Money"): 54000 -> "₵540.00". */
export { formatCedis };
