// Trades Advanced learners shared with their mentor, in the Mentorship tab (docs/trading.md, "The
// journal"): the entry as the learner wrote it, with the result the server worked out, and a
// comment the learner is told of by email and, if they chose, SMS.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ADMIN_JOURNAL_ENDPOINTS, JOURNAL_COMMENT_MAX_LENGTH, type SharedJournalEntry } from "../../../../shared/contracts/journal.ts";
import { ApiRequestError, call } from "../../../lib/api.ts";
import { FormMessages } from "../../../ui/form-messages.tsx";
import { Pagination } from "../../../ui/pagination.tsx";
import { TextAreaField } from "../../../ui/text-field.tsx";
import { notify } from "../../../ui/toast.tsx";
import { Link } from "react-router";
import { ADMIN_KEY } from "../admin-api.ts";
import { adminUserPath } from "../user-link.tsx";
import "./shared-trades.css";

const SHARED_KEY = [...ADMIN_KEY, "journal-shared"] as const;

export function SharedTrades() {
  const [page, setPage] = useState(1);
  const shared = useQuery({
    queryKey: [...SHARED_KEY, { page }],
    queryFn: () => call(ADMIN_JOURNAL_ENDPOINTS.shared, { query: { page } }),
    placeholderData: keepPreviousData,
  });
  return (
    <section className="shared-trades" aria-labelledby="shared-trades-title">
      <h2 id="shared-trades-title">Trades shared by learners</h2>
      {shared.isPending ? (
        <p className="muted">Loading shared trades...</p>
      ) : shared.isError ? (
        <FormMessages error="The shared trades could not be loaded. Try again in a moment." />
      ) : shared.data.entries.length === 0 ? (
        <p className="muted">No learner has shared a trade yet.</p>
      ) : (
        <>
          <ul className="shared-trades-list">
            {shared.data.entries.map((row) => (
              <SharedTrade key={row.entry.id} row={row} />
            ))}
          </ul>
          <Pagination page={page} pageSize={shared.data.pageSize} total={shared.data.total} onPageChange={setPage} label="Shared trades pages" />
        </>
      )}
    </section>
  );
}

function SharedTrade({ row }: { row: SharedJournalEntry }) {
  const { entry, learner } = row;
  const queryClient = useQueryClient();
  const [body, setBody] = useState("");
  const [error, setError] = useState("");
  const comment = useMutation({
    mutationFn: () => call(ADMIN_JOURNAL_ENDPOINTS.comment, { params: { id: entry.id }, body: { body } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: SHARED_KEY }),
  });
  const what = `${entry.direction === "buy" ? "Buy" : "Sell"} ${entry.instrument}`;

  async function send() {
    setError("");
    try {
      await comment.mutateAsync();
      setBody("");
      notify.success(`Your comment was sent to ${learner.name || learner.email}.`);
    } catch (caught) {
      setError(caught instanceof ApiRequestError ? caught.message : "The comment could not be sent. Try again in a moment.");
    }
  }

  return (
    <li className="card shared-trade">
      <p>
        <strong>{what}</strong> <span className="muted">
          {entry.tradedOn}, {entry.kind}, {entry.size} lots, by <Link to={adminUserPath(learner.id)}>{learner.name || learner.email}</Link>
        </span>{" "}
        <strong>{entry.r === null ? "Open" : `${entry.r} R`}</strong>
      </p>
      <p>
        Entry {entry.entry}, stop {entry.stop}
        {entry.target && `, target ${entry.target}`}
        {entry.exit && `, exit ${entry.exit}`}
      </p>
      {entry.notes && <p className="shared-trade-notes">{entry.notes}</p>}
      {entry.screenshot && (
        <a href={entry.screenshot.url} target="_blank" rel="noopener">
          <img className="shared-trade-shot" src={entry.screenshot.url} alt={`Chart of ${learner.name || learner.email}'s ${entry.instrument} trade`} loading="lazy" />
        </a>
      )}
      {entry.comments.map((earlier) => (
        <p key={earlier.id} className="shared-trade-comment">
          <strong>Your comment:</strong> {earlier.body}
        </p>
      ))}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void send();
        }}
      >
        <TextAreaField
          label={`Comment on the ${entry.instrument} trade of ${entry.tradedOn}`}
          hint="The learner is emailed it, and sent an SMS if they chose mentorship messages."
          rows={3}
          maxLength={JOURNAL_COMMENT_MAX_LENGTH}
          value={body}
          onChange={(event) => setBody(event.target.value)}
        />
        <FormMessages error={error} />
        <button type="submit" className="button button-small" disabled={comment.isPending}>
          {comment.isPending ? "Sending..." : "Send Comment"}
        </button>
      </form>
    </li>
  );
}
