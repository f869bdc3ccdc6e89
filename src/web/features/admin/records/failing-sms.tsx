// Under the Messages tab: the SMS that have not gone through (docs/product.md, "SMS"), newest
// first. The job queue keeps trying them; this says which, to whom, how often and why.
import { useQuery } from "@tanstack/react-query";
import { formatGhanaPhone, SMS_ENDPOINTS } from "../../../../shared/contracts/sms.ts";
import { call } from "../../../lib/api.ts";
import { formatLocalDateTime } from "../admin-api.ts";
import { NotSentList } from "./not-sent-list.tsx";

export function FailingSmsList() {
  const failing = useQuery({ queryKey: ["admin", "sms", "failing"], queryFn: () => call(SMS_ENDPOINTS.failing, {}) });
  return (
    <NotSentList
      id="failing-sms"
      title="SMS not sent"
      allSent="Every SMS has gone through."
      query={failing}
      columns={["Date", "Kind", "Number", "Tries", "Last error"]}
      row={(sms) => (
        <>
          <td className="cell-date">{formatLocalDateTime(sms.createdAt)}</td>
          <td>{sms.kind}</td>
          <td>{formatGhanaPhone(sms.to)}</td>
          <td>{sms.attempts}</td>
          <td className="cell-message">{sms.lastError}</td>
        </>
      )}
    />
  );
}
