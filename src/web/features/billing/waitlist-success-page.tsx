// After a verified waitlist payment (/join-waitlist/success?reference=...; docs/product.md,
// "Waitlist page"). It names what was bought as the server's record of that payment says (its
// receipt: the track and the cohort), never from the address: without a payment of the learner's
// own to read, it names no track.
import { Link, useSearchParams } from "react-router";
import { PLAN_LABELS } from "../../../shared/plans.ts";
import { useReceipt } from "./billing-api.ts";

export function WaitlistSuccessPage() {
  const reference = useSearchParams()[0].get("reference") ?? "";
  const receipt = useReceipt(reference, reference !== "");
  const bought = reference && receipt.data?.kind === "waitlist" ? receipt.data : null;
  return (
    <section className="container section narrow">
      <h1>You're on the waitlist!</h1>
      <div className="card stack">
        <p className="form-success">Thank you: your payment was received.</p>
        {receipt.isPending && reference ? (
          <p aria-busy="true">Loading your place...</p>
        ) : (
          <p>
            {bought
              ? `You are now on the waitlist for the ${PLAN_LABELS[bought.plan]} track of the ${bought.cohort ?? "next"} cohort.`
              : "You are now on the waitlist for the next cohort."}{" "}
            A receipt is on its way to your email.
          </p>
        )}
        <p className="page-actions">
          <Link to="/" className="button">
            Back to Home
          </Link>
        </p>
      </div>
    </section>
  );
}
