// The Announcements tab (docs/admin.md, "Announcements"): write a message, choose who receives it,
// preview the email and how many it reaches, then send; below, what was sent, with its progress
// while the job sends it, and the deliveries that failed.
import { useState } from "react";
import {
  ANNOUNCEMENT_MESSAGES,
  ANNOUNCEMENT_STATUS_LABELS,
  audienceLabel,
  type Announcement,
} from "../../../../shared/contracts/announcements.ts";
import { PagedTable, usePageParam } from "../../../ui/pagination.tsx";
import { formatLocalDateTime } from "../admin-api.ts";
import { AnnouncementComposer } from "./announcements-composer.tsx";
import { useAnnouncements, useAudienceOptions, useDeliveryFailures } from "./announcements-api.ts";
import "./announcements.css";
import "../users.css";

export function AnnouncementsTab() {
  return (
    <div className="announcements">
      <AnnouncementComposer />
      <SentAnnouncements />
    </div>
  );
}

const STATUS_BADGES: Record<Announcement["status"], string> = {
  running: "badge-intermediate",
  done: "badge-success",
  failed: "badge-failed",
};

function SentAnnouncements() {
  const [page, setPage] = usePageParam();
  const list = useAnnouncements(page);
  const rows = list.data?.announcements ?? [];
  const [failuresOf, setFailuresOf] = useState<Announcement | null>(null);
  const programs = useAudienceOptions().data?.programs;
  const programTitles = new Map(programs?.map((program) => [program.id, program.title]));
  // The row as the latest poll has it, so that its failures keep up while it is being sent.
  const shown = failuresOf ? (rows.find((row) => row.id === failuresOf.id) ?? failuresOf) : null;

  return (
    <section className="announcements-sent" aria-labelledby="announcements-sent-heading">
      <h2 id="announcements-sent-heading">Sent announcements</h2>
      <PagedTable
        query={list}
        rowCount={rows.length}
        label="Announcements"
        loadingText="Loading announcements..."
        empty={ANNOUNCEMENT_MESSAGES.none}
        onPageChange={setPage}
      >
        <table className="admin-table announcements-table">
          <caption className="visually-hidden">Announcements, newest first, with how far each has been sent</caption>
          <thead>
            <tr>
              <th scope="col">Sent</th>
              <th scope="col">Subject</th>
              <th scope="col">Audience</th>
              <th scope="col">Progress</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((announcement) => (
              <tr key={announcement.id}>
                <td className="cell-date">
                  {formatLocalDateTime(announcement.createdAt)}
                  {announcement.sentBy && <span className="muted announcement-by">by {announcement.sentBy}</span>}
                </td>
                <td className="cell-message">{announcement.subject}</td>
                <td>{audienceLabel(announcement.audience, programTitles)}</td>
                <td>
                  <Progress announcement={announcement} />
                  {announcement.failed > 0 && (
                    <button
                      type="button"
                      className="button button-secondary button-small announcement-failures-button"
                      aria-expanded={shown?.id === announcement.id}
                      aria-controls="announcement-failures"
                      onClick={() => setFailuresOf(shown?.id === announcement.id ? null : announcement)}
                    >
                      {shown?.id === announcement.id ? "Hide failures" : `Failures (${announcement.failed})`}
                    </button>
                  )}
                </td>
                <td>
                  <span className={`badge ${STATUS_BADGES[announcement.status]}`}>{ANNOUNCEMENT_STATUS_LABELS[announcement.status]}</span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </PagedTable>
      {shown && <Failures announcement={shown} onClose={() => setFailuresOf(null)} />}
    </section>
  );
}

function Progress({ announcement }: { announcement: Announcement }) {
  const { recipients, sent, failed, pending, subject } = announcement;
  return (
    <div className="announcement-progress">
      <progress value={sent + failed} max={Math.max(recipients, 1)} aria-label={`Progress of ${subject}`} />
      <span>
        {sent.toLocaleString()} of {recipients.toLocaleString()} sent
        {failed > 0 && `, ${failed.toLocaleString()} failed`}
        {pending > 0 && `, ${pending.toLocaleString()} to go`}
      </span>
    </div>
  );
}

function Failures({ announcement, onClose }: { announcement: Announcement; onClose: () => void }) {
  const [page, setPage] = useState(1);
  const failures = useDeliveryFailures(announcement.id, page, announcement.status === "running");
  const rows = failures.data?.failures ?? [];
  return (
    <section id="announcement-failures" className="card announcement-failures" aria-labelledby="announcement-failures-heading">
      <div className="announcement-failures-head">
        <h3 id="announcement-failures-heading">Failed deliveries of “{announcement.subject}”</h3>
        <button type="button" className="button button-secondary button-small" onClick={onClose}>
          Close
        </button>
      </div>
      <PagedTable
        query={failures}
        rowCount={rows.length}
        label="Failed deliveries"
        loadingText="Loading failed deliveries..."
        empty={ANNOUNCEMENT_MESSAGES.noFailures}
        onPageChange={setPage}
      >
        <table className="admin-table">
          <caption className="visually-hidden">Failed deliveries, by address, with the reason</caption>
          <thead>
            <tr>
              <th scope="col">Email</th>
              <th scope="col">Reason</th>
              <th scope="col">Tried</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((failure) => (
              <tr key={failure.email}>
                <td className="mono">{failure.email}</td>
                <td className="cell-message">{failure.error}</td>
                <td className="cell-date">{formatLocalDateTime(failure.at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </PagedTable>
    </section>
  );
}
