// Password hashing (scrypt, the auth library's own) a few at a time. Each hash keeps a core busy
// for tens of milliseconds on libuv's thread pool; a burst of sign-ins hashed all at once would
// take every core from the requests of learners already signed in, and the pool's threads from
// file reads. Queued here, a burst makes sign-ins wait instead of making the whole site wait.
import { AsyncLocalStorage } from "node:async_hooks";
import { availableParallelism } from "node:os";
import { hashPassword, verifyPassword } from "better-auth/crypto";
import pLimit from "p-limit";

/** One core is left for everything else (at least one hash at a time). */
export const CONCURRENT_HASHES = Math.max(1, availableParallelism() - 1);

export type Hashing = {
  hash: (password: string) => Promise<string>;
  verify: (data: { hash: string; password: string }) => Promise<boolean>;
};

/** A password hashed before the auth library's call that would hash it (withPasswordHashedAhead). */
const hashedAhead = new AsyncLocalStorage<{ password: string; hash: string }>();

export function createPasswordHashing(
  concurrency = CONCURRENT_HASHES,
  scrypt: Hashing = { hash: hashPassword, verify: verifyPassword },
): Hashing {
  const limit = pLimit(concurrency);
  return {
    hash: (password) => {
      const ahead = hashedAhead.getStore();
      if (ahead?.password === password) return Promise.resolve(ahead.hash);
      return limit(() => scrypt.hash(password));
    },
    verify: (data) => limit(() => scrypt.verify(data)),
  };
}

/**
 * Runs `call` (a sign-up) with `password` hashed first. The auth library hashes a new account's
 * password inside the database transaction it opens for the sign-up, so each sign-up of a burst
 * (a room registering at once) would hold a pooled connection while it waits in the queue above,
 * and the last would give up waiting for a connection. Hashed before, outside any transaction,
 * the library's own hashing inside `call` takes the result at once.
 */
export async function withPasswordHashedAhead<T>(
  hash: (password: string) => Promise<string>,
  password: string,
  call: () => Promise<T>,
): Promise<T> {
  const hashed = await hash(password);
  return hashedAhead.run({ password, hash: hashed }, call);
}
