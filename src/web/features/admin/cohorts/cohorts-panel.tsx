// The cohorts at the top of the Waitlist tab (docs/admin.md, "Cohorts"): each with its start,
// its tracks and, per track, the paid places, how many are admitted, and "Admit all" with its
// progress while it runs and its result after. New cohort and Edit open a form; the server
// checks every field and its refusal is shown in the form.
import { useId, useState, type FormEvent } from "react";
import { useSearchParams } from "react-router";
import {
  COHORT_MESSAGES,
  formatCohortStart,
  type AdmissionRun,
  type Cohort,
  type CohortTrack,
} from "../../../../shared/contracts/cohorts.ts";
import { PAID_PLANS, PLAN_LABELS, type PaidPlan } from "../../../../shared/plans.ts";
import { FormMessages } from "../../../ui/form-messages.tsx";
import { Modal } from "../../../ui/modal.tsx";
import { Pagination } from "../../../ui/pagination.tsx";
import { TextField } from "../../../ui/text-field.tsx";
import { cohortRefusal, useCohorts, useCreateCohort, useFollowedRun, useStartAdmitAll, useUpdateCohort } from "./cohorts-api.ts";
import "./cohorts.css";

const COHORTS_PAGE_PARAM = "cohortsPage";

type Props = {
  /** The cohort whose places the table below shows ("" for every cohort). */
  shownCohort: string;
  onShowPlaces: (cohort: string) => void;
};

export function CohortsPanel({ shownCohort, onShowPlaces }: Props) {
  const [params, setParams] = useSearchParams();
  const raw = Number(params.get(COHORTS_PAGE_PARAM));
  const page = Number.isSafeInteger(raw) && raw >= 1 ? raw : 1;
  const cohorts = useCohorts(page);
  const [editing, setEditing] = useState<Cohort | "new" | null>(null);
  const headingId = useId();

  function setPage(next: number) {
    setParams((current) => {
      const updated = new URLSearchParams(current);
      if (next > 1) updated.set(COHORTS_PAGE_PARAM, String(next));
      else updated.delete(COHORTS_PAGE_PARAM);
      return updated;
    });
  }

  return (
    <section className="cohorts" aria-labelledby={headingId}>
      <div className="cohorts-head">
        <h2 id={headingId}>Cohorts</h2>
        <button type="button" className="button button-small" onClick={() => setEditing("new")}>
          New cohort
        </button>
      </div>
      {cohorts.isPending ? (
        <p role="status" className="muted">
          Loading the cohorts...
        </p>
      ) : !cohorts.data ? (
        <div role="alert" className="form-error load-error">
          <span>{cohorts.error?.message}</span>
          <button type="button" className="button button-secondary button-small" onClick={() => void cohorts.refetch()}>
            Try again
          </button>
        </div>
      ) : cohorts.data.cohorts.length === 0 ? (
        <p className="muted">No cohorts yet. A cohort is created with its first waitlist payment, or here.</p>
      ) : (
        <>
          <ul className="cohort-list">
            {cohorts.data.cohorts.map((cohort) => (
              <li key={cohort.name}>
                <CohortCard
                  cohort={cohort}
                  placesShown={shownCohort === cohort.name}
                  onEdit={() => setEditing(cohort)}
                  onShowPlaces={() => onShowPlaces(cohort.name)}
                />
              </li>
            ))}
          </ul>
          {cohorts.data.total > cohorts.data.pageSize && (
            <Pagination
              page={cohorts.data.page}
              pageSize={cohorts.data.pageSize}
              total={cohorts.data.total}
              label="Cohorts"
              onPageChange={setPage}
            />
          )}
        </>
      )}
      {editing === "new" && <CohortForm onClose={() => setEditing(null)} />}
      {editing && editing !== "new" && <CohortForm cohort={editing} onClose={() => setEditing(null)} />}
    </section>
  );
}

function trackNames(tracks: readonly PaidPlan[]): string {
  return tracks.map((track) => PLAN_LABELS[track]).join(", ");
}

function CohortCard({ cohort, placesShown, onEdit, onShowPlaces }: { cohort: Cohort; placesShown: boolean; onEdit: () => void; onShowPlaces: () => void }) {
  const headingId = useId();
  return (
    <article className="cohort-card" aria-labelledby={headingId}>
      <div className="cohort-card-head">
        <div>
          <h3 id={headingId}>{cohort.name}</h3>
          <p className="muted cohort-meta">
            Starts {formatCohortStart(cohort.startsOn)} · {trackNames(cohort.tracks)}
          </p>
        </div>
        <div className="cohort-card-actions">
          <button type="button" className="button button-secondary button-small" aria-label={`Edit ${cohort.name}`} onClick={onEdit}>
            Edit
          </button>
          <button
            type="button"
            className="button button-secondary button-small"
            aria-pressed={placesShown}
            aria-label={`Show places of ${cohort.name}`}
            onClick={onShowPlaces}
          >
            Show places
          </button>
        </div>
      </div>
      <div className="cohort-tracks">
        {cohort.byTrack.map((track) => (
          <TrackPanel key={track.track} cohort={cohort} track={track} />
        ))}
      </div>
    </article>
  );
}

