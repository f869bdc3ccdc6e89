// The API reads a program's page and a lesson's page need first (docs/performance.md, "Data").
// The server names them in the page's Link header, so that the browser asks for them with the page
// instead of after the app's scripts have run; the app asks for the same addresses, made by `call`
// from the same declarations.
import { addressOf } from "./contracts/endpoint.ts";
import { LEARNING_ENDPOINTS } from "./contracts/learning.ts";
import { routeAt } from "./routes.ts";

/**
 * The step after the last lesson, the completed program with its certificate:
 * `/program/{track}/complete` (a lesson's id is a UUID, so never this word).
 */
export const COMPLETE_STEP = "complete";

/**
 * `/program/{track}` and `/program/{track}/{lessonId}` (their parts decoded, as the router reads
 * them): the track; for a lesson, also where the learner stopped in each video and the lesson's
 * notes. Any other address, or one that is not valid percent-encoding, needs none of these.
 */
export function programPageReads(pathname: string): { track: string; lessonId: string | null; paths: string[] } | null {
  const route = routeAt(pathname)?.id;
  if (route !== "track" && route !== "lesson") return null;
  let parts: string[];
  try {
    parts = pathname.split("/").slice(2).filter(Boolean).map((part) => decodeURIComponent(part));
  } catch {
    return null;
  }
  const [track = "", lessonId = null] = parts;
  const paths = [addressOf(LEARNING_ENDPOINTS.track, { track })];
  if (lessonId !== null && lessonId !== COMPLETE_STEP) {
    paths.push(addressOf(LEARNING_ENDPOINTS.positions, { track }), addressOf(LEARNING_ENDPOINTS.lesson, { track, moduleId: lessonId }));
  }
  return { track, lessonId, paths };
}
