// The program cards, on the home page and the program list, with a signed-in learner's progress on
// each program their plan opens (docs/product.md, "Progress"); and the home page's way back into
// the course a learner was studying.
import { useId, type ReactNode } from "react";
import { Link, useNavigate } from "react-router";
import type { ProgramSummary } from "../../../shared/contracts/catalog.ts";
import type { ProgramProgress } from "../../../shared/contracts/learning.ts";
import { PLAN_LABELS } from "../../../shared/plans.ts";
import { useSignedInUser } from "../../session/session.ts";
import { programPath, rememberPendingProgram } from "../../session/redirects.ts";
import { usePrograms } from "./catalog-api.ts";
import { nextStepPath, trackPath } from "./course.ts";
import { useNextStep, useProgress } from "./learning-api.ts";
import "./program-cards.css";

/** Where a logged-out visitor goes after choosing a program: log in first, then back to it. */
export function loginRedirectFor(programId: string): string {
  return `/login?${new URLSearchParams({ redirect: programPath(programId) })}`;
}

/** "Free" or "$N/month", as the program cards show a price. */
function priceLabel(priceUsd: number | null): string {
  return priceUsd === null ? "Free" : `$${priceUsd}/month`;
}

/**
 * What a card offers on a program the learner has begun: to go on where they are, or, once every
 * step is done, to look through it again. Null before the first step, for the card's own action.
 */
export function progressAction(
  programId: string,
  progress: ProgramProgress | undefined,
): { kind: "continue" | "review"; label: string; to: string } | null {
  if (!progress || (progress.percent === 0 && !progress.complete)) return null;
  // Complete stays complete once certified, lessons published since or not (docs/product.md, "Progress").
  if (progress.complete || !progress.next) return { kind: "review", label: "Review", to: trackPath(programId) };
  return { kind: "continue", label: `Continue: ${progress.next.title}`, to: nextStepPath(programId, progress.next) };
}

/** "40% complete", with a bar that says the same. */
export function ProgressMeter({ percent, className }: { percent: number; className?: string }) {
  const labelId = useId();
  return (
    <div className={`progress-meter ${className ?? ""}`.trim()}>
      <span id={labelId} className="progress-meter-label">
        {percent}% complete
      </span>
      <progress aria-labelledby={labelId} value={percent} max={100} />
    </div>
  );
}

/**
 * One program: title, duration, price and topics, with one action, and the learner's progress on
 * it once begun. The home page shows it under an h2 (so the card title is an h3); the program
 * list under its h1.
 */
export function ProgramCard(props: {
  program: ProgramSummary;
  heading?: "h2" | "h3";
  action: string;
  /** The learner's progress, shown once they have begun. */
  progress?: ProgramProgress;
  /** A line under the topics, e.g. why the action leads to the plans. */
  note?: ReactNode;
  onChoose(id: string): void;
}) {
  const { program, progress } = props;
  const Heading = props.heading ?? "h3";
  const titleId = useId();
  // A bare "Start" names the program through its description, so each button can be told apart.
  const describedBy = props.action.includes(program.title) ? undefined : titleId;
  return (
    <li className="card program-card">
      <Heading id={titleId}>{program.title}</Heading>
      <p className="program-meta">
        <span>{program.duration}</span>
        <span aria-hidden="true"> · </span>
        <span>{priceLabel(program.priceUsd)}</span>
      </p>
      <ul className="topic-list">
        {program.description.map((topic) => (
          <li key={topic}>{topic}</li>
        ))}
      </ul>
      {progress && progress.percent > 0 && <ProgressMeter percent={progress.percent} className="program-progress" />}
      {props.note && <p className="program-note">{props.note}</p>}
      <button
        type="button"
        className="button program-action"
        aria-describedby={describedBy}
        onClick={() => props.onChoose(program.id)}
      >
        {props.action}
      </button>
    </li>
  );
}

