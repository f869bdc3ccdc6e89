// Chart exercise answers made offline (docs/trading.md, "Exercises"): kept in the browser's storage
// under the learner's id and the lesson's, and sent once when the browser is back online. The copy
// goes once the server has answered, whatever it answered; only a network failure keeps it.
import * as z from "zod/mini";
import { exerciseSubmissionSchema } from "../../../shared/contracts/exercises.ts";
import { KEPT_ANSWERS_PREFIX } from "../../../shared/offline.ts";
import { ApiRequestError } from "../../lib/api.ts";

const keptAnswerSchema = z.object({ track: z.string(), moduleId: z.string(), submission: exerciseSubmissionSchema });
export type KeptAnswer = z.infer<typeof keptAnswerSchema>;

/** One learner's answer to one lesson: another learner on the device never sends it. */
export function keptAnswerKey(userId: string, moduleId: string): string {
  return `${KEPT_ANSWERS_PREFIX}${userId}:${moduleId}`;
}

/** Keeps the answer (replacing one kept before); false when the browser refuses to store it. */
export function keepAnswer(storage: Storage, key: string, answer: KeptAnswer): boolean {
  try {
    storage.setItem(key, JSON.stringify(answer));
    return true;
  } catch {
    return false;
  }
}

/** The answer kept under `key`, or null (none, or something that is not one: it is dropped). */
export function readKeptAnswer(storage: Storage, key: string): KeptAnswer | null {
  let text: string | null;
  try {
    text = storage.getItem(key);
  } catch {
    return null;
  }
  if (text === null) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = null;
  }
  const answer = keptAnswerSchema.safeParse(parsed);
  if (answer.success) return answer.data;
  forgetKeptAnswer(storage, key);
  return null;
}

export function forgetKeptAnswer(storage: Storage, key: string): void {
  try {
    storage.removeItem(key);
  } catch {
    // Nothing could be kept there either.
  }
}

export type SendOutcome<T> =
  /** Nothing was kept. */
  | { status: "none" }
  /** Still no network: the answer stays kept. */
  | { status: "offline" }
  /** The server's answer; the kept copy is gone. */
  | { status: "answered"; answer: T }
  /** The server refused it (an attempt that ended, a session that ended); the kept copy is gone. */
  | { status: "refused"; error: unknown };

const sending = new Map<string, Promise<SendOutcome<unknown>>>();

/** The request never reached the server: the answer stays kept. */
export function isNetworkFailure(error: unknown): boolean {
  return error instanceof ApiRequestError && error.code === "NETWORK";
}

/**
 * Sends the answer kept under `key` once: a second call while the first is on its way shares its
 * outcome instead of sending it again, and one after it finds nothing kept.
 */
export function sendKeptAnswer<T>(storage: Storage, key: string, send: (answer: KeptAnswer) => Promise<T>): Promise<SendOutcome<T>> {
  const inFlight = sending.get(key) as Promise<SendOutcome<T>> | undefined;
  if (inFlight) return inFlight;
  const kept = readKeptAnswer(storage, key);
  if (!kept) return Promise.resolve({ status: "none" });
  const outcome = send(kept).then(
    (answer): SendOutcome<T> => {
      forgetKeptAnswer(storage, key);
      return { status: "answered", answer };
    },
    (error: unknown): SendOutcome<T> => {
      if (isNetworkFailure(error)) return { status: "offline" };
      forgetKeptAnswer(storage, key);
      return { status: "refused", error };
    },
  );
  const shared = outcome.finally(() => sending.delete(key));
  sending.set(key, shared);
  return shared;
}
