// When a lesson's video counts as watched, and when its playing position is worth saving
// (docs/product.md, "Lesson player").

/** A video played this far (of its duration) counts as watched, as does one played to its end. */
export const WATCHED_FRACTION = 0.9;

/** While a video plays, its position is saved at most this often. */
export const POSITION_SAVE_INTERVAL_MS = 15_000;

/** A video that has not become ready by then is reported as not loading. */
export const PLAYER_READY_TIMEOUT_MS = 12_000;

/** Whether the learner has played the video far enough to count as watched. */
export function isPlayedToEnd(currentSeconds: number, durationSeconds: number): boolean {
  return durationSeconds > 0 && currentSeconds >= durationSeconds * WATCHED_FRACTION;
}

export type SavedPosition = { seconds: number; atMs: number };

/**
 * The whole seconds to save now, or null: nothing when the position has not moved since the last
 * save, and while playing (`urgent` false) no more than once every POSITION_SAVE_INTERVAL_MS; a
 * pause or leaving the lesson (`urgent`) saves whatever moved.
 */
export function positionToSave(currentSeconds: number, last: SavedPosition | null, nowMs: number, urgent: boolean): number | null {
  const seconds = wholeSeconds(currentSeconds);
  if (last && last.seconds === seconds) return null;
  if (!urgent && last && nowMs - last.atMs < POSITION_SAVE_INTERVAL_MS) return null;
  return seconds;
}

/** A position the server accepts: whole seconds, from 0 to a day. */
export function wholeSeconds(seconds: number): number {
  return Number.isFinite(seconds) ? Math.min(Math.max(Math.floor(seconds), 0), 24 * 60 * 60) : 0;
}

/** YouTube's own page for a video: where the learner goes when the player cannot load here. */
export function youtubeWatchUrl(youtubeId: string): string {
  return `https://www.youtube.com/watch?v=${encodeURIComponent(youtubeId)}`;
}

/** Where a video stands, as players write it: "2:05", or "1:02:05" past an hour. */
export function formatVideoTime(seconds: number): string {
  const whole = wholeSeconds(seconds);
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const rest = String(whole % 60).padStart(2, "0");
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, "0")}:${rest}` : `${minutes}:${rest}`;
}

/** From this width the larger thumbnail is worth its bytes. */
export const WIDE_SCREEN = "(min-width: 48rem)";

/**
 * The thumbnail a lesson's picture shows: the smallest with the data saver on (docs/performance.md,
 * "Data"), the small one on a phone, the larger one on a wide screen.
 */
export function thumbnailShown(base: string, youtubeId: string, screen: { savesData: boolean; wide: boolean }): string {
  return youtubeThumbnailUrl(base, youtubeId, screen.savesData ? "default" : screen.wide ? "hqdefault" : "mqdefault");
}

/**
 * A video's thumbnail in one of YouTube's sizes: 120 by 90 ("default"), 320 by 180 ("mqdefault") or
 * 480 by 360 ("hqdefault").
 */
export function youtubeThumbnailUrl(base: string, youtubeId: string, size: "default" | "mqdefault" | "hqdefault"): string {
  return `${base}${encodeURIComponent(youtubeId)}/${size}.jpg`;
}
