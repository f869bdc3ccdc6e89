// GET /metrics for Prometheus (docs/operations.md, Observability), in every mode: with
// METRICS_TOKEN set, it answers the bearer of that token only; unset, there is no /metrics.
import type { FastifyInstance } from "fastify";
import { collectDefaultMetrics } from "prom-client";
import { hasBearerToken } from "../auth/bearer-token.ts";
import { sendError, sendNoRoute } from "../plugins/errors.ts";
import type { Metrics } from "./metrics.ts";

/**
 * The `route` label: the pattern of an API route; one "static" for every file of the built web
 * app (the static plugin registers a route per file, and each build renames them); "unmatched"
 * when no route answered (unknown addresses, and the web app's pages, served by the 404 handler).
 */
export function routeLabel(routeUrl: string | undefined): string {
  if (routeUrl === undefined) return "unmatched";
  return routeUrl.startsWith("/api/") || routeUrl.startsWith("/dev/") || routeUrl === "/metrics" ? routeUrl : "static";
}

export function registerMetrics(app: FastifyInstance, metrics: Metrics, token: string | null) {
  if (!token) {
    // The API's JSON 404, as for any unknown API address, rather than the web app's 404 page.
    app.get("/metrics", async (request, reply) => sendNoRoute(request, reply));
    return;
  }
  collectDefaultMetrics({ register: metrics.registry });
  // Fastify has timed the request already: one histogram observation per answer, nothing more.
  app.addHook("onResponse", (request, reply, done) => {
    metrics.observeRequest(request.method, routeLabel(request.routeOptions.url), reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  app.get("/metrics", async (request, reply) => {
    if (!hasBearerToken(request.headers.authorization, token)) {
      reply.header("www-authenticate", "Bearer");
      return sendError(reply, 401, "UNAUTHENTICATED", "The metrics token is required.");
    }
    const text = await metrics.registry.metrics();
    return reply.header("cache-control", "no-store").type(metrics.registry.contentType).send(text);
  });
}
