// The Waitlist tab (docs/product.md, "Admin console"): every paid waitlist place, those not yet
// admitted first. Admit works here (docs/subscriptions.md, "Admit from waitlist"; the original's
// handler was missing) and grants the track paid for.
import type { WaitlistEntry } from "../../../shared/contracts/admin.ts";
import { PagedTable, usePageParam } from "../../ui/pagination.tsx";
import { formatLocalDate, useAdminWaitlist, useAdmitUser } from "./admin-records-api.ts";
import { EmailText, PlanBadge } from "./users-tab.tsx";
import "./users.css";

export function WaitlistTab() {
  const [page, setPage] = usePageParam();
  const waitlist = useAdminWaitlist(page);
  const entries = waitlist.data?.entries ?? [];

  return (
    <PagedTable
      query={waitlist}
      rowCount={entries.length}
      label="Waitlist"
      loadingText="Loading the waitlist..."
      empty="No one has paid for the waitlist yet."
      onPageChange={setPage}
    >
      <table className="admin-table">
        <caption className="visually-hidden">Waitlist</caption>
        <thead>
          <tr>
            <th scope="col">Email</th>
            <th scope="col">UID</th>
            <th scope="col">Plan</th>
            <th scope="col">Cohort</th>
            <th scope="col">Paid</th>
            <th scope="col">Admitted</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <WaitlistRow key={entry.userId} entry={entry} />
          ))}
        </tbody>
      </table>
    </PagedTable>
  );
}

function WaitlistRow({ entry }: { entry: WaitlistEntry }) {
  const admit = useAdmitUser();
  return (
    <tr>
      <td className="cell-email">
        <EmailText email={entry.email} />
      </td>
      <td className="cell-uid">
        <code>{entry.userId}</code>
      </td>
      <td>
        {/* The track paid for, by its id: it is what Admit grants. */}
        <PlanBadge plan={entry.plan} showId />
      </td>
      <td className="nowrap">{entry.cohort}</td>
      <td>{entry.paid ? "Yes" : "No"}</td>
      <td className="nowrap">{entry.admitted ? `Yes (${formatLocalDate(entry.admittedAt)})` : "No"}</td>
      <td>
        {!entry.admitted && (
          <button
            type="button"
            className="button button-small"
            disabled={!entry.paid || admit.isPending}
            onClick={() => admit.mutate({ id: entry.userId, email: entry.email })}
          >
            Admit from Waitlist
          </button>
        )}
      </td>
    </tr>
  );
}
