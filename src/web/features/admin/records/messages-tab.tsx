// The Messages tab: what visitors sent through the contact form, newest first, then the emails and
// the SMS that have not gone through.
import type { AdminContactMessage } from "../../../../shared/contracts/admin.ts";
import { PagedTable, usePageParam } from "../../../ui/pagination.tsx";
import { formatLocalDateTime } from "../admin-api.ts";
import { useAdminMessages } from "./records-api.ts";
import { FailingSmsList } from "./failing-sms.tsx";
import { UnsentMailList } from "./unsent-mail.tsx";
import { EmailText } from "../user-link.tsx";
import "../users.css";

export function MessagesTab() {
  return (
    <>
      <ContactMessages />
      <UnsentMailList />
      <FailingSmsList />
    </>
  );
}

function ContactMessages() {
  const [page, setPage] = usePageParam();
  const messages = useAdminMessages(page);
  const rows = messages.data?.messages ?? [];

  return (
    <PagedTable
      query={messages}
      rowCount={rows.length}
      label="Messages"
      loadingText="Loading messages..."
      empty="No messages yet."
      onPageChange={setPage}
    >
      <table className="admin-table messages-table">
        <caption className="visually-hidden">Contact messages</caption>
        <thead>
          <tr>
            <th scope="col">Date</th>
            <th scope="col">Name</th>
            <th scope="col">Email</th>
            <th scope="col">Message</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((message) => (
            <MessageRow key={message.id} message={message} />
          ))}
        </tbody>
      </table>
    </PagedTable>
  );
}

function MessageRow({ message }: { message: AdminContactMessage }) {
  return (
    <tr>
      <td className="cell-date">{formatLocalDateTime(message.createdAt)}</td>
      <td className="cell-name">{message.name}</td>
      <td className="cell-email">
        <a href={`mailto:${message.email}`}>
          <EmailText email={message.email} />
        </a>
      </td>
      <td className="cell-message">{message.message}</td>
    </tr>
  );
}
