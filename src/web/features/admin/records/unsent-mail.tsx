// Under the Messages tab: the emails the mail server has not taken (docs/admin.md, "Messages"),
// newest first. The job queue keeps trying them for a few hours, then gives up; this says which, to
// whom, how often and why. The messages themselves, which may hold a one-time link, are never shown.
import { useQuery } from "@tanstack/react-query";
import { ADMIN_RECORDS_ENDPOINTS, type UnsentMail } from "../../../../shared/contracts/admin.ts";
import { call } from "../../../lib/api.ts";
import { formatLocalDateTime } from "../admin-api.ts";
import { EmailText } from "../user-link.tsx";
import { NotSentList } from "./not-sent-list.tsx";

const STATE_LABELS: Record<UnsentMail["status"], string> = { failing: "Trying again", failed: "Given up" };

export function UnsentMailList() {
  const unsent = useQuery({ queryKey: ["admin", "mail", "unsent"], queryFn: () => call(ADMIN_RECORDS_ENDPOINTS.unsentMail, {}) });
  return (
    <NotSentList
      id="unsent-mail"
      title="Email not sent"
      allSent="Every email has gone through."
      query={unsent}
      columns={["Date", "To", "Subject", "Tries", "State", "Last error"]}
      row={(mail) => (
        <>
          <td className="cell-date">{formatLocalDateTime(mail.createdAt)}</td>
          <td className="cell-email">
            <EmailText email={mail.to} />
          </td>
          <td>{mail.subject}</td>
          <td>{mail.attempts}</td>
          <td>{STATE_LABELS[mail.status]}</td>
          <td className="cell-message">{mail.lastError}</td>
        </>
      )}
    />
  );
}
