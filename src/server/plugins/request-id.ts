// A request id on every request (docs/operations.md, Observability): a proxy's or a client's
// X-Request-Id is kept when it is sane, so one id follows a request through every hop; anything
// else is replaced, never echoed (a header or a log line must not carry what a caller wrote).
import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { assetSecurityHeaders } from "./security.ts";

export const REQUEST_ID_HEADER = "x-request-id";

/** What a load balancer or tracing header puts there (UUIDs, hex, "trace:span"), bounded. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** Fastify's `genReqId`: the caller's id when sane, else a fresh one. */
export function requestIdFor(request: IncomingMessage): string {
  const given = request.headers[REQUEST_ID_HEADER];
  return typeof given === "string" && SANE_REQUEST_ID.test(given) ? given : randomUUID();
}

export type SetAnswerHeaders = (request: FastifyRequest, reply: FastifyReply) => void;

/** Where the built scripts and stylesheets are served (with fewer headers, security.ts). */
const ASSETS_PATH = "/assets/";

/**
 * The other built files that are not pages: the service worker's script, the icons (and the
 * favicon every first visit asks for), docs/decisions/020-offline-with-a-service-worker.md.
 */
const BUILT_FILES = new Set(["/service-worker.js", "/favicon.svg"]);
const ICONS_PATH = "/icons/";

function isBuiltFile(url: string): boolean {
  return url.startsWith(ASSETS_PATH) || url.startsWith(ICONS_PATH) || BUILT_FILES.has(url);
}

declare module "fastify" {
  interface FastifyContextConfig {
    /**
     * The route answers JSON only, its errors included (every route declared with `route()`,
     * endpoints.ts): never a page, so it carries only the headers a file needs.
     */
    answersJson?: true;
  }
}

/**
 * What every answer carries, 404s, 429s and errors included: its request id and the security
 * headers (security.ts), computed once; a built file or a JSON answer, which is never a page, only
 * those it needs (docs/performance.md, "Data").
 */
export function answerHeaders(securityHeaders: Record<string, string>): SetAnswerHeaders {
  const notForPages = assetSecurityHeaders(securityHeaders);
  return (request, reply) => {
    const notAPage = isBuiltFile(request.url) || request.routeOptions.config?.answersJson === true;
    reply.headers(notAPage ? notForPages : securityHeaders).header(REQUEST_ID_HEADER, request.id);
  };
}

/**
 * Sets them first on every request that reaches a route, in one hook rather than two
 * (docs/performance.md, "Profiled with perf"); frameworkErrorAnswer (errors.ts) sets them on the
 * requests Fastify refuses before any hook.
 */
export function registerAnswerHeaders(app: FastifyInstance, setAnswerHeaders: SetAnswerHeaders) {
  app.addHook("onRequest", (request, reply, done) => {
    setAnswerHeaders(request, reply);
    done();
  });
}