function TrackPanel({ cohort, track }: { cohort: Cohort; track: CohortTrack }) {
  const run = useFollowedRun(track.lastRun);
  const start = useStartAdmitAll();
  const [confirming, setConfirming] = useState(false);
  const label = PLAN_LABELS[track.track];
  const waiting = track.paid - track.admitted;
  const running = run?.status === "running";

  return (
    <div className="cohort-track">
      <h4>
        {label}
        {!track.offered && <span className="muted"> (not offered)</span>}
      </h4>
      <p className="cohort-counts">
        {track.paid} paid · {track.admitted} admitted · {waiting} waiting
      </p>
      <button
        type="button"
        className="button button-small"
        disabled={waiting === 0 || running || start.isPending}
        aria-label={`Admit all ${label} learners of ${cohort.name}`}
        onClick={() => {
          start.reset();
          setConfirming(true);
        }}
      >
        Admit all {label}
      </button>
      {/* Present from the start, so that a screen reader hears the progress and the result arrive. */}
      <div className="cohort-run" aria-live="polite">
        {run && <RunStatus run={run} />}
      </div>
      {confirming && (
        <Modal
          title={COHORT_MESSAGES.admitAllTitle(cohort.name, track.track)}
          onClose={() => setConfirming(false)}
          actions={
            <>
              <button type="button" className="button button-secondary" onClick={() => setConfirming(false)} data-autofocus>
                Cancel
              </button>
              <button
                type="button"
                className="button"
                disabled={start.isPending}
                aria-busy={start.isPending || undefined}
                onClick={() =>
                  start.mutate({ cohort: cohort.name, track: track.track }, { onSuccess: () => setConfirming(false) })
                }
              >
                {start.isPending ? "Starting..." : `Admit ${waiting}`}
              </button>
            </>
          }
        >
          <p>{COHORT_MESSAGES.admitAllConfirm(waiting, cohort.name, track.track, cohort.startsOn, new Date())}</p>
          <FormMessages error={start.isError ? cohortRefusal(start.error, COHORT_MESSAGES.admitAllFailed) : undefined} />
        </Modal>
      )}
    </div>
  );
}

/** Progress while the run goes on, and what it did once it ended. */
function RunStatus({ run }: { run: AdmissionRun }) {
  const done = run.admitted + run.failed;
  if (run.status === "running") {
    const text = COHORT_MESSAGES.progress(done, run.total);
    return (
      <>
        <progress className="cohort-progress" max={Math.max(run.total, 1)} value={Math.min(done, run.total)} aria-label={text} />
        <p className="cohort-run-text">{text}</p>
      </>
    );
  }
  const skipped = Math.max(0, run.total - done);
  return (
    <>
      <p className="cohort-run-text cohort-run-result">{COHORT_MESSAGES.result(run.admitted, run.total)}</p>
      {run.status === "failed" && <p className="form-error">{COHORT_MESSAGES.stopped(run.lastError)}</p>}
      {run.status === "done" && run.failed > 0 && <p className="form-error">{COHORT_MESSAGES.failures(run.failed, run.lastError)}</p>}
      {run.status === "done" && skipped > 0 && <p className="muted">{COHORT_MESSAGES.skipped(skipped)}</p>}
    </>
  );
}

/** New cohort (name, start, tracks) or Edit (start, tracks: the name is the cohort's key). */
function CohortForm({ cohort, onClose }: { cohort?: Cohort; onClose: () => void }) {
  const [name, setName] = useState(cohort?.name ?? "");
  const [startsOn, setStartsOn] = useState(cohort?.startsOn ?? "");
  const [tracks, setTracks] = useState<PaidPlan[]>(cohort?.tracks ?? [...PAID_PLANS]);
  const create = useCreateCohort();
  const update = useUpdateCohort(cohort?.name ?? "");
  const saving = cohort ? update : create;
  const formId = useId();

  function submit(event: FormEvent) {
    event.preventDefault();
    if (saving.isPending) return;
    if (cohort) update.mutate({ startsOn, tracks }, { onSuccess: onClose });
    else create.mutate({ name, startsOn, tracks }, { onSuccess: onClose });
  }

  return (
    <Modal
      title={cohort ? `Edit ${cohort.name}` : "New cohort"}
      onClose={onClose}
      actions={
        <>
          <button type="button" className="button button-secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form={formId} className="button" aria-busy={saving.isPending || undefined}>
            {saving.isPending ? "Saving..." : "Save cohort"}
          </button>
        </>
      }
    >
      <form id={formId} className="stack cohort-form" onSubmit={submit} noValidate>
        {!cohort && (
          <TextField
            label="Name"
            hint="The month and year it starts, for example January 2027."
            maxLength={60}
            autoComplete="off"
            value={name}
            onChange={(event) => setName(event.target.value)}
            data-autofocus
          />
        )}
        <TextField
          label="Start date"
          type="date"
          value={startsOn}
          onChange={(event) => setStartsOn(event.target.value)}
          {...(cohort ? { "data-autofocus": true } : {})}
        />
        <fieldset className="cohort-form-tracks">
          <legend>Tracks</legend>
          {PAID_PLANS.map((plan) => (
            <label key={plan} className="checkbox-field">
              <input
                type="checkbox"
                checked={tracks.includes(plan)}
                onChange={(event) =>
                  setTracks((current) => (event.target.checked ? [...current, plan] : current.filter((track) => track !== plan)))
                }
              />
              {PLAN_LABELS[plan]}
            </label>
          ))}
        </fieldset>
        <FormMessages error={saving.isError ? cohortRefusal(saving.error, COHORT_MESSAGES.saveFailed) : undefined} />
      </form>
    </Modal>
  );
}
