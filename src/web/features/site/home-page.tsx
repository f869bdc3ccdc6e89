import { Link, Navigate, useSearchParams } from "react-router";
import { useSignedInUser } from "../../session/session.ts";
import { safeRedirectPath } from "../../session/redirects.ts";
import { ContinueLearning, ProgramCards } from "../learning/program-cards.seam.ts";
import { HeroVideo } from "./hero-video.tsx";

export function HomePage() {
  const [searchParams] = useSearchParams();
  const { user } = useSignedInUser();
  // A signed-in visitor sent here with somewhere to go (e.g. back from Google) goes there.
  const redirect = safeRedirectPath(searchParams.get("redirect"));
  if (user && redirect) return <Navigate to={redirect} replace />;

  return (
    <>
      <section className="hero">
        <div className="container hero-inner">
          <div className="hero-copy">
            <p className="eyebrow">Online trading education for West Africa</p>
            <h1>Learn to trade with a plan, not a guess.</h1>
            <p className="lead">
              Three 4-week programs of short videos and quizzes take you from your first candlestick
              chart to professional strategies. Start free with the Beginner program; pay monthly in
              cedis, by card or mobile money, when you are ready for more.
            </p>
            {user ? (
              <ContinueLearning />
            ) : (
              <div className="hero-actions">
                <Link to="/register" className="button button-accent">
                  Start free
                </Link>
                <Link to="/about" className="button button-ghost">
                  How it works
                </Link>
              </div>
            )}
          </div>
          <HeroVideo />
        </div>
      </section>
      <section className="container section" aria-labelledby="programs-heading">
        <h2 id="programs-heading">Our programs</h2>
        <p className="section-lead">Each program runs for 4 weeks. Choose where you start.</p>
        <ProgramCards />
      </section>
    </>
  );
}
