import { useNavigate } from "react-router";
import type { ProgramSummary } from "../../../shared/contracts/catalog.ts";
import { usePrograms } from "./catalog-api.ts";

export const PENDING_PROGRAM_KEY = "pendingProgram";

/** Where a logged-out visitor goes after choosing a program: log in first, then back to it. */
export function loginRedirectFor(programId: string): string {
  const target = `/program?${new URLSearchParams({ program: programId })}`;
  return `/login?${new URLSearchParams({ redirect: target })}`;
}

function ProgramCard({ program, onChoose }: { program: ProgramSummary; onChoose(id: string): void }) {
  return (
    <li className="card program-card">
      <h3>{program.title}</h3>
      <p className="program-meta">
        <span>{program.duration}</span>
        <span aria-hidden="true"> · </span>
        <span>{program.priceUsd === null ? "Free" : `$${program.priceUsd}/month`}</span>
      </p>
      <ul className="topic-list">
        {program.description.map((topic) => (
          <li key={topic}>{topic}</li>
        ))}
      </ul>
      <button type="button" className="button" onClick={() => onChoose(program.id)}>
        Choose {program.title}
      </button>
    </li>
  );
}

export function ProgramCards() {
  const programs = usePrograms();
  const navigate = useNavigate();

  function choose(programId: string) {
    sessionStorage.setItem(PENDING_PROGRAM_KEY, programId);
    void navigate(loginRedirectFor(programId));
  }

  if (programs.isPending) return <p className="muted">Loading programs...</p>;
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
        <ProgramCard key={program.id} program={program} onChoose={choose} />
      ))}
    </ul>
  );
}
