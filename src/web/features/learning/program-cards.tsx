import { useId, type ReactNode } from "react";
import { useNavigate } from "react-router";
import type { ProgramSummary } from "../../../shared/contracts/catalog.ts";
import { useSignedInUser } from "../../session/session.ts";
import { programPath, rememberPendingProgram } from "../../session/redirects.ts";
import { usePrograms } from "./catalog-api.ts";

/** Where a logged-out visitor goes after choosing a program: log in first, then back to it. */
export function loginRedirectFor(programId: string): string {
  return `/login?${new URLSearchParams({ redirect: programPath(programId) })}`;
}

/** "Free" or "$N/month", as the program cards show a price. */
function priceLabel(priceUsd: number | null): string {
  return priceUsd === null ? "Free" : `$${priceUsd}/month`;
}

/**
 * One program: title, duration, price and topics, with one action. The home page shows it under
 * an h2 (so the card title is an h3); the program list under its h1.
 */
export function ProgramCard(props: {
  program: ProgramSummary;
  heading?: "h2" | "h3";
  action: string;
  /** A line under the topics, e.g. why the action leads to the plans. */
  note?: ReactNode;
  onChoose(id: string): void;
}) {
  const { program } = props;
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
      {props.note && <p className="program-note">{props.note}</p>}
      <button
        type="button"
        className="button"
        aria-describedby={describedBy}
        onClick={() => props.onChoose(program.id)}
      >
        {props.action}
      </button>
    </li>
  );
}

export function ProgramCards() {
  const programs = usePrograms();
  const { user } = useSignedInUser();
  const navigate = useNavigate();

  function choose(programId: string) {
    if (user) {
      void navigate(programPath(programId));
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
      {programs.data.map((program) => (
        <ProgramCard key={program.id} program={program} action={`Choose ${program.title}`} onChoose={choose} />
      ))}
    </ul>
  );
}
