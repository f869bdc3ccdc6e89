// The Waitlist tab (docs/product.md, "Admin console"; docs/admin.md, "Cohorts"): the cohorts,
// each with its paid places by track and "Admit all", then every paid waitlist place (or one
// cohort's: ?cohort=), those not yet admitted first. Admit works here per row too
// (docs/subscriptions.md, "Admit from waitlist"; the original's handler was missing) and grants
// the track paid for.
import { useId } from "react";
import { useSearchParams } from "react-router";
import type { WaitlistEntry } from "../../../../shared/contracts/admin.ts";
import { PagedTable, usePageParam } from "../../../ui/pagination.tsx";
import { formatLocalDate } from "../admin-api.ts";
import { useAdminWaitlist } from "./cohorts-api.ts";
import { useAdmitUser } from "../users/users-api.ts";
import { CohortsPanel } from "./cohorts-panel.tsx";
import { UserLink } from "../user-link.tsx";
import { PlanBadge } from "../users/users-tab.tsx";
import "../users.css";

export function WaitlistTab() {
  const [params, setParams] = useSearchParams();
  const [page, setPage] = usePageParam();
  const cohort = params.get("cohort") ?? "";
  const waitlist = useAdminWaitlist(page, cohort);
  const entries = waitlist.data?.entries ?? [];
  const headingId = useId();

  /** Shows one cohort's places (or every cohort's), from the first page. */
  function showCohort(name: string) {
    setParams((current) => {
      const next = new URLSearchParams(current);
      if (name) next.set("cohort", name);
      else next.delete("cohort");
      next.delete("page");
      return next;
    });
  }

  return (
    <>
      <CohortsPanel shownCohort={cohort} onShowPlaces={showCohort} />
      <section className="waitlist-places" aria-labelledby={headingId}>
        <div className="cohorts-head">
          <h2 id={headingId}>{cohort ? `Places in ${cohort}` : "Places"}</h2>
          {cohort && (
            <button type="button" className="button button-secondary button-small" onClick={() => showCohort("")}>
              Show every cohort
            </button>
          )}
        </div>
        <PagedTable
          query={waitlist}
          rowCount={entries.length}
          label="Waitlist"
          loadingText="Loading the waitlist..."
          empty={cohort ? `No one has paid for a place in ${cohort} yet.` : "No one has paid for the waitlist yet."}
          onPageChange={setPage}
        >
          <table className="admin-table">
            <caption className="visually-hidden">{cohort ? `Waitlist places in ${cohort}` : "Waitlist"}</caption>
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
      </section>
    </>
  );
}

function WaitlistRow({ entry }: { entry: WaitlistEntry }) {
  const admit = useAdmitUser();
  return (
    <tr>
      <td className="cell-email">
        <UserLink userId={entry.userId} email={entry.email} />
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
