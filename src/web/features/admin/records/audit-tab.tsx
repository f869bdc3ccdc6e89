// The Audit tab (docs/data.md, "Audit log"): every entitlement change, newest first: who, when,
// what changed and why. The email filter is in the address (?tab=audit&user=ama@example.com).
import { useState } from "react";
import { useSearchParams } from "react-router";
import { PagedTable, usePageParam } from "../../../ui/pagination.tsx";
import { TextField } from "../../../ui/text-field.tsx";
import { useAdminAudit } from "./records-api.ts";
import { AuditHead, AuditRow } from "./audit-entries.tsx";
import "../users.css";

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
          <AuditHead withSubject />
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

