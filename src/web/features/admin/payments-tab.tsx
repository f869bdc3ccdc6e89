// The Payments tab (docs/product.md, "Admin console"): every payment, newest first, as the server
// recorded it.
import type { AdminPayment } from "../../../shared/contracts/admin.ts";
import { PagedTable, usePageParam } from "../../ui/pagination.tsx";
import { formatCedis, formatLocalDateTime, useAdminPayments } from "./admin-records-api.ts";
import { EmailText, PlanBadge } from "./users-tab.tsx";
import "./users.css";

export function PaymentsTab() {
  const [page, setPage] = usePageParam();
  const payments = useAdminPayments(page);
  const rows = payments.data?.payments ?? [];

  return (
    <PagedTable
      query={payments}
      rowCount={rows.length}
      label="Payments"
      loadingText="Loading payments..."
      empty="No payments yet."
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
          </tr>
        </thead>
        <tbody>
          {rows.map((payment) => (
            <PaymentRow key={payment.id} payment={payment} />
          ))}
        </tbody>
      </table>
    </PagedTable>
  );
}

function PaymentRow({ payment }: { payment: AdminPayment }) {
  return (
    <tr>
      <td className="cell-email">
        <EmailText email={payment.userEmail} />
      </td>
      <td>
        <PlanBadge plan={payment.plan} showId />
        {payment.kind === "waitlist" && <span className="muted payment-kind">waitlist</span>}
      </td>
      <td className="cell-amount">{formatCedis(payment.amountMinor)}</td>
      <td>{payment.currency}</td>
      <td>
        {/* docs/data.md, "Money": success is green, anything else red. */}
        <span className={payment.status === "success" ? "badge badge-success" : "badge badge-failed"}>
          {payment.status}
        </span>
      </td>
      <td className="cell-reference">
        <code>{payment.reference}</code>
      </td>
      <td className="cell-date">{formatLocalDateTime(payment.createdAt)}</td>
    </tr>
  );
}
