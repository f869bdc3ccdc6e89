// The Mentorship tab: Advanced learners' requests for a 1-on-1 session, those waiting for a time
// first. Confirm sets a time on Accra's clock (the learner is emailed it in Accra time); Decline
// needs a note, which the learner is emailed. Below them, the trades Advanced learners shared from
// their journals, to comment on.
import { useState, type FormEvent } from "react";
import { ACADEMY_TIME_ZONE, formatAcademyTime } from "../../../../shared/academy-time.ts";
import { MENTORSHIP_STATUS_LABELS, SUPPORT_LIMITS, type AdminMentorship } from "../../../../shared/contracts/support.ts";
import { FormMessages } from "../../../ui/form-messages.tsx";
import { Modal } from "../../../ui/modal.tsx";
import { PagedTable, usePageParam } from "../../../ui/pagination.tsx";
import { TextAreaField, TextField } from "../../../ui/text-field.tsx";
import { formatLocalDateTime } from "../admin-api.ts";
import { useAdminMentorship, useDecideMentorship } from "./admin-support-api.ts";
import { SharedTrades } from "../journal/shared-trades.tsx";
import { UserLink } from "../user-link.tsx";
import "../users.css";
import "./support.css";

type Deciding = { request: AdminMentorship; action: "confirm" | "decline" };

export function MentorshipTab() {
  const [page, setPage] = usePageParam();
  const requests = useAdminMentorship(page);
  const rows = requests.data?.requests ?? [];
  const [deciding, setDeciding] = useState<Deciding | null>(null);

  return (
    <>
      <PagedTable
        query={requests}
        rowCount={rows.length}
        label="Mentorship requests"
        loadingText="Loading mentorship requests..."
        empty="No mentorship requests yet."
        onPageChange={setPage}
      >
        <table className="admin-table mentorship-table">
          <caption className="visually-hidden">Mentorship requests, those waiting for a time first</caption>
          <thead>
            <tr>
              <th scope="col">Asked</th>
              <th scope="col">Learner</th>
              <th scope="col">Topic</th>
              <th scope="col">Preferred times</th>
              <th scope="col">Status</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((request) => (
              <tr key={request.id}>
                <td className="cell-date">{formatLocalDateTime(request.createdAt)}</td>
                <td className="cell-name">
                  {request.learnerName}
                  <br />
                  <UserLink userId={request.learnerId} email={request.learnerEmail} />
                </td>
                <td className="cell-message">{request.topic}</td>
                <td className="cell-message">{request.preferredTimes}</td>
                <td>
                  <StatusText request={request} />
                </td>
                <td>
                  {request.status === "requested" && (
                    <div className="cell-actions">
                      <button type="button" className="button button-small" onClick={() => setDeciding({ request, action: "confirm" })}>
                        Confirm
                      </button>
                      <button type="button" className="button button-secondary button-small" onClick={() => setDeciding({ request, action: "decline" })}>
                        Decline
                      </button>
                    </div>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </PagedTable>
      {deciding && <DecisionDialog {...deciding} onClose={() => setDeciding(null)} />}
      <SharedTrades />
    </>
  );
}

const STATUS_BADGES: Record<AdminMentorship["status"], string> = {
  requested: "badge-intermediate",
  confirmed: "badge-success",
  declined: "badge-neutral",
  cancelled: "badge-neutral",
};

function StatusText({ request }: { request: AdminMentorship }) {
  return (
    <>
      <span className={`badge ${STATUS_BADGES[request.status]}`}>
        {MENTORSHIP_STATUS_LABELS[request.status]}
      </span>
      {request.scheduledAt && <p className="mentorship-when">{formatAcademyTime(new Date(request.scheduledAt))}</p>}
      {request.note && <p className="muted">{request.note}</p>}
    </>
  );
}

function DecisionDialog({ request, action, onClose }: Deciding & { onClose: () => void }) {
  const decide = useDecideMentorship();
  const [scheduledAt, setScheduledAt] = useState("");
  const [note, setNote] = useState("");
  const confirming = action === "confirm";
  const formId = `mentorship-${action}-${request.id}`;

  async function submit(event: FormEvent) {
    event.preventDefault();
    const decision = confirming
      ? { id: request.id, action, input: { scheduledAt, note } }
      : { id: request.id, action, note };
    await decide.mutateAsync(decision).then(onClose, () => undefined);
  }

  return (
    <Modal
      title={confirming ? `Confirm a session with ${request.learnerName || request.learnerEmail}` : `Decline ${request.learnerName || request.learnerEmail}'s request`}
      onClose={onClose}
      actions={
        <>
          <button type="button" className="button button-secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form={formId} className="button" disabled={decide.isPending}>
            {decide.isPending ? "Saving..." : confirming ? "Confirm session" : "Decline request"}
          </button>
        </>
      }
    >
      <form id={formId} className="form" noValidate onSubmit={(event) => void submit(event)}>
        <p>
          <strong>Topic:</strong> {request.topic}
          <br />
          <strong>Preferred times:</strong> {request.preferredTimes}
        </p>
        {confirming && (
          <TextField
            label="Session time (Accra time)"
            hint={`Read on the clock of ${ACADEMY_TIME_ZONE} (GMT); the learner is emailed it in Accra time.`}
            type="datetime-local"
            required
            value={scheduledAt}
            onChange={(event) => setScheduledAt(event.target.value)}
            data-autofocus
          />
        )}
        <TextAreaField
          label={confirming ? "Note to the learner (optional)" : "Note to the learner"}
          hint={confirming ? "What to prepare, or how you will meet." : "Why, and what they could do instead."}
          rows={3}
          maxLength={SUPPORT_LIMITS.note}
          required={!confirming}
          value={note}
          onChange={(event) => setNote(event.target.value)}
          {...(confirming ? {} : { "data-autofocus": true })}
        />
        <FormMessages error={decide.error?.message} />
      </form>
    </Modal>
  );
}
