// A lesson's video (docs/product.md, "Lesson player"): the video's thumbnail and a play button
// until the learner plays it, and only then YouTube's IFrame Player API (docs/performance.md,
// "Data"). It starts where the learner stopped, saves where they are as it plays, marks the lesson
// watched once played to (near) its end, and when it cannot load says so in words, with a link to
// YouTube.
import { useEffect, useEffectEvent, useRef, useState, useSyncExternalStore } from "react";
import { lessonTitle } from "../../../shared/learning.ts";
import { useDataSaver } from "../../lib/data-saver.ts";
import { useSiteConfig } from "../../lib/site-config.ts";
import { useLessonPositions, useSaveLessonPosition } from "./learning-api.ts";
import {
  formatVideoTime,
  isPlayedToEnd,
  PLAYER_READY_TIMEOUT_MS,
  positionToSave,
  youtubeThumbnailUrl,
  youtubeWatchUrl,
  WIDE_SCREEN,
  type SavedPosition,
} from "./video-watching.ts";
import { loadYouTubeIframeApi, PLAYER_STATE, type YouTubePlayer } from "./youtube-iframe-api.ts";

const YOUTUBE_NOCOOKIE = "https://www.youtube-nocookie.com";
/** While the video plays, how often the lesson looks at where it is. */
const POLL_MS = 1000;

export const VIDEO_FALLBACK_MESSAGE = "This video could not load. Check your connection, or watch it on YouTube.";

function subscribeToConnection(onChange: () => void) {
  window.addEventListener("online", onChange);
  window.addEventListener("offline", onChange);
  return () => {
    window.removeEventListener("online", onChange);
    window.removeEventListener("offline", onChange);
  };
}

function useOnline(): boolean {
  return useSyncExternalStore(subscribeToConnection, () => navigator.onLine, () => true);
}

type Props = {
  track: string;
  lessonId: string;
  youtubeId: string;
  /** The lesson's title without its number, e.g. "Support and resistance". */
  lessonName: string;
  /** Called once, when the learner has played the video to (near) its end. */
  onPlayedToEnd: () => void;
  /** Whether where the learner stops is kept (not in a free preview of a program they cannot open). */
  resume?: boolean;
};

/** A lesson's video, when it has one: a player of its own per lesson (a lesson of notes only has none). */
export function LessonVideoOf(props: {
  track: string;
  lesson: { id: string; title: string; youtubeId: string | null };
  onPlayedToEnd: () => void;
  resume?: boolean;
}) {
  const { track, lesson, onPlayedToEnd, resume } = props;
  if (lesson.youtubeId === null) return null;
  return (
    <LessonVideo
      key={lesson.id}
      track={track}
      lessonId={lesson.id}
      youtubeId={lesson.youtubeId}
      lessonName={lessonTitle(lesson.title)}
      onPlayedToEnd={onPlayedToEnd}
      resume={resume}
    />
  );
}

