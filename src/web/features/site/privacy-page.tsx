import { Link } from "react-router";

export function PrivacyPage() {
  return (
    <article className="container section prose">
      <h1>Privacy Policy</h1>
      <p className="muted">Last updated: August 12, 2025</p>
      <p>
        This policy explains what personal data Trading Academy collects, why, and the choices you
        have. We follow Ghana&apos;s Data Protection Act, 2012 (Act 843).
      </p>
      <h2>What we collect</h2>
      <ul>
        <li>Account details: your name, email address and how you sign in (email, Google or MQL5).</li>
        <li>Learning data: the videos you have watched and your quiz answers.</li>
        <li>
          Payment records: the plan, amount, currency, reference and date of each payment. Card and
          mobile-money details go directly to Paystack; we never receive them.
        </li>
        <li>Messages you send us through the contact form or the support chat.</li>
      </ul>
      <h2>Why we use it</h2>
      <p>
        To run your account, save your progress, give you the access you paid for, send receipts and
        reminders, answer your questions, and keep the service secure.
      </p>
      <h2>Cookies</h2>
      <p>
        We use one essential cookie to keep you signed in. We do not use advertising cookies. Embedded
        videos are served from YouTube&apos;s privacy-enhanced domain.
      </p>
      <h2>Who else processes it</h2>
      <p>
        Paystack (payments), our email provider (account and receipt emails), YouTube (lesson videos),
        our support chat provider, and Google or MQL5 if you sign in with them. Each receives only what
        it needs. We never sell your data.
      </p>
      <h2>How long we keep it</h2>
      <p>
        Account and learning data are kept while your account is open. Payment records are kept as
        long as tax law requires.
      </p>
      <h2>Your rights</h2>
      <p>
        You may ask to see, correct or delete your data, or object to how we use it, by writing to us
        through the <Link to="/contact">contact page</Link>.
      </p>
    </article>
  );
}
