// After a verified waitlist payment (/join-waitlist/success; docs/product.md, "Waitlist page").
// Public: it only confirms; the place itself is read from the server on /join-waitlist.
import { Link } from "react-router";
import { usePrices } from "./billing-api.ts";

export function WaitlistSuccessPage() {
  const cohortName = usePrices().data?.cohort.name;
  return (
    <section className="container section narrow">
      <h1>You're on the waitlist!</h1>
      <div className="card stack">
        <p className="form-success">Thank you: your payment was received.</p>
        <p>
          You are now on the waitlist for the Intermediate and Advanced tracks for the next cohort
          {cohortName ? ` (${cohortName})` : ""}. A receipt is on its way to your email.
        </p>
        <p className="page-actions">
          <Link to="/" className="button">
            Back to Home
          </Link>
        </p>
      </div>
    </section>
  );
}
