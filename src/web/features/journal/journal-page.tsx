// The trading journal (docs/trading.md, "The journal"): a learner's trades, practice or real, the
// figures the server draws from them, and the equity curve in R. The server works out every
// figure; this page shows them.
import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { JOURNAL_ENDPOINTS, JOURNAL_SCREENSHOT_MAX_BYTES, journalEntryInputSchema, type JournalEntry, type JournalEntryInput, type JournalStats } from "../../../shared/contracts/journal.ts";
import { INSTRUMENTS } from "../../../shared/trading/instruments.ts";
import { CheckedField } from "../../ui/checked-field.tsx";
import { FormMessages } from "../../ui/form-messages.tsx";
import { ConfirmDialog } from "../../ui/modal.tsx";
import { Pagination, usePageParam } from "../../ui/pagination.tsx";
import { notify } from "../../ui/toast.tsx";
import { EquityCurve } from "./equity-curve.tsx";
import { useSignedInUser } from "../../session/session.ts";
import { useJournalEntries, useJournalStats, useRemoveEntry, useSaveEntry, useShareEntry } from "./journal-api.ts";
import "./journal.css";

export function JournalPage() {
  const [editing, setEditing] = useState<JournalEntry | null>(null);
  return (
    <section className="container section journal">
      <h1>Trading journal</h1>
      <p className="section-lead">
        Write down each trade, practice or real, and see what your record says: your win rate, your average result in R and what a trade
        of yours can be expected to make. Only you and the academy's administrators can read it.
      </p>
      <Figures />
      <div className="journal-body">
        <EntryForm key={editing?.id ?? "new"} editing={editing} onDone={() => setEditing(null)} />
        <Entries onEdit={setEditing} />
      </div>
    </section>
  );
}

function Figures() {
  const stats = useJournalStats();
  if (stats.isPending) return <p className="muted">Loading your figures...</p>;
  if (stats.isError) return <FormMessages error="Your figures could not be loaded. Try again in a moment." />;
  return <FiguresCard stats={stats.data} />;
}

const signed = (r: string) => (r.startsWith("-") ? `${r.replace("-", "−")} R` : `+${r} R`);

function FiguresCard({ stats }: { stats: JournalStats }) {
  if (stats.trades === 0) {
    return (
      <div className="card journal-figures">
        <h2>Your figures</h2>
        <p className="muted">
          {stats.open > 0 ? `${stats.open} open ${stats.open === 1 ? "trade" : "trades"}. ` : ""}
          Your figures appear once a trade has an exit.
        </p>
      </div>
    );
  }
  return (
    <div className="card journal-figures">
      <h2>Your figures</h2>
      <dl className="journal-stats">
        <div>
          <dt>Closed trades</dt>
          <dd>
            {stats.trades}
            {stats.open > 0 && <span className="muted"> (and {stats.open} open)</span>}
          </dd>
        </div>
        <div>
          <dt>Win rate</dt>
          <dd>{stats.winRate}%</dd>
        </div>
        <div>
          <dt>Average result</dt>
          <dd>{stats.averageR && signed(stats.averageR)}</dd>
        </div>
        <div>
          <dt>Expectancy</dt>
          <dd>{stats.expectancyR && `${signed(stats.expectancyR)} a trade`}</dd>
        </div>
        <div>
          <dt>Average win</dt>
          <dd>{stats.averageWinR ? signed(stats.averageWinR) : "No wins yet"}</dd>
        </div>
        <div>
          <dt>Average loss</dt>
          <dd>{stats.averageLossR ? signed(`-${stats.averageLossR}`) : "No losses yet"}</dd>
        </div>
      </dl>
      <EquityCurve points={stats.equity} />
      <p>
        <a href={JOURNAL_ENDPOINTS.csv.path} download>
          Download as CSV
        </a>
      </p>
    </div>
  );
}

