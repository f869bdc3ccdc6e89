// The auth library speaks Fetch: a Fastify request's headers become a Fetch Headers, with the
// client address Fastify trusts. Used by the /api/auth mount, the session read and the account
// routes that call the library themselves.
import type { FastifyRequest } from "fastify";

/** The header the app sets to the client address Fastify computed; a client's own value is dropped. */
export const CLIENT_IP_HEADER = "x-client-ip";

export function toWebHeaders(request: FastifyRequest): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || name === CLIENT_IP_HEADER) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  headers.set(CLIENT_IP_HEADER, request.ip);
  return headers;
}
