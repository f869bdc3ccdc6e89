import { Link } from "react-router";

export function NotFoundPage() {
  return (
    <section className="container section narrow">
      <h1>Page not found</h1>
      <p>We could not find the page you asked for. It may have moved, or the address may be mistyped.</p>
      <p>
        <Link to="/" className="button">
          Go to the home page
        </Link>
      </p>
    </section>
  );
}
