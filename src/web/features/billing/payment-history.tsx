// The learner's payments on /subscription (docs/product.md, "Subscription page"): what each bought,
// when, for how much, its reference and status, and a printable receipt for each paid one. The
// server pages them; the page number is in the address (?page=2).
import { Link } from "react-router";
import { formatGhs } from "../../../shared/billing.ts";
import {
  BILLING_MESSAGES,
  PAYMENT_STATUS_TEXT,
  paymentPurpose,
  receiptPath,
  type OwnPayment,
} from "../../../shared/contracts/billing.ts";
import { PagedTable, usePageParam } from "../../ui/pagination.tsx";
import { usePaymentHistory } from "./billing-api.ts";
import { formatDate } from "./plan-details.ts";
import "./payment-history.css";


export function PaymentHistory() {
  const [page, setPage] = usePageParam();
  const history = usePaymentHistory(page);
  const rows = history.data?.payments ?? [];

  return (
    <section className="payment-history" aria-labelledby="payment-history-title">
      <h2 id="payment-history-title">Payment history</h2>
      <p className="muted">Your payments, newest first. Open a receipt to print it or save it as a PDF.</p>
      <PagedTable
        query={history}
        rowCount={rows.length}
        label="Your payments"
        loadingText={BILLING_MESSAGES.historyLoading}
        empty={BILLING_MESSAGES.historyEmpty}
        onPageChange={setPage}
      >
        {/* Explicit roles: on a phone the rows are laid out as cards, and the table must stay a table. */}
        <table className="payment-table" role="table">
          <caption className="visually-hidden">Your payments</caption>
          <thead>
            <tr role="row">
              <th scope="col" role="columnheader">Date</th>
              <th scope="col" role="columnheader">Payment for</th>
              <th scope="col" role="columnheader" className="cell-amount">
                Amount
              </th>
              <th scope="col" role="columnheader">Reference</th>
              <th scope="col" role="columnheader">Status</th>
              <th scope="col" role="columnheader">
                <span className="visually-hidden">Receipt</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((payment) => (
              <PaymentRow key={payment.reference} payment={payment} />
            ))}
          </tbody>
        </table>
      </PagedTable>
    </section>
  );
}

function PaymentRow({ payment }: { payment: OwnPayment }) {
  const date = payment.paidAt ?? payment.createdAt;
  return (
    <tr role="row">
      <td role="cell" data-label="Date" className="cell-date">
        <time dateTime={date}>{formatDate(date)}</time>
      </td>
      <td role="cell" data-label="Payment for">
        {paymentPurpose(payment.kind, payment.plan)}
      </td>
      <td role="cell" data-label="Amount" className="cell-amount">
        {formatGhs(payment.amountMinor)}
      </td>
      <td role="cell" data-label="Reference" className="cell-reference">
        <code>{payment.reference}</code>
      </td>
      <td role="cell" data-label="Status">
        <PaymentStatus payment={payment} />
      </td>
      <td role="cell" className="cell-receipt">
        {payment.hasReceipt && (
          <Link
            to={receiptPath(payment.reference)}
            className="button button-secondary button-small"
            aria-label={`Receipt for ${payment.reference}`}
          >
            Receipt
          </Link>
        )}
      </td>
    </tr>
  );
}

/** The status as the learner reads it; money given back is said with its amount. */
export function PaymentStatus({ payment }: { payment: Pick<OwnPayment, "status" | "refundedMinor" | "amountMinor"> }) {
  const partly = payment.status === "success" && payment.refundedMinor > 0;
  return (
    <>
      <span className={`payment-status payment-status-${payment.status}`}>{PAYMENT_STATUS_TEXT[payment.status]}</span>
      {(partly || payment.status === "refunded") && (
        <span className="payment-refunded">{formatGhs(payment.refundedMinor)} refunded</span>
      )}
    </>
  );
}
