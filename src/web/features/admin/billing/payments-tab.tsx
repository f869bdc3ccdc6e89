// The Payments tab (docs/product.md, "Admin console"): payments newest first, filtered by status
// and by the days they were made (in the address: ?tab=payments&status=success&from=2025-08-01),
// filtered and paged by the server. A successful payment can be refunded from here, after a
// confirmation that names the amount and the learner.
import { useId, useState } from "react";
import { useSearchParams } from "react-router";
import { ADMIN_MESSAGES, ADMIN_PAYMENT_STATUS_LABELS, type AdminPayment } from "../../../../shared/contracts/admin.ts";
import { PAYMENT_STATUSES, type PaymentStatus } from "../../../../shared/contracts/billing.ts";
import { FormMessages } from "../../../ui/form-messages.tsx";
import { Modal } from "../../../ui/modal.tsx";
import { PagedTable, usePageParam } from "../../../ui/pagination.tsx";
import { TextField } from "../../../ui/text-field.tsx";
import { formatCedis, formatLocalDateTime } from "../admin-api.ts";
import { learnerOf, refundRefusal, useAdminPayments, useRefundPayment } from "./payments-api.ts";
import { UserLink } from "../user-link.tsx";
import { PlanBadge } from "../users/users-tab.tsx";
import "../users.css";

/**
 * docs/product.md, "Admin console": success green, failed red; an abandoned checkout (the learner
 * closed it) is no failure and reads neutral, as do pending and reversed; refunded its own colour;
 * a payment Paystack's answer does not match (needs attention) red, to be seen.
 */
export const STATUS_BADGES: Record<PaymentStatus, string> = {
  success: "badge-success",
  failed: "badge-failed",
  abandoned: "badge-neutral",
  pending: "badge-neutral",
  reversed: "badge-neutral",
  refunded: "badge-refunded",
  mismatched: "badge-failed",
};

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function isPaymentStatus(value: string | null): value is PaymentStatus {
  return PAYMENT_STATUSES.some((status) => status === value);
}

function refundable(payment: AdminPayment): boolean {
  return payment.status === "success" && payment.refundedMinor < payment.amountMinor;
}

export function PaymentsTab() {
  const [params, setParams] = useSearchParams();
  const [page, setPage] = usePageParam();
  const statusParam = params.get("status");
  const status = isPaymentStatus(statusParam) ? statusParam : "";
  const dayParam = (name: string) => {
    const value = params.get(name) ?? "";
    return DAY.test(value) ? value : "";
  };
  const from = dayParam("from");
  const to = dayParam("to");
  const payments = useAdminPayments({ page, status, from, to });
  const rows = payments.data?.payments ?? [];
  const [refunding, setRefunding] = useState<AdminPayment | null>(null);
  const filtered = status !== "" || from !== "" || to !== "";

  /** Sets one filter (the tab and the others stay) and goes back to page 1. */
  function setFilter(name: string, value: string) {
    setParams((current) => {
      const next = new URLSearchParams(current);
      if (value) next.set(name, value);
      else next.delete(name);
      next.delete("page");
      return next;
    });
  }

  return (
    <>
      <PaymentFilters
        status={status}
        from={from}
        to={to}
        onChange={setFilter}
        onClear={() =>
          setParams((current) => {
            const next = new URLSearchParams(current);
            for (const name of ["status", "from", "to", "page"]) next.delete(name);
            return next;
          })
        }
      />
      <PagedTable
        query={payments}
        rowCount={rows.length}
        label="Payments"
        loadingText="Loading payments..."
        empty={filtered ? ADMIN_MESSAGES.paymentsNoneMatch : ADMIN_MESSAGES.paymentsNone}
        onPageChange={setPage}
      >
        <table className="admin-table">
          <caption className="visually-hidden">Payments</caption>
          <thead>
            <tr>
              <th scope="col">User Email</th>
              <th scope="col">Plan</th>
              <th scope="col" className="cell-amount">
                Amount
              </th>
              <th scope="col">Currency</th>
              <th scope="col">Status</th>
              <th scope="col">Reference</th>
              <th scope="col">Date</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((payment) => (
              <PaymentRow key={payment.id} payment={payment} onRefund={() => setRefunding(payment)} />
            ))}
          </tbody>
        </table>
      </PagedTable>
      {refunding && <RefundDialog payment={refunding} onClose={() => setRefunding(null)} />}
    </>
  );
}

type FiltersProps = {
  status: PaymentStatus | "";
  from: string;
  to: string;
  onChange: (name: string, value: string) => void;
  onClear: () => void;
};

