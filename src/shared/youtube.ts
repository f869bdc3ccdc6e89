// YouTube video ids. Administrators paste either the id or the video's link; only the id is
// stored, because the learner's player builds its own embed address from it. Pure: used by the
// admin form in the browser and by the server that stores the module.

const VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;

const WATCH_HOSTS = new Set(["youtube.com", "www.youtube.com", "m.youtube.com"]);
const SHORT_HOSTS = new Set(["youtu.be"]);
const NOCOOKIE_HOSTS = new Set(["youtube-nocookie.com", "www.youtube-nocookie.com"]);

/** The id of a path like /embed/{id} or /{id}: exactly those segments, a trailing slash allowed. */
function idAfter(pathname: string, prefix: string | null): string | null {
  const segments = pathname.split("/").filter((segment) => segment !== "");
  if (prefix === null) return segments.length === 1 ? (segments[0] ?? null) : null;
  return segments.length === 2 && segments[0] === prefix ? (segments[1] ?? null) : null;
}

function idInLink(url: URL): string | null {
  const host = url.hostname;
  if (SHORT_HOSTS.has(host)) return idAfter(url.pathname, null);
  if (NOCOOKIE_HOSTS.has(host)) return idAfter(url.pathname, "embed");
  if (!WATCH_HOSTS.has(host)) return null;
  if (url.pathname.replace(/\/$/, "") === "/watch") return url.searchParams.get("v");
  return idAfter(url.pathname, "embed") ?? idAfter(url.pathname, "shorts");
}

/**
 * The 11-character video id in `input`: a bare id, or a youtube.com/watch?v=, youtu.be/,
 * youtube.com/embed/, youtube.com/shorts/ or youtube-nocookie.com/embed/ link (with or without
 * https://). Anything else is null.
 */
export function youtubeVideoId(input: string): string | null {
  const text = input.trim();
  if (VIDEO_ID.test(text)) return text;
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`);
  } catch {
    return null;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  const id = idInLink(url);
  return id !== null && VIDEO_ID.test(id) ? id : null;
}
