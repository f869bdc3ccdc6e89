// Driving the lesson's video through the stand-in of the YouTube IFrame Player API
// (dev/fakes/youtube-iframe-api.ts), which the browser tests' server loads in YouTube's place.
import { expect, type Page } from "@playwright/test";

export const FAKE_IFRAME_API = "**/dev/fakes/youtube/iframe_api";
export const VIDEO_FALLBACK = "This video could not load. Check your connection, or watch it on YouTube.";
/** Every stand-in video lasts ten minutes. */
export const FAKE_VIDEO_SECONDS = 600;

/** The stand-in's player frame, once ready (the lesson names it then). */
export function videoPlayer(page: Page, lessonTitle: string) {
  return page.locator(`iframe[data-fake-youtube-player][title="${lessonTitle} video"]`);
}

/** A lesson's video before it is played: its thumbnail and "Play video" (or "Resume video at 2:00"). */
export function playButton(page: Page, lessonTitle: string, resumeAt?: string) {
  const words = resumeAt === undefined ? "Play video" : `Resume video at ${resumeAt}`;
  return page.getByRole("button", { name: `${words}, ${lessonTitle}`, exact: true });
}

/** Plays a lesson's video: only then does the page load the IFrame Player API. */
export async function playVideo(page: Page, lessonTitle: string, resumeAt?: string): Promise<void> {
  await playButton(page, lessonTitle, resumeAt).click();
}

/** The stand-in's test hook: play(), pause(), advance(seconds), end(), fail(code) on the current player. */
export async function drive(page: Page, action: "play" | "pause" | "end" | "fail"): Promise<void>;
export async function drive(page: Page, action: "advance", seconds: number): Promise<void>;
export async function drive(page: Page, action: string, argument?: number): Promise<void> {
  await page.evaluate(
    ([name, value]) => {
      const hook: unknown = Reflect.get(window, "fakeYouTube");
      const method: unknown = hook && typeof hook === "object" ? Reflect.get(hook, String(name)) : undefined;
      if (typeof method !== "function") throw new Error(`the YouTube stand-in has no ${String(name)}()`);
      method(value);
    },
    [action, argument] as const,
  );
}

/** Blocks the IFrame Player API's script, as an offline phone or a network without YouTube does. */
export async function blockIframeApi(page: Page): Promise<void> {
  await page.route(FAKE_IFRAME_API, (route) => route.abort("internetdisconnected"));
}

/** The lesson's words for a video that could not load, and its link to YouTube. */
export async function expectVideoFallback(page: Page, youtubeId: RegExp | string = /[\w-]+/) {
  const status = page.getByRole("status").filter({ hasText: VIDEO_FALLBACK });
  await expect(status).toBeVisible();
  const link = status.getByRole("link", { name: /^Open on YouTube/ });
  const href = typeof youtubeId === "string" ? `https://www.youtube.com/watch?v=${youtubeId}` : new RegExp(`^https://www\\.youtube\\.com/watch\\?v=${youtubeId.source}$`);
  await expect(link).toHaveAttribute("href", href);
  await expect(link).toHaveAttribute("target", "_blank");
  await expect(link).toHaveAttribute("rel", "noopener");
  await expect(page.locator("iframe[data-fake-youtube-player]")).toHaveCount(0);
  return link;
}
