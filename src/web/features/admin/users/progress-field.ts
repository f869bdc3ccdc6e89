// Edit Progress's form state (docs/product.md, "Admin console"): per program, the set of videos
// ticked as watched, and what Save sends. Pure, so the rule is tested without a browser.
import type { ProgressUpdate, UserProgress } from "../../../../shared/contracts/admin.ts";

type TrackProgress = UserProgress["tracks"][number];

/** Per program, the ids of the videos ticked as watched. */
export type WatchedMarks = ReadonlyMap<string, ReadonlySet<string>>;

/** The ticks the form opens with: what is stored now. */
export function initialMarks(tracks: readonly TrackProgress[]): WatchedMarks {
  return new Map(tracks.map(({ track, modules }) => [track, new Set(modules.filter((m) => m.watched).map((m) => m.id))]));
}

/** The marks with one video ticked or not. */
export function withMark(marks: WatchedMarks, track: string, moduleId: string, watched: boolean): WatchedMarks {
  const ids = new Set(marks.get(track));
  if (watched) ids.add(moduleId);
  else ids.delete(moduleId);
  return new Map(marks).set(track, ids);
}

/**
 * What Save sends: each program whose ticks changed, with every one of its videos true or false.
 * A program left as it was is not sent, so nothing is written (or audited) for it.
 */
export function progressUpdate(tracks: readonly TrackProgress[], marks: WatchedMarks): ProgressUpdate {
  const update: ProgressUpdate = {};
  for (const { track, modules } of tracks) {
    const ticked = marks.get(track) ?? new Set<string>();
    if (modules.every((module) => module.watched === ticked.has(module.id))) continue;
    update[track] = Object.fromEntries(modules.map((module) => [module.id, ticked.has(module.id)]));
  }
  return update;
}
