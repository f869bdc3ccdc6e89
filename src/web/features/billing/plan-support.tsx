// Where the support the plan cards promise is found (docs/product.md, "Questions and mentorship"):
// the community forum under every lesson, email and chat, and 1-on-1 mentorship for Advanced.
import { Link } from "react-router";
import type { Plan } from "../../../shared/plans.ts";

export function PlanSupport({ plan }: { plan: Plan }) {
  return (
    <section className="card plan-support" aria-labelledby="plan-support-title">
      <h2 id="plan-support-title">Support with your plan</h2>
      <ul className="topic-list">
        <li>
          <strong>Community forum:</strong> ask a question under any lesson of your programs. The Academy team and other
          learners answer, and we email you when they do.
        </li>
        <li>
          <strong>Email and chat support:</strong> write to us from the <Link to="/contact">Contact page</Link>, or talk
          to us in the <Link to="/chat">support chat</Link>.
        </li>
        <li>
          <strong>1-on-1 mentorship</strong> (Advanced):{" "}
          {plan === "advanced" ? (
            <Link to="/mentorship">request a session with a mentor</Link>
          ) : (
            <Link to="/mentorship">see how mentorship works</Link>
          )}
          .
        </li>
      </ul>
    </section>
  );
}
