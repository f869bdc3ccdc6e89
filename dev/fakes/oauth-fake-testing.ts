// For the stand-ins' own tests: one provider on a Fastify app of its own, on a clock the test
// moves, and form bodies whose cases can leave a parameter out.
import Fastify, { type FastifyInstance, type FastifyPluginAsync } from "fastify";
import type { FakeProviderOptions } from "./oauth-fake-kit.ts";

/** Where each test's clock starts: 2026-01-15 12:00 UTC. */
export const CLOCK_START = Date.UTC(2026, 0, 15, 12);

export const FORM_HEADERS = { "content-type": "application/x-www-form-urlencoded" };

export type Fields = Record<string, string | undefined>;

/** Drops the fields a test set to undefined, so a case can leave a parameter out. */
export function compact(fields: Fields): Record<string, string> {
  return Object.fromEntries(Object.entries(fields).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

/** The provider under `prefix`, ready for `app.inject`. */
export async function startFakeProvider(
  provider: FastifyPluginAsync<FakeProviderOptions>,
  prefix: string,
  now: () => number,
): Promise<FastifyInstance> {
  const app = Fastify();
  await app.register(provider, { prefix, now });
  await app.ready();
  return app;
}
