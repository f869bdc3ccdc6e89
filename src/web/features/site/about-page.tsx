import { Link } from "react-router";

export function AboutPage() {
  return (
    <article className="container section prose">
      <h1>About Trading Academy</h1>
      <p className="lead">
        Trading Academy teaches people across West Africa to trade the financial markets with
        structure, discipline and honest risk management.
      </p>
      <h2>Why we started</h2>
      <p>
        Too many new traders learn from social-media tips and lose money they cannot afford to lose.
        We built a place where a beginner can learn the basics for free, practise on a demo account,
        and move on to deeper material only when they are ready.
      </p>
      <h2>How the programs work</h2>
      <ul>
        <li>
          <strong>Beginner</strong> (free): how markets work, reading candlestick charts, support
          and resistance, and your first trade on a demo account.
        </li>
        <li>
          <strong>Intermediate</strong>: chart patterns, risk management, trading psychology and
          market structure.
        </li>
        <li>
          <strong>Advanced</strong>: professional strategies, algorithmic trading basics, portfolio
          management and one-on-one mentorship.
        </li>
      </ul>
      <p>
        Each program lasts 4 weeks and is made of short videos, each followed by a quiz so you can
        check what you learned. Your progress is saved as you go.
      </p>
      <h2>Paying in cedis</h2>
      <p>
        Prices are set in US dollars and charged in Ghana cedis at the day&apos;s exchange rate,
        by card or mobile money (MTN, Telecel and AirtelTigo) through Paystack. Plans are paid
        month by month: nothing renews without you.
      </p>
      <h2>Cohorts</h2>
      <p>
        New cohorts start every quarter. You can reserve a place in the next one from the{" "}
        <Link to="/join-waitlist">waitlist</Link>.
      </p>
      <h2>A word on risk</h2>
      <p>
        Trading carries a real risk of loss. Our lessons are education, not financial advice, and no
        course can promise profits.
      </p>
      <p>
        Questions? <Link to="/contact">Contact us</Link>.
      </p>
    </article>
  );
}
