// `Authorization: Bearer <token>` checked against a secret the server holds: the operator channel's
// one-time token and METRICS_TOKEN.
import { timingSafeEqual } from "node:crypto";

/** Compared in constant time: how much of a guess was right never shows in the answer's timing. */
function tokenMatches(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function hasBearerToken(authorization: string | undefined, expected: string): boolean {
  const given = authorization?.match(/^Bearer (\S+)$/)?.[1];
  return given !== undefined && tokenMatches(expected, given);
}
