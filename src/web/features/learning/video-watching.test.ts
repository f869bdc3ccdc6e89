import { describe, expect, it } from "vitest";
import {
  formatVideoTime,
  isPlayedToEnd,
  POSITION_SAVE_INTERVAL_MS,
  positionToSave,
  thumbnailShown,
  wholeSeconds,
  youtubeThumbnailUrl,
  youtubeWatchUrl,
} from "./video-watching.ts";

describe("isPlayedToEnd", () => {
  it("counts a video watched from 90% of its duration", () => {
    expect(isPlayedToEnd(539, 600)).toBe(false);
    expect(isPlayedToEnd(540, 600)).toBe(true);
    expect(isPlayedToEnd(600, 600)).toBe(true);
  });

  it("never counts a video whose duration is not known yet (0 before its metadata loads)", () => {
    expect(isPlayedToEnd(0, 0)).toBe(false);
    expect(isPlayedToEnd(30, 0)).toBe(false);
  });
});

describe("positionToSave", () => {
  const at = 1_000_000;

  it("saves the first position at once, in whole seconds", () => {
    expect(positionToSave(12.7, null, at, false)).toBe(12);
  });

  it("while playing, saves at most once every interval", () => {
    const last = { seconds: 12, atMs: at };
    expect(positionToSave(20, last, at + POSITION_SAVE_INTERVAL_MS - 1, false)).toBeNull();
    expect(positionToSave(27, last, at + POSITION_SAVE_INTERVAL_MS, false)).toBe(27);
  });

  it("on a pause or on leaving, saves at once whatever moved", () => {
    expect(positionToSave(14.2, { seconds: 12, atMs: at }, at + 1, true)).toBe(14);
  });

  it("saves nothing when the position has not moved", () => {
    expect(positionToSave(12.9, { seconds: 12, atMs: at }, at + POSITION_SAVE_INTERVAL_MS * 4, true)).toBeNull();
  });
});

describe("wholeSeconds", () => {
  it("keeps a position within what the server accepts", () => {
    expect(wholeSeconds(-3)).toBe(0);
    expect(wholeSeconds(Number.NaN)).toBe(0);
    expect(wholeSeconds(90_000)).toBe(86_400);
    expect(wholeSeconds(61.99)).toBe(61);
  });
});

describe("youtubeWatchUrl", () => {
  it("is the video's page on YouTube", () => {
    expect(youtubeWatchUrl("dQw4w9WgXcQ")).toBe("https://www.youtube.com/watch?v=dQw4w9WgXcQ");
  });
});

describe("formatVideoTime", () => {
  it("writes minutes and seconds, and hours past an hour", () => {
    expect(formatVideoTime(0)).toBe("0:00");
    expect(formatVideoTime(125.7)).toBe("2:05");
    expect(formatVideoTime(3725)).toBe("1:02:05");
  });
});

describe("youtubeThumbnailUrl", () => {
  it("is the video's picture of that size where the thumbnails are", () => {
    expect(youtubeThumbnailUrl("https://i.ytimg.com/vi/", "dQw4w9WgXcQ", "hqdefault")).toBe("https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg");
    expect(youtubeThumbnailUrl("http://localhost:3210/dev/fakes/youtube/vi/", "dQw4w9WgXcQ", "mqdefault")).toBe(
      "http://localhost:3210/dev/fakes/youtube/vi/dQw4w9WgXcQ/mqdefault.jpg",
    );
  });
});

describe("thumbnailShown", () => {
  const base = "https://i.ytimg.com/vi/";
  it("is the larger picture only on a wide screen that does not save data", () => {
    expect(thumbnailShown(base, "dQw4w9WgXcQ", { wide: true, savesData: false })).toBe("https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg");
    expect(thumbnailShown(base, "dQw4w9WgXcQ", { wide: true, savesData: true })).toBe("https://i.ytimg.com/vi/dQw4w9WgXcQ/default.jpg");
    expect(thumbnailShown(base, "dQw4w9WgXcQ", { wide: false, savesData: true })).toBe("https://i.ytimg.com/vi/dQw4w9WgXcQ/default.jpg");
    expect(thumbnailShown(base, "dQw4w9WgXcQ", { wide: false, savesData: false })).toBe("https://i.ytimg.com/vi/dQw4w9WgXcQ/mqdefault.jpg");
  });
});
