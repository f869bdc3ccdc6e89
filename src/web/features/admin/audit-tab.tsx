// The Audit tab (docs/data.md, "Audit log"): every entitlement change, newest first: who, when,
// what changed and why. The email filter is in the address (?tab=audit&user=ama@example.com).
import { useState } from "react";
import { useSearchParams } from "react-router";
import type { AuditEntry } from "../../../shared/contracts/admin.ts";
import { PagedTable, usePageParam } from "../../ui/pagination.tsx";
import { TextField } from "../../ui/text-field.tsx";
import { formatLocalDateTime, useAdminAudit } from "./admin-records-api.ts";
import { UserLink } from "./user-link.tsx";
import "./users.css";

export function AuditTab() {
  const [params, setParams] = useSearchParams();
  const [page, setPage] = usePageParam();
  const user = params.get("user")?.trim() ?? "";
  const audit = useAdminAudit(page, user);
  const entries = audit.data?.entries ?? [];

  function filterBy(email: string) {
    setParams((current) => {
      const next = new URLSearchParams(current);
      if (email) next.set("user", email);
      else next.delete("user");
      next.delete("page");
      return next;
    });
  }

  return (
    <>
      {/* Keyed on the filter, so the field shows it again after Back or a reload. */}
      <AuditFilter key={user} user={user} onFilter={filterBy} />
      <PagedTable
        query={audit}
        rowCount={entries.length}
        label="Audit log"
        loadingText="Loading the audit log..."
        empty={user ? "No audit entries match." : "No audit entries yet."}
        onPageChange={setPage}
      >
        <table className="admin-table audit-table">
          <caption className="visually-hidden">Audit log</caption>
          <thead>
            <tr>
              <th scope="col">Date</th>
              <th scope="col">Action</th>
              <th scope="col">User</th>
              <th scope="col">By</th>
              <th scope="col">Reason</th>
              <th scope="col">Changes</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <AuditRow key={entry.id} entry={entry} />
            ))}
          </tbody>
        </table>
      </PagedTable>
    </>
  );
}

function AuditFilter({ user, onFilter }: { user: string; onFilter: (email: string) => void }) {
  const [text, setText] = useState(user);
  return (
    <form
      role="search"
      className="admin-toolbar"
      onSubmit={(event) => {
        event.preventDefault();
        onFilter(text.trim());
      }}
    >
      <TextField
        label="Filter by user email"
        type="search"
        autoComplete="off"
        spellCheck={false}
        value={text}
        onChange={(event) => setText(event.target.value)}
      />
      <button type="submit" className="button button-small">
        Filter
      </button>
      <button
        type="button"
        className="button button-secondary button-small"
        disabled={!user && !text}
        onClick={() => {
          setText("");
          onFilter("");
        }}
      >
        Clear
      </button>
    </form>
  );
}

function AuditRow({ entry }: { entry: AuditEntry }) {
  return (
    <tr>
      <td className="cell-date">{formatLocalDateTime(entry.createdAt)}</td>
      <td className="nowrap">{entry.action}</td>
      <td className="cell-email">{entry.subjectEmail ? <UserLink userId={entry.subjectId} email={entry.subjectEmail} /> : "—"}</td>
      <td className="cell-email">{entry.actorEmail ? <UserLink userId={entry.actorId} email={entry.actorEmail} /> : "System"}</td>
      <td className="cell-reason">{entry.reason}</td>
      <td className="cell-changes">
        <code>{compactJson(entry.changes)}</code>
      </td>
    </tr>
  );
}

function compactJson(value: unknown): string {
  return value === undefined ? "" : JSON.stringify(value);
}