const today = () => {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, "0")}-${String(now.getDate()).padStart(2, "0")}`;
};

const EMPTY: JournalEntryInput = { kind: "practice", instrument: "", direction: "buy", entry: "", stop: "", target: "", exit: "", size: "", tradedOn: "", notes: "" };

function inputOf(entry: JournalEntry): JournalEntryInput {
  const { kind, instrument, direction, entry: price, stop, target, exit, size, tradedOn, notes } = entry;
  return { kind, instrument, direction, entry: price, stop, target: target ?? "", exit: exit ?? "", size, tradedOn, notes };
}

function EntryForm({ editing, onDone }: { editing: JournalEntry | null; onDone: () => void }) {
  const save = useSaveEntry();
  const [screenshot, setScreenshot] = useState<File | null>(null);
  // A new key empties the file input once its file is kept.
  const [fileKey, setFileKey] = useState(0);
  const [screenshotError, setScreenshotError] = useState("");
  const [error, setError] = useState("");
  const form = useForm<JournalEntryInput>({
    resolver: zodResolver(journalEntryInputSchema),
    defaultValues: editing ? inputOf(editing) : { ...EMPTY, tradedOn: today() },
  });
  const errors = form.formState.errors;

  const submit = form.handleSubmit(async (input) => {
    setError("");
    try {
      const { screenshotRefused } = await save.mutateAsync({ id: editing?.id, input, screenshot });
      if (screenshotRefused) {
        setScreenshotError(`The entry was saved without its screenshot: ${screenshotRefused}`);
        return;
      }
      notify.success(editing ? "The entry was saved." : "The trade was added to your journal.");
      onDone();
      form.reset({ ...EMPTY, tradedOn: today() });
      setScreenshot(null);
      setFileKey((key) => key + 1);
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : "The entry could not be saved. Try again in a moment.");
    }
  });

  function chooseScreenshot(file: File | null) {
    setScreenshotError("");
    if (file && file.size > JOURNAL_SCREENSHOT_MAX_BYTES) {
      setScreenshotError("The screenshot is larger than 2 MB. Crop it or save it as a JPEG.");
      setScreenshot(null);
      return;
    }
    setScreenshot(file);
  }

  const text = (name: keyof JournalEntryInput, label: string, hint?: string, inputMode: "decimal" | "text" = "decimal") => (
    <CheckedField label={label} hint={hint} error={errors[name]?.message}>
      {(ids) => <input inputMode={inputMode} autoComplete="off" {...form.register(name)} {...ids} />}
    </CheckedField>
  );

  return (
    <form className="card form journal-form" noValidate onSubmit={(event) => void submit(event)} aria-labelledby="journal-form-title">
      <h2 id="journal-form-title">{editing ? `Edit the ${editing.instrument} trade of ${editing.tradedOn}` : "Add a trade"}</h2>
      <div className="journal-fields">
        <CheckedField label="Kind" error={errors.kind?.message}>
          {(ids) => (
            <select {...form.register("kind")} {...ids}>
              <option value="practice">Practice</option>
              <option value="real">Real</option>
            </select>
          )}
        </CheckedField>
        <CheckedField label="Instrument" hint="EURUSD, XAUUSD or any other." error={errors.instrument?.message}>
          {(ids) => <input list="journal-instruments" autoComplete="off" autoCapitalize="characters" {...form.register("instrument")} {...ids} />}
        </CheckedField>
        <datalist id="journal-instruments">
          {INSTRUMENTS.map((instrument) => (
            <option key={instrument.symbol} value={instrument.symbol} />
          ))}
        </datalist>
        <CheckedField label="Direction" error={errors.direction?.message}>
          {(ids) => (
            <select {...form.register("direction")} {...ids}>
              <option value="buy">Buy</option>
              <option value="sell">Sell</option>
            </select>
          )}
        </CheckedField>
        <CheckedField label="Date" error={errors.tradedOn?.message}>
          {(ids) => <input type="date" max={today()} {...form.register("tradedOn")} {...ids} />}
        </CheckedField>
        {text("entry", "Entry")}
        {text("stop", "Stop-loss")}
        {text("target", "Take-profit", "Optional.")}
        {text("exit", "Exit", "Leave empty while the trade is open.")}
        {text("size", "Size (lots)")}
      </div>
      <CheckedField label="Notes" hint="Why you took it, and what you learned." error={errors.notes?.message}>
        {(ids) => <textarea rows={3} {...form.register("notes")} {...ids} />}
      </CheckedField>
      <CheckedField label="Screenshot" hint="One image of the chart, PNG, JPEG or WebP, up to 2 MB." error={screenshotError || undefined}>
        {(ids) => <input key={fileKey} type="file" accept="image/png,image/jpeg,image/webp" onChange={(event) => chooseScreenshot(event.currentTarget.files?.[0] ?? null)} {...ids} />}
      </CheckedField>
      <FormMessages error={error} />
      <div className="journal-actions">
        <button type="submit" className="button" disabled={save.isPending}>
          {save.isPending ? "Saving..." : editing ? "Save Entry" : "Add Trade"}
        </button>
        {editing && (
          <button type="button" className="button button-secondary" onClick={onDone}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}

function Entries({ onEdit }: { onEdit: (entry: JournalEntry) => void }) {
  const [page, setPage] = usePageParam();
  const entries = useJournalEntries(page);
  const remove = useRemoveEntry();
  const share = useShareEntry();
  // Sharing with a mentor is part of the Advanced plan; the server decides, this only offers it.
  const { user } = useSignedInUser();
  const mayShare = user?.plan === "advanced";

  async function toggleShare(entry: JournalEntry) {
    const shared = entry.sharedAt === null;
    try {
      await share.mutateAsync({ id: entry.id, shared });
      notify.success(shared ? "Shared with your mentor, who will comment here." : "No longer shared with your mentor.");
    } catch (caught) {
      notify.error(caught instanceof Error ? caught.message : "The entry could not be shared. Try again in a moment.");
    }
  }
  const [removing, setRemoving] = useState<JournalEntry | null>(null);

  async function confirmRemove(entry: JournalEntry) {
    try {
      await remove.mutateAsync(entry.id);
      notify.success("The entry was removed.");
    } catch {
      notify.error("The entry could not be removed. Try again in a moment.");
    } finally {
      setRemoving(null);
    }
  }

  if (entries.isPending) return <p className="muted">Loading your journal...</p>;
  if (entries.isError) return <FormMessages error="Your journal could not be loaded. Try again in a moment." />;
  const { entries: list, total, pageSize } = entries.data;
  return (
    <div className="journal-entries">
      <h2>Your trades</h2>
      {list.length === 0 ? (
        <p className="muted">No trades yet. Add your first one: a practice trade counts.</p>
      ) : (
        <ul className="journal-list">
          {list.map((entry) => (
            <li key={entry.id} className="card journal-entry">
              <EntryView entry={entry} />
              <div className="journal-actions">
                <button type="button" className="button button-small button-secondary" onClick={() => onEdit(entry)}>
                  Edit<span className="visually-hidden"> the {entry.instrument} trade of {entry.tradedOn}</span>
                </button>
                <button type="button" className="button button-small button-secondary" onClick={() => setRemoving(entry)}>
                  Remove<span className="visually-hidden"> the {entry.instrument} trade of {entry.tradedOn}</span>
                </button>
                {(mayShare || entry.sharedAt !== null) && (
                  <button type="button" className="button button-small button-secondary" disabled={share.isPending} onClick={() => void toggleShare(entry)}>
                    {entry.sharedAt === null ? "Share with My Mentor" : "Stop Sharing"}
                    <span className="visually-hidden"> the {entry.instrument} trade of {entry.tradedOn}</span>
                  </button>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      <Pagination page={page} pageSize={pageSize} total={total} onPageChange={setPage} label="Journal pages" />
      {removing && (
        <ConfirmDialog
          title="Remove this trade?"
          message={`The ${removing.instrument} trade of ${removing.tradedOn} will be removed from your journal for good.`}
          confirmLabel="Remove Trade"
          busy={remove.isPending}
          onConfirm={() => void confirmRemove(removing)}
          onCancel={() => setRemoving(null)}
        />
      )}
    </div>
  );
}

function EntryView({ entry }: { entry: JournalEntry }) {
  return (
    <>
      <p className="journal-entry-head">
        <strong>
          {entry.direction === "buy" ? "Buy" : "Sell"} {entry.instrument}
        </strong>{" "}
        <span className="muted">
          {entry.tradedOn}, {entry.kind === "practice" ? "practice" : "real"}, {entry.size} lots
        </span>
        <span className={`journal-result ${entry.r === null ? "is-open" : entry.r.startsWith("-") ? "is-loss" : "is-win"}`}>
          {entry.r === null ? "Open" : signed(entry.r)}
        </span>
      </p>
      <p className="journal-prices">
        Entry {entry.entry}, stop {entry.stop}
        {entry.target && `, target ${entry.target}`}
        {entry.exit && `, exit ${entry.exit}`}
      </p>
      {entry.notes && <p className="journal-notes">{entry.notes}</p>}
      {entry.sharedAt !== null && <p className="muted">Shared with your mentor.</p>}
      {entry.comments.length > 0 && (
        <ul className="journal-comments" aria-label={`Your mentor's comments on the ${entry.instrument} trade`}>
          {entry.comments.map((comment) => (
            <li key={comment.id}>
              <strong>Your mentor:</strong> {comment.body}
            </li>
          ))}
        </ul>
      )}
      {entry.screenshot && (
        <a href={entry.screenshot.url} target="_blank" rel="noopener">
          <img className="journal-shot" src={entry.screenshot.url} alt={`Chart of the ${entry.instrument} trade of ${entry.tradedOn}`} loading="lazy" />
        </a>
      )}
    </>
  );
}