/** Render it with `key={lessonId}`: one player per lesson, its position saved as it goes. */
export function LessonVideo({ track, lessonId, youtubeId, lessonName, onPlayedToEnd, resume = true }: Props) {
  const site = useSiteConfig();
  const positions = useLessonPositions(track, { enabled: resume });
  const savePosition = useSaveLessonPosition(track);
  const online = useOnline();
  const [status, setStatus] = useState<"poster" | "loading" | "ready" | "failed">("poster");
  const frame = useRef<HTMLDivElement>(null);

  const apiUrl = site.data?.youtubeIframeApiUrl ?? null;
  // Known once read, or once the read failed (the video then starts at the beginning).
  const startKnown = !resume || !positions.isPending;
  // Offline before the player is ready: nothing to load. A ready player keeps what it buffered.
  const offlineBeforeReady = !online && status !== "ready";
  const gaveUp = status === "failed";
  const failed = gaveUp || offlineBeforeReady || site.isError;
  const played = status !== "poster";
  const resumeAt = resume ? (positions.data?.[lessonId] ?? 0) : 0;
  const playWords = resumeAt > 0 ? `Resume video at ${formatVideoTime(resumeAt)}` : "Play video";

  const startAt = useEffectEvent(() => positions.data?.[lessonId] ?? 0);
  const playedToEnd = useEffectEvent(() => onPlayedToEnd());
  const save = useEffectEvent((seconds: number, leaving: boolean) => {
    if (resume) savePosition(lessonId, seconds, { leaving });
  });
  const frameTitle = useEffectEvent(() => `${lessonName} video`);

  useEffect(() => {
    const container = frame.current;
    if (!container || !played || apiUrl === null || !startKnown || offlineBeforeReady || gaveUp) return;
    let cancelled = false;
    let player: YouTubePlayer | null = null;
    let ready = false;
    let poll: ReturnType<typeof setInterval> | undefined;
    let lastSaved: SavedPosition | null = null;
    let reportedWatched = false;

    const stopPolling = () => clearInterval(poll);
    const fail = () => {
      if (cancelled) return;
      clearTimeout(readyTimer);
      setStatus("failed");
    };
    const readyTimer = setTimeout(fail, PLAYER_READY_TIMEOUT_MS);

    const record = (urgent: boolean, leaving = false) => {
      if (!player || !ready) return;
      const now = Date.now();
      const seconds = positionToSave(player.getCurrentTime(), lastSaved, now, urgent);
      if (seconds === null) return;
      lastSaved = { seconds, atMs: now };
      save(seconds, leaving);
    };
    const reportWatched = () => {
      if (reportedWatched) return;
      reportedWatched = true;
      playedToEnd();
    };
    const look = () => {
      if (player && isPlayedToEnd(player.getCurrentTime(), player.getDuration())) reportWatched();
      record(false);
    };

    const start = startAt();
    loadYouTubeIframeApi(apiUrl).then((api) => {
      if (cancelled) return;
      // The API replaces the element it is given: React's own element stays, the player goes in it.
      const mount = document.createElement("div");
      container.replaceChildren(mount);
      player = new api.Player(mount, {
        videoId: youtubeId,
        host: YOUTUBE_NOCOOKIE,
        width: "100%",
        height: "100%",
        playerVars: { start, rel: 0, playsinline: 1, autoplay: 1 },
        events: {
          onReady: ({ target }) => {
            if (cancelled) return;
            clearTimeout(readyTimer);
            ready = true;
            const iframe = target.getIframe();
            iframe.title = frameTitle();
            setStatus("ready");
            // The learner pressed play: it plays (where the browser allows) and has the focus.
            target.playVideo();
            iframe.focus();
          },
          onStateChange: ({ data }) => {
            stopPolling();
            if (data === PLAYER_STATE.PLAYING) {
              poll = setInterval(look, POLL_MS);
            } else if (data === PLAYER_STATE.PAUSED) {
              look();
              record(true);
            } else if (data === PLAYER_STATE.ENDED) {
              reportWatched();
              // Played to the end: the next visit starts from the beginning.
              lastSaved = { seconds: 0, atMs: Date.now() };
              save(0, false);
            }
          },
          onError: fail,
        },
      });
    }, fail);

    // A phone may close a hidden tab without another word: its position is saved as it hides.
    const onHide = () => {
      if (document.visibilityState === "hidden") record(true, true);
    };
    const onPageHide = () => record(true, true);
    document.addEventListener("visibilitychange", onHide);
    window.addEventListener("pagehide", onPageHide);
    return () => {
      document.removeEventListener("visibilitychange", onHide);
      window.removeEventListener("pagehide", onPageHide);
      record(true, true);
      cancelled = true;
      clearTimeout(readyTimer);
      stopPolling();
      player?.destroy();
      container.replaceChildren();
    };
  }, [played, apiUrl, startKnown, offlineBeforeReady, gaveUp, youtubeId]);

  const thumbnails = site.data?.youtubeThumbnailUrl;
  const savesData = useDataSaver();
  return (
    <>
      {played ? (
        <div ref={frame} className="video-frame" hidden={failed} />
      ) : (
        !failed && (
          // Named with its visible words first, then the lesson's name.
          <button
            type="button"
            className="video-frame video-poster lesson-poster"
            aria-label={`${playWords}, ${lessonName}`}
            onClick={() => setStatus("loading")}
          >
            {thumbnails !== undefined && (
              // The small picture on a phone, the smallest with the data saver on (docs/performance.md, "Data").
              <picture>
                {!savesData && <source media={WIDE_SCREEN} srcSet={youtubeThumbnailUrl(thumbnails, youtubeId, "hqdefault")} />}
                <img
                  className="video-thumbnail"
                  src={youtubeThumbnailUrl(thumbnails, youtubeId, savesData ? "default" : "mqdefault")}
                  alt=""
                  decoding="async"
                  fetchPriority="high"
                />
              </picture>
            )}
            <span className="play-icon" aria-hidden="true">
              <svg viewBox="0 0 24 24" width="32" height="32">
                <path d="M8 5v14l11-7z" fill="currentColor" />
              </svg>
            </span>
            <span className="video-poster-label">{playWords}</span>
          </button>
        )
      )}
      {/* Present from the start, so that the words are announced when they appear. */}
      <div role="status" className="video-status">
        {failed && (
          <div className="video-fallback">
            <p>{VIDEO_FALLBACK_MESSAGE}</p>
            <p>
              <a href={youtubeWatchUrl(youtubeId)} target="_blank" rel="noopener">
                Open on YouTube<span className="visually-hidden"> (opens in a new tab)</span>
              </a>
            </p>
          </div>
        )}
      </div>
    </>
  );
}
