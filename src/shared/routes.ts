// The app's pages and who may open them (docs/product.md, "Routes and guards"). This is the one
// list: the browser's router builds its routes and guards from it, the server answers 404 for any
// page not in it, and the browser suites walk it, so a page added here is picked up by all three.

export const ROUTE_ACCESS = ["public", "user", "admin"] as const;

/**
 * Who may open a page: anyone ("public"), a signed-in user whose email is verified ("user"), or
 * such a user on the admin plan ("admin"). Login and registration are "public": a signed-in
 * visitor may still open them.
 */
export type RouteAccess = (typeof ROUTE_ACCESS)[number];

type RouteSpec = { readonly id: string; readonly path: `/${string}`; readonly access: RouteAccess };

export const ROUTES = [
  { id: "home", path: "/", access: "public" },
  { id: "about", path: "/about", access: "public" },
  { id: "contact", path: "/contact", access: "public" },
  { id: "terms", path: "/terms", access: "public" },
  { id: "privacy", path: "/privacy", access: "public" },
  { id: "chat", path: "/chat", access: "public" },
  { id: "login", path: "/login", access: "public" },
  { id: "register", path: "/register", access: "public" },
  { id: "forgotPassword", path: "/forgot-password", access: "public" },
  { id: "resetPassword", path: "/reset-password", access: "public" },
  { id: "verifyEmail", path: "/verify-email", access: "public" },
  { id: "programList", path: "/program", access: "user" },
  { id: "track", path: "/program/:track", access: "user" },
  { id: "subscription", path: "/subscription", access: "user" },
  // The receipt of one of the learner's own paid payments (the server answers only the owner).
  { id: "receipt", path: "/subscription/receipts/:reference", access: "user" },
  // Public to view; paying asks for a login on the page itself (docs/product.md).
  { id: "waitlist", path: "/join-waitlist", access: "public" },
  { id: "waitlistSuccess", path: "/join-waitlist/success", access: "public" },
  { id: "admin", path: "/admin", access: "admin" },
] as const satisfies readonly RouteSpec[];

export type AppRoute = (typeof ROUTES)[number];
export type RouteId = AppRoute["id"];

/** The ids of the routes whose path has a parameter, such as `/program/:track`. */
export type ParamRouteId = Extract<AppRoute, { path: `${string}:${string}` }>["id"];

/** The routes with the given access, in table order. */
export function routesFor(access: RouteAccess): AppRoute[] {
  return ROUTES.filter((route) => route.access === access);
}

const patterns = ROUTES.map(({ path }) => new RegExp(`^${path.replace(/:[a-z]+/g, "[^/]+")}/?$`));

export function isClientRoute(pathname: string): boolean {
  return patterns.some((pattern) => pattern.test(pathname));
}
