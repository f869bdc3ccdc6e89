// Under the Messages tab: the SMS that have not gone through (docs/product.md, "SMS"), newest
// first. The job queue keeps trying them; this says which, to whom, how often and why.
import { useQuery } from "@tanstack/react-query";
import { formatGhanaPhone, SMS_ENDPOINTS, type FailingSms } from "../../../../shared/contracts/sms.ts";
import { call } from "../../../lib/api.ts";
import { FormMessages } from "../../../ui/form-messages.tsx";
import { formatLocalDateTime } from "../admin-api.ts";

export function FailingSmsList() {
  const failing = useQuery({ queryKey: ["admin", "sms", "failing"], queryFn: () => call(SMS_ENDPOINTS.failing, {}) });
  const rows = failing.data?.messages ?? [];
  return (
    <section className="stack" aria-labelledby="failing-sms">
      <h2 id="failing-sms">SMS not sent</h2>
      {failing.data && rows.length === 0 ? (
        <p>Every SMS has gone through.</p>
      ) : (
        <table className="admin-table">
          <caption className="visually-hidden">SMS not sent, newest first ({failing.data?.total ?? 0} in all)</caption>
          <thead>
            <tr>
              <th scope="col">Date</th>
              <th scope="col">Kind</th>
              <th scope="col">Number</th>
              <th scope="col">Tries</th>
              <th scope="col">Last error</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((sms) => (
              <FailingSmsRow key={sms.id} sms={sms} />
            ))}
          </tbody>
        </table>
      )}
      <FormMessages error={failing.error?.message} />
    </section>
  );
}

function FailingSmsRow({ sms }: { sms: FailingSms }) {
  return (
    <tr>
      <td className="cell-date">{formatLocalDateTime(sms.createdAt)}</td>
      <td>{sms.kind}</td>
      <td>{formatGhanaPhone(sms.to)}</td>
      <td>{sms.attempts}</td>
      <td className="cell-message">{sms.lastError}</td>
    </tr>
  );
}