function PaymentFilters({ status, from, to, onChange, onClear }: FiltersProps) {
  const statusId = useId();
  const backwards = from !== "" && to !== "" && from > to;
  return (
    <>
      <div className="admin-toolbar payments-toolbar" role="group" aria-label="Filter payments">
        <div className="field">
          <label htmlFor={statusId}>Status</label>
          <select id={statusId} value={status} onChange={(event) => onChange("status", event.target.value)}>
            <option value="">All statuses</option>
            {PAYMENT_STATUSES.map((value) => (
              <option key={value} value={value}>
                {ADMIN_PAYMENT_STATUS_LABELS[value]}
              </option>
            ))}
          </select>
        </div>
        <TextField label="From" type="date" value={from} max={to || undefined} onChange={(event) => onChange("from", event.target.value)} />
        <TextField label="To" type="date" value={to} min={from || undefined} onChange={(event) => onChange("to", event.target.value)} />
        <button
          type="button"
          className="button button-secondary button-small"
          disabled={status === "" && from === "" && to === ""}
          onClick={onClear}
        >
          Clear filters
        </button>
      </div>
      {backwards && (
        <p role="alert" className="form-error load-error">
          {ADMIN_MESSAGES.paymentDatesInvalid}
        </p>
      )}
    </>
  );
}

function PaymentRow({ payment, onRefund }: { payment: AdminPayment; onRefund: () => void }) {
  return (
    <tr>
      <td className="cell-email">
        <UserLink userId={payment.userId} email={payment.userEmail} />
      </td>
      <td>
        <PlanBadge plan={payment.plan} showId />
        {payment.kind === "waitlist" && <span className="muted payment-kind">waitlist</span>}
      </td>
      <td className="cell-amount">{formatCedis(payment.amountMinor)}</td>
      <td>{payment.currency}</td>
      <td className="nowrap">
        <span className={`badge ${STATUS_BADGES[payment.status]}`}>{ADMIN_PAYMENT_STATUS_LABELS[payment.status]}</span>
        {payment.refundedMinor > 0 && <span className="muted payment-refunded">{formatCedis(payment.refundedMinor)} refunded</span>}
      </td>
      <td className="cell-reference">
        <code>{payment.reference}</code>
      </td>
      <td className="cell-date">{formatLocalDateTime(payment.createdAt)}</td>
      <td>
        {refundable(payment) && (
          <button
            type="button"
            className="button button-secondary-danger button-small"
            aria-label={`Refund ${payment.reference}`}
            onClick={onRefund}
          >
            Refund
          </button>
        )}
      </td>
    </tr>
  );
}

/** "541", "541.5", "541.50" or "1,541.00" cedis as pesewas; null for anything else. */
export function parseCedis(text: string): number | null {
  const plain = text.trim().replace(/,/g, "");
  if (!/^\d+(\.\d{1,2})?$/.test(plain)) return null;
  return Math.round(Number(plain) * 100);
}

function cediText(amountMinor: number): string {
  return (amountMinor / 100).toFixed(2);
}

/**
 * The confirmation: it names the amount and the learner, and takes a smaller amount (a partial
 * refund) and a reason for the audit log. The server's refusal stays in the dialog.
 */
function RefundDialog({ payment, onClose }: { payment: AdminPayment; onClose: () => void }) {
  const left = payment.amountMinor - payment.refundedMinor;
  const [amountText, setAmountText] = useState(cediText(left));
  const [reason, setReason] = useState("");
  const refund = useRefundPayment();
  const amountMinor = parseCedis(amountText);
  const valid = amountMinor !== null && amountMinor > 0 && amountMinor <= left;
  const shown = formatCedis(valid ? amountMinor : left);
  const learner = learnerOf(payment);

  function confirm() {
    if (!valid || refund.isPending) return;
    refund.mutate({ payment, amountMinor, reason: reason.trim() }, { onSuccess: onClose });
  }

  return (
    <Modal
      title={ADMIN_MESSAGES.refundTitle}
      onClose={onClose}
      actions={
        <>
          <button type="button" className="button button-secondary" onClick={onClose} data-autofocus>
            Cancel
          </button>
          <button
            type="submit"
            form="refund-form"
            className="button button-danger"
            disabled={!valid}
            aria-busy={refund.isPending || undefined}
          >
            {refund.isPending ? "Refunding..." : `Refund ${shown}`}
          </button>
        </>
      }
    >
      <form
        id="refund-form"
        className="refund-form stack"
        onSubmit={(event) => {
          event.preventDefault();
          confirm();
        }}
      >
        <p className="refund-summary">{ADMIN_MESSAGES.refundConfirm(shown, learner, payment.reference)}</p>
        <TextField
          label="Amount to refund (GH₵)"
          hint={`Paid ${formatCedis(payment.amountMinor)}; ${formatCedis(left)} can be refunded.`}
          inputMode="decimal"
          autoComplete="off"
          value={amountText}
          aria-invalid={!valid || undefined}
          onChange={(event) => setAmountText(event.target.value)}
        />
        <TextField
          label="Reason (optional, for the audit log)"
          maxLength={500}
          autoComplete="off"
          value={reason}
          onChange={(event) => setReason(event.target.value)}
        />
        <FormMessages
          error={!valid ? ADMIN_MESSAGES.refundAmountInvalid(formatCedis(left)) : refund.isError ? refundRefusal(refund.error) : undefined}
        />
      </form>
    </Modal>
  );
}
