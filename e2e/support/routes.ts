// The pages the browser suites walk through, by who opens them. A page added to the app's routes
// (src/shared/routes.ts) is picked up by both the accessibility and the screen-width checks.
import { CLIENT_ROUTES } from "../../src/shared/routes.ts";

/** Pages that need a session: the rest of the app's routes are open to a visitor. */
const SIGNED_IN_ROUTES: readonly string[] = ["/program", "/program/:track", "/subscription", "/admin"];
/** Where a page needs a (made-up) token to show its form. */
const WITH_QUERY: Readonly<Record<string, string>> = { "/reset-password": "/reset-password?token=x" };

/** Every page a visitor can open, read from the app's own route list, and an unknown one. */
export const VISITOR_PAGES = [
  ...CLIENT_ROUTES.filter((route) => !SIGNED_IN_ROUTES.includes(route)).map((route) => WITH_QUERY[route] ?? route),
  "/no-such-page",
];

/** Every page a signed-in learner on the free plan can open; the waitlist page looks different signed in. */
export const LEARNER_PAGES = ["/program", "/program/beginner", "/program/intermediate", "/subscription", "/join-waitlist"];

/** The admin console's tabs, each opened as `/admin?tab={tab}`. */
export const ADMIN_TABS = ["programs", "users", "waitlist", "payments", "audit", "messages"];
