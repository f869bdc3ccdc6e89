// The YouTube IFrame Player API (https://developers.google.com/youtube/iframe_api_reference): its
// script is loaded only when the learner plays a lesson's video, never before (docs/performance.md).

export const PLAYER_STATE = { ENDED: 0, PLAYING: 1, PAUSED: 2 } as const;

type PlayerEvent = { target: YouTubePlayer; data: number };

/** The part of YT.Player the lesson uses. */
export type YouTubePlayer = {
  getCurrentTime(): number;
  getDuration(): number;
  getIframe(): HTMLIFrameElement;
  playVideo(): void;
  destroy(): void;
};

export type YouTubePlayerOptions = {
  videoId: string;
  /** Undocumented but kept by the API: the player frame's origin, youtube-nocookie as before. */
  host: string;
  width: string;
  height: string;
  playerVars: { start: number; rel: 0; playsinline: 1; autoplay: 1 };
  events: {
    onReady(event: PlayerEvent): void;
    onStateChange(event: PlayerEvent): void;
    onError(event: PlayerEvent): void;
  };
};

export type YouTubeApi = { Player: new (element: HTMLElement, options: YouTubePlayerOptions) => YouTubePlayer };

declare global {
  interface Window {
    /** Set by the IFrame Player API's script (or the development stand-in, which speaks the same API). */
    YT?: Partial<YouTubeApi>;
    onYouTubeIframeAPIReady?: () => void;
  }
}

function readyApi(): YouTubeApi | null {
  const Player = window.YT?.Player;
  return Player ? { Player } : null;
}

let loading: { url: string; promise: Promise<YouTubeApi> } | null = null;

/**
 * Loads the API's script once per page life; lessons share the same promise. A script that fails
 * to load is forgotten (and its tag removed), so the next lesson tries again.
 */
export function loadYouTubeIframeApi(url: string): Promise<YouTubeApi> {
  const ready = readyApi();
  if (ready) return Promise.resolve(ready);
  if (loading?.url === url) return loading.promise;

  const promise = new Promise<YouTubeApi>((resolve, reject) => {
    const previous = window.onYouTubeIframeAPIReady;
    window.onYouTubeIframeAPIReady = () => {
      previous?.();
      const api = readyApi();
      if (api) resolve(api);
      else reject(new Error("The YouTube IFrame API was ready without YT.Player"));
    };
    const script = document.createElement("script");
    script.src = url;
    script.async = true;
    script.addEventListener("error", () => {
      script.remove();
      reject(new Error(`The YouTube IFrame API could not be loaded from ${url}`));
    });
    document.head.appendChild(script);
  });
  loading = { url, promise };
  promise.catch(() => {
    if (loading?.promise === promise) loading = null;
  });
  return promise;
}
