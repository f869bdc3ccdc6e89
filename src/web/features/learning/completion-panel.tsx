// The moment a program is complete (docs/product.md, "Completion and certificates"): it says so, links
// to the certificate, and offers the next program, or the upgrade that opens it.
import { Link } from "react-router";
import type { TrackDetail } from "../../../shared/contracts/learning.ts";
import { useSignedInUser } from "../../session/session.ts";
import { usePrograms } from "./catalog-api.ts";
import "./completion-panel.css";

/** Shown once the program is complete; nothing before. */
export function CompletionPanel({ detail }: { detail: Pick<TrackDetail, "program" | "completion" | "quiz"> }) {
  const { program, completion } = detail;
  if (!completion.complete) return null;
  return (
    <section className="card completion-panel" aria-labelledby="completion-title">
      <svg className="completion-medal" aria-hidden="true" viewBox="0 0 48 48" width="56" height="56">
        <path d="M16 2h6l4 12h-8zM26 2h6l-2 12h-6z" fill="var(--navy)" />
        <circle cx="24" cy="30" r="15" fill="var(--gold)" />
        <path d="M17 30.5l4.5 4.5L31 25.5" fill="none" stroke="var(--navy)" strokeWidth="3" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      <div className="completion-body">
        <h2 id="completion-title">Program complete!</h2>
        <p>
          Congratulations: you watched every lesson{detail.quiz ? " and passed the quiz" : ""} of the {program.title}.
        </p>
        {completion.certificateId ? (
          <p className="completion-certificate">
            <Link to={`/certificates/${completion.certificateId}`} className="button">
              View your certificate
            </Link>
            <span className="muted">Certificate number {completion.certificateId}</span>
          </p>
        ) : (
          <p>
            Your certificate for this program is not available. <Link to="/contact">Contact us</Link> if you think this is
            a mistake.
          </p>
        )}
        <NextProgram programId={program.id} />
      </div>
    </section>
  );
}

/** The program after this one in the catalogue's order, open to the learner or sold by an upgrade. */
function NextProgram({ programId }: { programId: string }) {
  const { user } = useSignedInUser();
  const programs = usePrograms();
  if (!programs.data) return null;
  const at = programs.data.findIndex((program) => program.id === programId);
  if (at === -1) return null; // archived: out of the catalogue, so it has no place in its order
  const next = programs.data[at + 1];
  if (!next) return <p>You have completed the last program of the academy. Well done.</p>;
  const { title } = next;
  if (user?.tracks.includes(next.level)) {
    return (
      <p className="completion-next">
        Ready for more? <Link to={`/program/${next.id}`}>Start the {title}</Link>
      </p>
    );
  }
  return (
    <p className="completion-next">
      Ready for more? The {title} is part of a paid plan. <Link to="/subscription">Upgrade to open the {title}</Link>
    </p>
  );
}
