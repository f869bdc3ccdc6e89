// The browser's routes, known to the server too so that an unknown page answers 404.

export const CLIENT_ROUTES = [
  "/",
  "/about",
  "/contact",
  "/terms",
  "/privacy",
  "/chat",
  "/login",
  "/register",
  "/forgot-password",
  "/reset-password",
  "/verify-email",
  "/program",
  "/program/:track",
  "/subscription",
  "/join-waitlist",
  "/join-waitlist/success",
  "/admin",
] as const;

const patterns = CLIENT_ROUTES.map(
  (route) => new RegExp(`^${route.replace(/:[a-z]+/g, "[^/]+")}/?$`),
);

export function isClientRoute(pathname: string): boolean {
  return patterns.some((pattern) => pattern.test(pathname));
}
