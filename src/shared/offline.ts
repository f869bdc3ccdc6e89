// What the service worker keeps for a learner offline, shared by the worker and the app
// (docs/decisions/020-offline-with-a-service-worker.md, docs/product.md "Offline").

/**
 * The last answers of the reads below: signed-in data, deleted at sign-out and at sign-in, and each
 * signed-in answer served only to its own user (ANSWER_FOR).
 */
export const API_READS_CACHE = "api-reads";

/** The last index.html seen, which every page of the app is. */
export const APP_SHELL_CACHE = "app-shell";

/** The built files (hashed names) fetched after the app shell: the pages' own code. */
export const SHELL_ASSETS_CACHE = "assets";

/** The app's message to a new worker waiting to take over: the learner pressed Reload. */
export const SKIP_WAITING = "SKIP_WAITING";

/**
 * The header naming whose answer a signed-in read is (the user's id), set by the server on every
 * signed-in GET and on `/api/me` for a user. The worker shows a kept answer only to the user the
 * last `/api/me` named, and deletes every other user's (docs/product.md, "Offline").
 */
export const ANSWER_FOR = "answer-for";

/** The app's message to the worker: an answer said there is no session (a 401). */
export const FORGET_PERSONAL = "FORGET_PERSONAL";

/**
 * The GET reads a page opened before shows again offline: the session and the site's settings
 * (every page), the programs, a program's track, where the learner stopped, a lesson's notes and
 * its chart exercise (the bars shown so far, docs/trading.md "Exercises"), the account's sessions and SMS settings, the prices, the learner's plan, automatic renewal and the payment history. Never sign-in (/api/auth), payments
 * being made, admin or anything else.
 */
const CACHED_API_READS: RegExp[] = [
  /^\/api\/me$/,
  /^\/api\/site$/,
  /^\/api\/programs$/,
  /^\/api\/programs\/[^/]+$/,
  /^\/api\/programs\/[^/]+\/positions$/,
  /^\/api\/programs\/[^/]+\/modules\/[^/]+$/,
  /^\/api\/programs\/[^/]+\/modules\/[^/]+\/exercise$/,
  /^\/api\/progress$/,
  /^\/api\/accounts\/sessions$/,
  /^\/api\/accounts\/sms$/,
  /^\/api\/prices$/,
  /^\/api\/subscription$/,
  /^\/api\/subscription\/auto-renewal$/,
  /^\/api\/payments$/,
];

export function isCachedApiRead(pathname: string): boolean {
  return CACHED_API_READS.some((pattern) => pattern.test(pathname));
}

/**
 * The start of the browser storage keys of chart exercise answers made offline, kept until they
 * are sent (docs/trading.md, "Exercises"); sign-out and sign-in delete them with the reads.
 */
export const KEPT_ANSWERS_PREFIX = "kept-exercise-answer:";