/** The home page's cards: choose a program, or, signed in, go on with one begun. */
export function ProgramCards() {
  const programs = usePrograms();
  const { user } = useSignedInUser();
  const progress = useProgress({ enabled: Boolean(user) });
  const navigate = useNavigate();
  const progressOf = (programId: string) => (user ? progress.data?.[programId] : undefined);

  function choose(programId: string) {
    if (user) {
      void navigate(progressAction(programId, progressOf(programId))?.to ?? programPath(programId));
      return;
    }
    rememberPendingProgram(programId);
    void navigate(loginRedirectFor(programId));
  }

  if (programs.isPending) return <p className="muted section-loading">Loading programs...</p>;
  if (programs.isError) {
    return (
      <p role="alert" className="form-error">
        Programs could not be loaded. Please refresh the page.
      </p>
    );
  }
  return (
    <ul className="program-grid">
      {programs.data.map((program) => {
        const begun = progressAction(program.id, progressOf(program.id));
        const action = !begun ? `Choose ${program.title}` : begun.kind === "review" ? `Review ${program.title}` : begun.label;
        return (
          <ProgramCard
            key={program.id}
            program={program}
            action={action}
            progress={progressOf(program.id)}
            onChoose={choose}
          />
        );
      })}
    </ul>
  );
}

/**
 * For a signed-in learner, in the home page's hero, the next step the server chose (nextStepOf,
 * docs/product.md, "Home and program list"): after a payment the program just bought, else the
 * program studied last, else the first one the plan opens, with how far they are and where to go
 * on; every program complete, the upgrade that opens the next level, or else the way to the
 * programs. Until the step is read, the way to the programs.
 */
export function ContinueLearning() {
  const { user } = useSignedInUser();
  const programs = usePrograms();
  const progress = useProgress({ enabled: Boolean(user) });
  const step = useNextStep({ enabled: Boolean(user) });
  const toPrograms = (
    <Link to="/program" className="button button-accent">
      Go to My Programs
    </Link>
  );
  const reads = [programs, progress, step];
  if (user && reads.some((read) => read.isPending) && !reads.some((read) => read.isError)) return <PendingNextStepCard />;
  if (!user || !programs.data || !progress.data || !step.data) return <div className="hero-actions">{toPrograms}</div>;
  const next = step.data;
  const program = next.kind === "done" ? undefined : programs.data.find((entry) => entry.id === next.programId);
  if (next.kind === "done" || !program) {
    return (
      <div className="hero-actions">
        <p className="continue-done">Every program your plan opens is complete.</p>
        {toPrograms}
      </div>
    );
  }
  if (next.kind === "upgrade") {
    return (
      <NextStepCard
        heading="Ready for more?"
        program={program.title}
        to="/subscription"
        action={`Upgrade to open the ${program.title}`}
      >
        <p>Every program your plan opens is complete. The {program.title} opens with the {PLAN_LABELS[next.plan]} plan.</p>
      </NextStepCard>
    );
  }
  const entry = progress.data[program.id];
  const lesson = entry?.next;
  const started = next.kind === "continue";
  return (
    <NextStepCard
      heading={started ? "Continue learning" : "Start learning"}
      program={program.title}
      to={lesson ? nextStepPath(program.id, lesson) : trackPath(program.id)}
      action={`${started ? "Continue" : "Start"}: ${lesson?.title ?? program.title}`}
    >
      {entry && <ProgressMeter percent={entry.percent} />}
    </NextStepCard>
  );
}

/**
 * Until the step is read, the card's frame at the size of a usual card, empty: the video under it
 * does not move when the step comes (docs/performance.md, "Layout shifts").
 */
function PendingNextStepCard() {
  return (
    <div className="continue-card continue-card-pending" role="status" aria-label="Loading your next step">
      <div aria-hidden="true">
        <p className="continue-heading">&nbsp;</p>
        <p className="continue-program">&nbsp;</p>
        <ProgressMeter percent={0} />
        <p className="continue-actions">
          <span className="button">&nbsp;</span>
          <span className="continue-all">&nbsp;</span>
        </p>
      </div>
    </div>
  );
}

/** The first card's frame: what it is, the program, a line or a meter, the one action and the way to all programs. */
function NextStepCard(props: { heading: string; program: string; to: string; action: string; children: ReactNode }) {
  const titleId = useId();
  return (
    <section className="continue-card" aria-labelledby={titleId}>
      <h2 id={titleId} className="continue-heading">
        {props.heading}
      </h2>
      <p className="continue-program">{props.program}</p>
      {props.children}
      <p className="continue-actions">
        <Link to={props.to} className="button button-accent">
          {props.action}
        </Link>
        <Link to="/program" className="continue-all">
          All programs
        </Link>
      </p>
    </section>
  );
}
