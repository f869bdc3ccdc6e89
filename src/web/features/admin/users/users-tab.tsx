// The Users tab (docs/product.md, "Admin console"): search, the waitlist filter and the sort are in
// the address with the page (?tab=users&q=ama&waitlist=1&sort=email&page=2), so a reload keeps
// them. The server filters, sorts and pages; this tab shows one page of 10.
import { useCallback, useEffect, useId, useRef, useState } from "react";
import { useSearchParams, type NavigateOptions } from "react-router";
import { ADMIN_MESSAGES, USER_SORTS, type AdminUser, type UserSort } from "../../../../shared/contracts/admin.ts";
import { PLAN_LABELS, PLANS, type Plan } from "../../../../shared/plans.ts";
import { PagedTable, usePageParam } from "../../../ui/pagination.tsx";
import { TextField } from "../../../ui/text-field.tsx";
import { useSignedInUser } from "../../../session/session.ts";
import { formatLocalDate, formatLocalDateTime } from "../admin-api.ts";
import { useAdminUsers, useAdmitUser, useFixMissingPlans, usersCsvUrl, useSetUserPlan } from "./users-api.ts";
import { UserLink } from "../user-link.tsx";
import { ProgressModal } from "./progress-modal.tsx";
import { CertificatesModal } from "./certificates-modal.tsx";
import "../users.css";

const SEARCH_DEBOUNCE_MS = 300;

const SORT_LABELS: Record<UserSort, string> = {
  newest: "Newest first",
  email: "Email A–Z",
  lastActive: "Recently active",
};

const PLAN_BADGES: Record<Plan, string> = {
  admin: "badge-admin",
  advanced: "badge-advanced",
  intermediate: "badge-intermediate",
  legacyFree: "badge-free",
};

function isUserSort(value: string | null): value is UserSort {
  return USER_SORTS.some((sort) => sort === value);
}

/**
 * A control's value that follows the address. React Router applies a change of the address in a
 * transition, so a control bound to it alone would snap back until that lands; this one shows
 * the admin's choice at once.
 */
function useAddressValue<T>(value: T): [T, (next: T) => void] {
  const [shown, setShown] = useState(value);
  const [seen, setSeen] = useState(value);
  if (value !== seen) {
    setSeen(value);
    setShown(value);
  }
  return [shown, setShown];
}

export function UsersTab() {
  const [params, setParams] = useSearchParams();
  const [page, setPage] = usePageParam();
  const search = params.get("q")?.trim() ?? "";
  const waitlistPending = params.get("waitlist") === "1";
  const sortParam = params.get("sort");
  const sort = isUserSort(sortParam) ? sortParam : "newest";
  const users = useAdminUsers({ page, search, waitlistPending, sort });
  const { user: me } = useSignedInUser();
  const [editing, setEditing] = useState<AdminUser | null>(null);
  const [certificatesOf, setCertificatesOf] = useState<AdminUser | null>(null);

  /** Sets one filter param (the `tab` param and the others stay) and goes back to page 1. */
  const setFilter = useCallback(
    (name: string, value: string, options?: NavigateOptions) =>
      setParams((current) => {
        const next = new URLSearchParams(current);
        if (value) next.set(name, value);
        else next.delete(name);
        next.delete("page");
        return next;
      }, options),
    [setParams],
  );

  const filtered = search !== "" || waitlistPending;
  const rows = users.data?.users ?? [];

  return (
    <>
      <div className="admin-toolbar users-toolbar">
        <SearchField search={search} onSearch={(text) => setFilter("q", text, { replace: true })} />
        <SortField sort={sort} onChange={(value) => setFilter("sort", value === "newest" ? "" : value)} />
        <WaitlistFilter checked={waitlistPending} onChange={(checked) => setFilter("waitlist", checked ? "1" : "")} />
        <div className="admin-toolbar-end">
          <FixMissingPlansButton />
          <a href={usersCsvUrl()} download="users.csv" className="button button-secondary button-small">
            Export as CSV
          </a>
        </div>
      </div>

      <PagedTable
        query={users}
        rowCount={rows.length}
        label="Users"
        loadingText="Loading users..."
        empty={filtered ? "No users match." : "No users yet."}
        onPageChange={setPage}
      >
        <table className="admin-table users-table">
          <caption className="visually-hidden">Users</caption>
          <thead>
            <tr>
              <th scope="col">Email</th>
              <th scope="col">UID</th>
              <th scope="col">Plan</th>
              <th scope="col">Provider</th>
              <th scope="col">Status</th>
              <th scope="col">Subscription End</th>
              <th scope="col">Last Active</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((user) => (
              <UserRow
                key={user.id}
                user={user}
                isSelf={user.id === me?.id}
                onEditProgress={() => setEditing(user)}
                onShowCertificates={() => setCertificatesOf(user)}
              />
            ))}
          </tbody>
        </table>
      </PagedTable>

      {editing && <ProgressModal user={editing} onClose={() => setEditing(null)} />}
      {certificatesOf && <CertificatesModal user={certificatesOf} onClose={() => setCertificatesOf(null)} />}
    </>
  );
}

