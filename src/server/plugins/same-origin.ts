// Cross-site requests (docs/product.md, "Roles"): a page on another origin, a sibling port or subdomain included,
// can make a signed-in browser send a POST without a body, which no content-type rule stops. So
// every state-changing request must say it comes from the site itself: an `Origin` equal to
// APP_URL's (scheme, host and port), or the browser's own `Sec-Fetch-Site: same-origin`. Routes
// with an authentication of their own (the Paystack webhook's signature, the operator's token)
// are left to it. The auth library checks the origin of its requests too, against the same
// APP_URL (its trustedOrigins); this check is the one every route meets first.
import type { FastifyInstance, FastifyRequest } from "fastify";
import { sendError } from "./errors.ts";

export const CROSS_SITE_MESSAGE = "This request did not come from this site. Reload the page and try again.";

/** Methods that change nothing: never checked (an OAuth provider's callback is a GET). */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export type SameOriginOptions = {
  appUrl: string;
  /**
   * Route patterns answered whatever the origin, each with an authentication of its own. An entry
   * ending in "/" covers every route under it.
   */
  exempt: readonly string[];
  /**
   * Route patterns also called from server to server (no Origin, no Sec-Fetch-Site: not a
   * browser). A browser's request to them must still come from the site.
   */
  serverToServer: readonly string[];
};

function matches(patterns: readonly string[], url: string | undefined): boolean {
  if (url === undefined) return false;
  return patterns.some((pattern) => (pattern.endsWith("/") ? url.startsWith(pattern) : url === pattern));
}

/** Whether a request says it comes from the site at `appOrigin`. */
export function fromTheSite(headers: FastifyRequest["headers"], appOrigin: string): boolean {
  return headers.origin === appOrigin || headers["sec-fetch-site"] === "same-origin";
}

/**
 * Whether a browser says another site made this request (docs/product.md, "When a request counts
 * against a limit"): it did not come from the site, and it is marked `Sec-Fetch-Site: cross-site`
 * or `same-site` (a sibling is another site), or carries another Origin (`null` included). Such a
 * request counts against no per-address limit, whatever its method: a page on any site can make
 * every browser behind one address send it. A request marked `none` (typed, a bookmark) or not
 * marked at all (no browser) is counted.
 */
export function fromAnotherSite(headers: FastifyRequest["headers"], appOrigin: string): boolean {
  if (fromTheSite(headers, appOrigin)) return false;
  const site = headers["sec-fetch-site"];
  return site === "cross-site" || site === "same-site" || headers.origin !== undefined;
}

/** Whether nothing in the request says a browser sent it. */
function fromAServer(headers: FastifyRequest["headers"]): boolean {
  return headers.origin === undefined && headers["sec-fetch-site"] === undefined;
}

/**
 * Registers the check on every route, the auth library's and the 404 included. It runs once the
 * body is parsed, so that a cross-site form post is still refused 415 as before: a handler never
 * runs for a request from another site, whatever its body.
 */
export function registerSameOriginCheck(app: FastifyInstance, options: SameOriginOptions) {
  const appOrigin = new URL(options.appUrl).origin;
  app.addHook("preValidation", async (request, reply) => {
    if (SAFE_METHODS.has(request.method)) return;
    const route = request.routeOptions.url;
    if (matches(options.exempt, route)) return;
    if (fromTheSite(request.headers, appOrigin)) return;
    if (matches(options.serverToServer, route) && fromAServer(request.headers)) return;
    request.log.warn(
      { origin: request.headers.origin ?? null, secFetchSite: request.headers["sec-fetch-site"] ?? null },
      "cross-site request refused",
    );
    return sendError(reply, 403, "CROSS_SITE_REQUEST", CROSS_SITE_MESSAGE);
  });
}
