// Password hashing (scrypt, the auth library's own) a few at a time. Each hash keeps a core busy
// for tens of milliseconds on libuv's thread pool; a burst of sign-ins hashed all at once would
// take every core from the requests of learners already signed in, and the pool's threads from
// file reads. Queued here, a burst makes sign-ins wait instead of making the whole site wait.
import { availableParallelism } from "node:os";
import { hashPassword, verifyPassword } from "better-auth/crypto";
import pLimit from "p-limit";

/** One core is left for everything else (at least one hash at a time). */
export const CONCURRENT_HASHES = Math.max(1, availableParallelism() - 1);

type Hashing = {
  hash: (password: string) => Promise<string>;
  verify: (data: { hash: string; password: string }) => Promise<boolean>;
};

export function createPasswordHashing(
  concurrency = CONCURRENT_HASHES,
  scrypt: Hashing = { hash: hashPassword, verify: verifyPassword },
): Hashing {
  const limit = pLimit(concurrency);
  return {
    hash: (password) => limit(() => scrypt.hash(password)),
    verify: (data) => limit(() => scrypt.verify(data)),
  };
}
