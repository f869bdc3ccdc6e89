// Audit entries as the Audit tab and a learner's page show them: a row per entry, its changes
// as an administrator reads them, one line per field, "before → after" where the entry recorded
// both, instead of the JSON the server stored (docs/admin.md, "Learner page"; docs/product.md).
import type { AuditEntry } from "../../../../shared/contracts/admin.ts";
import type { LearnerAuditEntry } from "../../../../shared/contracts/admin-learner.ts";
import { formatLocalDateTime } from "../admin-api.ts";
import { UserLink } from "../user-link.tsx";

export type ChangeLine = { field: string | null; text: string };

type Fields = Record<string, unknown>;

const isFields = (value: unknown): value is Fields => typeof value === "object" && value !== null && !Array.isArray(value);

/** "programId" -> "program id". */
const words = (key: string) => key.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();

/** An instant as the server stores it (ISO 8601 with a time), shown in the reader's time zone. */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

function valueText(value: unknown): string {
  if (value === null || value === undefined || value === "") return "—";
  if (typeof value === "string" && INSTANT.test(value)) return formatLocalDateTime(value);
  if (Array.isArray(value)) return value.length === 0 ? "none" : value.map(valueText).join(", ");
  if (isFields(value)) return Object.entries(value).map(([key, item]) => `${words(key)} ${valueText(item)}`).join(", ");
  return String(value);
}

const fieldOf = (path: string[]) => (path.length === 0 ? null : path.map(words).join(" › "));

/** What an entry records as `from` and `to`: one line, or one per field that changed when they are records. */
function transitionLines(from: unknown, to: unknown, path: string[]): ChangeLine[] {
  if (!isFields(from) && !isFields(to)) return [{ field: fieldOf(path), text: `${valueText(from)} → ${valueText(to)}` }];
  const before = isFields(from) ? from : {};
  const after = isFields(to) ? to : {};
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  // A field the entry recorded on both sides alike did not change: it is left out.
  return keys.flatMap((key) => {
    const [was, is] = [valueText(before[key]), valueText(after[key])];
    return was === is ? [] : [{ field: fieldOf([...path, key]), text: `${was} → ${is}` }];
  });
}

/**
 * The lines of an entry's changes, in the order the entry recorded them: the fields that did not
 * change as they are, then what went from one value to another.
 */
export function changeLines(changes: unknown, path: string[] = []): ChangeLine[] {
  if (changes === null || changes === undefined) return [];
  if (!isFields(changes)) return [{ field: fieldOf(path), text: valueText(changes) }];
  const { from, to, ...rest } = changes;
  const lines = Object.entries(rest).flatMap(([key, value]) => changeLines(value, [...path, key]));
  return "from" in changes || "to" in changes ? [...lines, ...transitionLines(from, to, path)] : lines;
}

export function AuditChanges({ changes }: { changes: unknown }) {
  const lines = changeLines(changes);
  if (lines.length === 0) return <>—</>;
  return (
    <ul className="audit-changes">
      {lines.map((line, index) => (
        <li key={index}>
          {line.field ? <span className="audit-field">{line.field}: </span> : null}
          {line.text}
        </li>
      ))}
    </ul>
  );
}

/** The header row; `withSubject` adds whom each entry is about (the Audit tab, not a learner's page). */
export function AuditHead({ withSubject }: { withSubject: boolean }) {
  return (
    <thead>
      <tr>
        <th scope="col">Date</th>
        <th scope="col">Action</th>
        {withSubject ? <th scope="col">User</th> : null}
        <th scope="col">By</th>
        <th scope="col">Reason</th>
        <th scope="col">Changes</th>
      </tr>
    </thead>
  );
}

/** One entry; an entry of the Audit tab names whom it is about, one on a learner's page does not. */
export function AuditRow({ entry }: { entry: AuditEntry | LearnerAuditEntry }) {
  return (
    <tr>
      <td className="cell-date">{formatLocalDateTime(entry.createdAt)}</td>
      <td className="nowrap">{entry.action}</td>
      {"subjectId" in entry ? (
        <td className="cell-email">{entry.subjectEmail ? <UserLink userId={entry.subjectId} email={entry.subjectEmail} /> : "—"}</td>
      ) : null}
      <td className="cell-email">{entry.actorEmail ? <UserLink userId={entry.actorId} email={entry.actorEmail} /> : "System"}</td>
      <td className="cell-reason">{entry.reason}</td>
      <td className="cell-changes">
        <AuditChanges changes={entry.changes} />
      </td>
    </tr>
  );
}
