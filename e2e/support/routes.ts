// The pages the browser suites walk through, by who opens them, read from the app's route table
// (src/shared/routes.ts): a page added there is picked up by both the accessibility and the
// screen-width checks.
import { routesFor, type AppRoute, type ParamRouteId, type RouteId } from "../../src/shared/routes.ts";

/**
 * The addresses to open for a page whose path has a parameter (the type asks for each), or that
 * needs a (made-up) token to show its form; any other page is opened at its path.
 */
const OPEN_AT: Record<ParamRouteId, readonly string[]> & Partial<Record<RouteId, readonly string[]>> = {
  resetPassword: ["/reset-password?token=x"],
  track: ["/program/beginner", "/program/intermediate"],
  // A lesson's own address is a module id, made when the programs are seeded: one that is not a
  // lesson shows the player with the way on. The browser suites open real lessons from the player.
  lesson: ["/program/beginner/not-a-lesson"],
  // A reference the learner has not paid: the page says there is no such receipt.
  receipt: ["/subscription/receipts/LTF-INTERMEDIATE-1"],
  // A number never issued: the "no such certificate" page. A real one is checked where a learner
  // earns it (e2e/certificates.spec.ts).
  certificate: ["/certificates/TA-0000000000"],
  // Without a token the page says the link is not valid; with one (made up), it shows the button.
  unsubscribe: ["/unsubscribe", "/unsubscribe?token=x"],
  // An id that is no user's: the "no such user" page. A real learner's page is checked where an
  // administrator opens it (e2e/admin-learner.spec.ts).
  adminUser: ["/admin/users/no-such-user"],
};
const addressesOf = ({ id, path }: AppRoute) => OPEN_AT[id] ?? [path];

/** Public pages that look different to a signed-in learner. */
const CHANGED_WHEN_SIGNED_IN: readonly RouteId[] = ["waitlist"];

/** Every page a visitor can open, and an unknown one. */
export const VISITOR_PAGES = [...routesFor("public").flatMap(addressesOf), "/no-such-page"];

/** Every page a signed-in learner on the free plan can open, and the public ones that look different to them. */
export const LEARNER_PAGES = [
  ...routesFor("user").flatMap(addressesOf),
  ...routesFor("public")
    .filter(({ id }) => CHANGED_WHEN_SIGNED_IN.includes(id))
    .flatMap(addressesOf),
];

/** The admin console's tabs, each opened as `/admin?tab={tab}`. */
export const ADMIN_TABS = ["dashboard", "programs", "users", "waitlist", "payments", "audit", "messages", "questions", "mentorship", "announcements", "price-data"];