/** Filters as the admin types, once they pause; Enter filters at once. */
function SearchField({ search, onSearch }: { search: string; onSearch: (text: string) => void }) {
  const [text, setText] = useState(search);
  const [seen, setSeen] = useState(search);
  const [applied, setApplied] = useState(search);
  const timer = useRef<number | undefined>(undefined);

  // The field follows the address when it changes by itself (Back, a link), but not when the
  // change is its own landing while the admin types on.
  if (search !== seen) {
    setSeen(search);
    if (search !== applied) setText(search);
  }

  useEffect(() => () => window.clearTimeout(timer.current), []);

  function apply(value: string) {
    window.clearTimeout(timer.current);
    const wanted = value.trim();
    setApplied(wanted);
    if (wanted !== search) onSearch(wanted);
  }

  return (
    <form
      role="search"
      className="users-search"
      onSubmit={(event) => {
        event.preventDefault();
        apply(text);
      }}
    >
      <TextField
        label="Search by email"
        type="search"
        autoComplete="off"
        spellCheck={false}
        value={text}
        onChange={(event) => {
          const value = event.target.value;
          setText(value);
          window.clearTimeout(timer.current);
          timer.current = window.setTimeout(() => apply(value), SEARCH_DEBOUNCE_MS);
        }}
      />
    </form>
  );
}

function SortField({ sort, onChange }: { sort: UserSort; onChange: (sort: UserSort) => void }) {
  const id = useId();
  const [shown, setShown] = useAddressValue(sort);
  return (
    <div className="field">
      <label htmlFor={id}>Sort</label>
      <select
        id={id}
        value={shown}
        onChange={(event) => {
          const value = event.target.value;
          if (!isUserSort(value)) return;
          setShown(value);
          onChange(value);
        }}
      >
        {USER_SORTS.map((value) => (
          <option key={value} value={value}>
            {SORT_LABELS[value]}
          </option>
        ))}
      </select>
    </div>
  );
}

function WaitlistFilter({ checked, onChange }: { checked: boolean; onChange: (checked: boolean) => void }) {
  const [shown, setShown] = useAddressValue(checked);
  return (
    <label className="checkbox-field">
      <input
        type="checkbox"
        checked={shown}
        onChange={(event) => {
          setShown(event.target.checked);
          onChange(event.target.checked);
        }}
      />
      Show only waitlist users who are paid but not admitted
    </label>
  );
}

function FixMissingPlansButton() {
  const fix = useFixMissingPlans();
  return (
    <button
      type="button"
      className="button button-secondary button-small"
      aria-busy={fix.isPending || undefined}
      onClick={() => {
        if (!fix.isPending) fix.mutate();
      }}
    >
      Fix Missing Subscription Plans
    </button>
  );
}

/**
 * A plan in the colours of docs/product.md, "Admin console", named as people read it or, with
 * `showId`, by its id.
 */
export function PlanBadge({ plan, showId = false }: { plan: Plan | null; showId?: boolean }) {
  if (plan === null) return <span className="badge badge-missing">MISSING</span>;
  return <span className={`badge ${PLAN_BADGES[plan]}`}>{showId ? plan : PLAN_LABELS[plan]}</span>;
}

type UserRowProps = { user: AdminUser; isSelf: boolean; onEditProgress: () => void; onShowCertificates: () => void };

/**
 * The plan selector: changes the plan at once (a paid plan runs one month from now). An admin's
 * own is disabled (the server refuses it too). Here and on the learner page.
 */
export function PlanSelect({ user, isSelf }: { user: Pick<AdminUser, "id" | "email" | "plan">; isSelf: boolean }) {
  const setPlan = useSetUserPlan();
  // While the change is on its way the selector shows the chosen plan, not the old one.
  const plan = setPlan.isPending ? setPlan.variables.plan : user.plan;
  return (
    <select
      className="plan-select"
      aria-label={`Plan for ${user.email}`}
      title={isSelf ? ADMIN_MESSAGES.ownPlan : undefined}
      value={plan ?? ""}
      disabled={isSelf || setPlan.isPending}
      onChange={(event) => {
        const chosen = PLANS.find((value) => value === event.target.value);
        if (chosen && chosen !== user.plan) setPlan.mutate({ user, plan: chosen });
      }}
    >
      {plan === null && (
        <option value="" disabled>
          MISSING
        </option>
      )}
      {PLANS.map((value) => (
        <option key={value} value={value}>
          {PLAN_LABELS[value]}
        </option>
      ))}
    </select>
  );
}

function UserRow({ user, isSelf, onEditProgress, onShowCertificates }: UserRowProps) {
  const admit = useAdmitUser();
  const canAdmit = user.waitlistPaid && !user.waitlistAdmitted;

  return (
    <tr>
      <td className="cell-email">
        <UserLink userId={user.id} email={user.email} />
        {isSelf && <span className="muted"> (you)</span>}
      </td>
      <td className="cell-uid">
        <code>{user.id}</code>
      </td>
      <td>
        <PlanBadge plan={user.plan} />
      </td>
      <td>{user.provider ?? "Unknown"}</td>
      <td>{user.status}</td>
      <td className="nowrap">
        {formatLocalDate(user.subscriptionEnd)}
        {user.queued && (
          <span className="cell-note">
            then {PLAN_LABELS[user.queued.plan]} to {formatLocalDate(user.queued.end)}
          </span>
        )}
      </td>
      <td className="cell-date">{formatLocalDateTime(user.lastActiveAt)}</td>
      <td>
        <div className="cell-actions">
          <PlanSelect user={user} isSelf={isSelf} />
          <button
            type="button"
            className="button button-small"
            disabled={!canAdmit || admit.isPending}
            onClick={() => admit.mutate(user)}
          >
            Admit from Waitlist
          </button>
          <button type="button" className="button button-secondary button-small" onClick={onEditProgress}>
            Edit Progress
          </button>
          <button type="button" className="button button-secondary button-small" onClick={onShowCertificates}>
            Certificates
          </button>
        </div>
      </td>
    </tr>
  );
}
