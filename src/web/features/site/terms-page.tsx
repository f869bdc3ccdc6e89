import { Link } from "react-router";

export function TermsPage() {
  return (
    <article className="container section prose">
      <h1>Terms of Service</h1>
      <p className="muted">Last updated: June 2025</p>
      <p>
        These terms govern your use of Trading Academy, its website and its programs. By creating an
        account you agree to them.
      </p>
      <h2>1. Your account</h2>
      <p>
        You must give a valid email address and keep your password private. You are responsible for
        what happens under your account. One account is for one person; sharing it may lead to its
        suspension.
      </p>
      <h2>2. Programs and access</h2>
      <p>
        The Beginner program is free. The Intermediate and Advanced programs need an active paid
        plan. We may update lessons and quizzes to keep them accurate.
      </p>
      <h2>3. Payments</h2>
      <p>
        Prices are quoted in US dollars and charged in Ghana cedis at the exchange rate shown before
        you pay. Payments are processed by Paystack; we never see or store your card or mobile-money
        PIN. A plan gives access for one month from the day it starts and does not renew by itself.
      </p>
      <h2>4. Refunds</h2>
      <p>
        If you were charged in error or could not access what you paid for, contact us within 7 days
        of the payment and we will put it right or refund you.
      </p>
      <h2>5. The waitlist</h2>
      <p>
        Paying to join the waitlist reserves your place in the next quarterly cohort and pays for its
        first month. If we cannot admit you to that cohort, we refund you.
      </p>
      <h2>6. No financial advice</h2>
      <p>
        Our content is education only. It is not investment advice, and past results do not promise
        future ones. Trade only with money you can afford to lose.
      </p>
      <h2>7. Acceptable use</h2>
      <p>
        Do not copy, resell or publish our videos and quizzes, try to break into the service, or
        misuse the support chat and contact form.
      </p>
      <h2>8. Changes and law</h2>
      <p>
        We may change these terms and will tell registered users of important changes by email.
        These terms are governed by the laws of the Republic of Ghana.
      </p>
      <p>
        Questions about these terms? <Link to="/contact">Contact us</Link>.
      </p>
    </article>
  );
}
