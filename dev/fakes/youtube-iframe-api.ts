// A stand-in for the YouTube IFrame Player API (https://www.youtube.com/iframe_api), for
// development and browser tests, which run offline. It speaks the documented API: window.YT with
// Player and PlayerState, window.onYouTubeIframeAPIReady called once it is defined, a player that
// replaces its element with a frame and fires onReady, onStateChange and onError, and
// getCurrentTime, getDuration, getPlayerState, seekTo, playVideo, pauseVideo, getIframe and
// destroy; playerVars.start is where it starts. Its time moves only when a test says so, through
// window.fakeYouTube: play(), pause(), advance(seconds), end(), fail(code) act on the latest
// player, and players lists every player made ({ videoId, start, destroyed }). A page may set
// window.fakeYouTubeSettings first: { duration } in seconds (600), { ready: false } for a player
// that never becomes ready. Plain ES2020 without template literals, served as its own file (the
// Content-Security-Policy forbids inline scripts).
import { randomBytes } from "node:crypto";

export const FAKE_YOUTUBE_IFRAME_API_SCRIPT = `(() => {
  "use strict";
  const PlayerState = { UNSTARTED: -1, ENDED: 0, PLAYING: 1, PAUSED: 2, BUFFERING: 3, CUED: 5 };
  const settings = window.fakeYouTubeSettings || {};
  const duration = typeof settings.duration === "number" ? settings.duration : 600;
  const players = [];

  function Player(target, options) {
    const element = typeof target === "string" ? document.getElementById(target) : target;
    const vars = options.playerVars || {};
    this.videoId = options.videoId;
    this.start = Number(vars.start) || 0;
    this.destroyed = false;
    this._time = Math.min(this.start, duration);
    this._state = PlayerState.UNSTARTED;
    this._events = options.events || {};
    const frame = document.createElement("iframe");
    frame.title = "YouTube video player";
    frame.setAttribute("data-fake-youtube-player", "");
    frame.setAttribute("data-video-id", String(options.videoId));
    frame.setAttribute("data-start", String(this.start));
    frame.srcdoc = "<body style='margin:0;display:grid;place-items:center;height:100vh;background:#061325;" +
      "color:#fff;font:600 16px system-ui'>Video " + String(options.videoId) + " (development stand-in)</body>";
    element.replaceWith(frame);
    this._frame = frame;
    players.push(this);
    if (settings.ready !== false) setTimeout(() => this._fire("onReady"), 20);
  }
  Player.prototype._fire = function (name, data) {
    const handler = this._events[name];
    if (!this.destroyed && typeof handler === "function") handler({ target: this, data: data });
  };
  Player.prototype._setState = function (state) {
    this._state = state;
    this._fire("onStateChange", state);
  };
  Player.prototype.getCurrentTime = function () { return this._time; };
  Player.prototype.getDuration = function () { return duration; };
  Player.prototype.getPlayerState = function () { return this._state; };
  Player.prototype.getIframe = function () { return this._frame; };
  Player.prototype.seekTo = function (seconds) { this._time = Math.max(0, Math.min(Number(seconds) || 0, duration)); };
  Player.prototype.playVideo = function () { this._setState(PlayerState.PLAYING); };
  Player.prototype.pauseVideo = function () { this._setState(PlayerState.PAUSED); };
  Player.prototype.destroy = function () {
    this.destroyed = true;
    this._frame.remove();
  };

  function latest() {
    const player = players.filter((p) => !p.destroyed).pop();
    if (!player) throw new Error("No YouTube player on the page");
    return player;
  }

  window.fakeYouTube = {
    players: players,
    play: () => latest().playVideo(),
    pause: () => latest().pauseVideo(),
    advance: (seconds) => {
      const player = latest();
      player._time = Math.min(player._time + seconds, duration);
      if (player._time >= duration) player._setState(PlayerState.ENDED);
    },
    end: () => {
      const player = latest();
      player._time = duration;
      player._setState(PlayerState.ENDED);
    },
    fail: (code) => latest()._fire("onError", code === undefined ? 100 : code),
  };
  window.YT = { Player: Player, PlayerState: PlayerState, loaded: 1 };
  setTimeout(() => {
    if (typeof window.onYouTubeIframeAPIReady === "function") window.onYouTubeIframeAPIReady();
  }, 0);
})();
`;

/**
 * The bytes YouTube's thumbnails weigh, about: 320 by 180 ("mqdefault") and 480 by 360 JPEGs. The
 * stand-in's pictures weigh as much, so that what a lesson costs in data (e2e/data-cost.spec.ts)
 * counts them as a learner's phone would.
 */
const THUMBNAIL_BYTES: Record<string, number> = { default: 4_000, mqdefault: 12_000, hqdefault: 30_000, sddefault: 50_000, maxresdefault: 90_000 };

/** The stand-in's thumbnail of a video: a 16:9 picture naming it, as heavy as YouTube's of that size. */
export function fakeYouTubeThumbnail(videoId: string, size: string): string {
  const picture =
    '<svg xmlns="http://www.w3.org/2000/svg" width="480" height="270" viewBox="0 0 480 270">' +
    '<rect width="480" height="270" fill="#1d3b63"/>' +
    `<text x="24" y="246" fill="#c9d6e8" font-family="system-ui,sans-serif" font-size="18">Thumbnail ${videoId}</text>`;
  // Noise in a comment weighs what a JPEG's pixels would (it does not compress either).
  const noise = randomBytes(Math.ceil((THUMBNAIL_BYTES[size] ?? 12_000) * 0.75)).toString("base64");
  return `${picture}<!-- ${noise} --></svg>`;
}
