import { describe, expect, it } from "vitest";
import { youtubeVideoId } from "./youtube.ts";

const ID = "dQw4w9WgXcQ";

describe("youtubeVideoId", () => {
  it("accepts a bare 11-character id, trimmed", () => {
    expect(youtubeVideoId(ID)).toBe(ID);
    expect(youtubeVideoId(`  ${ID}\n`)).toBe(ID);
    expect(youtubeVideoId("a-b_c-d_e-f")).toBe("a-b_c-d_e-f");
  });

  it.each([
    `https://www.youtube.com/watch?v=${ID}`,
    `https://youtube.com/watch?v=${ID}&t=42s`,
    `https://m.youtube.com/watch?feature=share&v=${ID}`,
    `http://www.youtube.com/watch/?v=${ID}`,
    `www.youtube.com/watch?v=${ID}`,
    `youtube.com/watch?v=${ID}`,
    `https://youtu.be/${ID}`,
    `https://youtu.be/${ID}?si=abc123&t=10`,
    `youtu.be/${ID}/`,
    `https://www.youtube.com/embed/${ID}`,
    `https://www.youtube.com/embed/${ID}?start=30`,
    `https://youtube.com/shorts/${ID}`,
    `https://www.youtube-nocookie.com/embed/${ID}`,
    `youtube-nocookie.com/embed/${ID}`,
    `HTTPS://WWW.YOUTUBE.COM/watch?v=${ID}`,
  ])("finds the id in %s", (link) => {
    expect(youtubeVideoId(link)).toBe(ID);
  });

  it.each([
    "",
    "   ",
    "not a video",
    "dQw4w9WgXc", // 10 characters
    "dQw4w9WgXcQQ", // 12 characters
    "dQw4w9WgXc!",
    "https://www.youtube.com/watch",
    "https://www.youtube.com/watch?v=short",
    `https://www.youtube.com/watch?v=${ID}x`,
    `https://www.youtube.com/${ID}`,
    `https://www.youtube.com/embed/${ID}/extra`,
    `https://www.youtube.com/playlist?list=${ID}`,
    `https://youtube-nocookie.com/shorts/${ID}`,
    `https://youtu.be/watch?v=${ID}`,
    `https://vimeo.com/${ID}`,
    `https://youtube.com.example.com/watch?v=${ID}`,
    `https://example.com/watch?v=${ID}`,
    `https://youtube.com@example.com/watch?v=${ID}`,
    `ftp://youtube.com/watch?v=${ID}`,
    `javascript:alert(1)//${ID}`,
  ])("rejects %j", (input) => {
    expect(youtubeVideoId(input)).toBeNull();
  });
});
