// The Payments tab: every learner's payments, filtered and paged by the server, and refunds
// through Paystack. Every change refreshes the counts and the lists on screen.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ADMIN_MESSAGES, ADMIN_PAYMENTS_ENDPOINTS, type AdminPayment } from "../../../../shared/contracts/admin.ts";
import { formatCedis } from "../../../../shared/billing.ts";
import type { PaymentStatus } from "../../../../shared/contracts/billing.ts";
import { ApiRequestError, call } from "../../../lib/api.ts";
import { notify } from "../../../ui/toast.tsx";
import { ADMIN_KEY, refreshAdmin, refusalMessage } from "../admin-api.ts";

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
function paymentsQuery(filter: PaymentsFilter) {
  const from = filter.from ? startOfLocalDay(filter.from) : null;
  const to = filter.to ? startOfLocalDay(filter.to, 1) : null;
  return { page: filter.page, status: filter.status || undefined, from: from?.toISOString(), to: to?.toISOString() };
}

export function useAdminPayments(filter: PaymentsFilter) {
  return useQuery({
    queryKey: [...ADMIN_KEY, "payments", filter],
    queryFn: () => call(ADMIN_PAYMENTS_ENDPOINTS.list, { query: paymentsQuery(filter) }),
    placeholderData: keepPreviousData,
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
      call(ADMIN_PAYMENTS_ENDPOINTS.refund, { params: { id: payment.id }, body: { amountMinor, ...(reason ? { reason } : {}) } }),
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
