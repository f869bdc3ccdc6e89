// The lesson's video (docs/product.md, "Lesson player"), through the stand-in of the YouTube
// IFrame Player API: a video played to (near) its end is marked watched without the button, a
// learner coming back resumes where they stopped (on another device too), and a video that cannot
// load says so in words, with a link to YouTube, the rest of the lesson still usable.
import { expect, test, type Page } from "@playwright/test";
import { DEFAULT_PASSWORD, logIn, signedInAccount, uniqueEmail } from "./support/accounts.ts";
import {
  blockIframeApi,
  drive,
  expectVideoFallback,
  FAKE_IFRAME_API,
  FAKE_VIDEO_SECONDS,
  playButton,
  playVideo,
  videoPlayer,
} from "./support/youtube.ts";

const LESSONS = ["Welcome to the markets", "Reading candlestick charts", "Support and resistance"];

function lessonHeading(page: Page, n: number) {
  return page.getByRole("heading", { level: 2, name: `Section ${n}: ${LESSONS[n - 1]}` });
}

function pager(page: Page) {
  return page.getByRole("navigation", { name: "Previous and next lesson" });
}

/** Counts the page's Mark as Watched requests. */
function countWatchedRequests(page: Page): () => number {
  let count = 0;
  page.on("request", (request) => {
    if (request.method() === "POST" && /\/modules\/[^/]+\/watched$/.test(new URL(request.url()).pathname)) count += 1;
  });
  return () => count;
}

function positionSaved(page: Page, seconds: number) {
  return page.waitForResponse(
    (response) =>
      response.request().method() === "PUT" &&
      response.url().endsWith("/position") &&
      response.request().postDataJSON()?.seconds === seconds &&
      response.ok(),
  );
}

test("a lesson played to 90% of its video, or to its end, is marked watched without the button, once", async ({ page, context, request }, testInfo) => {
  await signedInAccount(context, request, { email: uniqueEmail(testInfo) });
  const watchedRequests = countWatchedRequests(page);
  await page.goto("/program/beginner");
  await expect(lessonHeading(page, 1)).toBeVisible();
  await playVideo(page, LESSONS[0] ?? "");
  await expect(videoPlayer(page, LESSONS[0] ?? "")).toBeVisible();
  await expect(page.getByRole("button", { name: "Mark as Watched" })).toBeVisible();

  // 89% is not yet watched; 91% is, as the player notices while it plays.
  await drive(page, "play");
  await drive(page, "advance", FAKE_VIDEO_SECONDS * 0.89);
  await page.waitForTimeout(1500);
  await expect(page.getByRole("button", { name: "Mark as Watched" })).toBeVisible();
  expect(watchedRequests()).toBe(0);
  await drive(page, "advance", FAKE_VIDEO_SECONDS * 0.02);
  await expect(page.getByRole("button", { name: "Watched" })).toBeVisible();
  await expect(page.getByText("1 of 3 videos watched")).toBeVisible();
  await expect(page.getByText("Watch Section 1 to unlock this quiz.")).toHaveCount(0);
  // Played on to its end: no second mark.
  await drive(page, "end");
  await page.waitForTimeout(500);
  expect(watchedRequests()).toBe(1);

  // The next lesson, played straight to its end (the player's ENDED state).
  await pager(page).getByRole("link", { name: `Next ${LESSONS[1]}` }).click();
  await playVideo(page, LESSONS[1] ?? "");
  await expect(videoPlayer(page, LESSONS[1] ?? "")).toBeVisible();
  await drive(page, "play");
  await drive(page, "end");
  await expect(page.getByRole("button", { name: "Watched" })).toBeVisible();
  await expect(page.getByText("2 of 3 videos watched")).toBeVisible();
  expect(watchedRequests()).toBe(2);
  const curriculum = page.getByRole("navigation", { name: "Course content" });
  await expect(curriculum.getByRole("link", { name: /^Section 2 / })).toHaveAccessibleName(/\(watched\)$/);
});

test("a learner coming back to a lesson resumes where they paused or left it, on another device too", async ({ page, context, request, browser }, testInfo) => {
  const email = uniqueEmail(testInfo);
  await signedInAccount(context, request, { email });
  await page.goto("/program/beginner");
  await playVideo(page, LESSONS[0] ?? "");
  const player = videoPlayer(page, LESSONS[0] ?? "");
  await expect(player).toHaveAttribute("data-start", "0");

  // Paused at 2:00: saved at once.
  await drive(page, "play");
  await drive(page, "advance", 120);
  const paused = positionSaved(page, 120);
  await drive(page, "pause");
  await paused;

  // Away to the next lesson and back: the video starts at 2:00.
  await pager(page).getByRole("link", { name: `Next ${LESSONS[1]}` }).click();
  await playVideo(page, LESSONS[1] ?? "");
  await expect(videoPlayer(page, LESSONS[1] ?? "")).toHaveAttribute("data-start", "0");
  await pager(page).getByRole("link", { name: `Previous ${LESSONS[0]}` }).click();
  await playVideo(page, LESSONS[0] ?? "", "2:00");
  await expect(player).toHaveAttribute("data-start", "120");

  // Played on to 2:45 and left while playing: the position is saved as the lesson goes.
  await drive(page, "play");
  await drive(page, "advance", 45);
  const left = positionSaved(page, 165);
  await pager(page).getByRole("link", { name: `Next ${LESSONS[1]}` }).click();
  await left;

  // Another device, signed in afresh, resumes there too.
  const phone = await browser.newContext();
  const other = await phone.newPage();
  await logIn(other, email, DEFAULT_PASSWORD);
  await other.goto("/program/beginner");
  await other.getByRole("navigation", { name: "Course content" }).getByRole("link", { name: /^Section 1 / }).click();
  await playVideo(other, LESSONS[0] ?? "", "2:45");
  await expect(videoPlayer(other, LESSONS[0] ?? "")).toHaveAttribute("data-start", "165");
  await phone.close();
});

test("with the player out of reach, the lesson says so and links to YouTube; Mark as Watched still works", async ({ page, context, request }, testInfo) => {
  await signedInAccount(context, request, { email: uniqueEmail(testInfo) });
  await blockIframeApi(page);
  await page.goto("/program/beginner");
  await expect(lessonHeading(page, 1)).toBeVisible();
  await playVideo(page, LESSONS[0] ?? "");
  const link = await expectVideoFallback(page);
  await expect(page.locator(".video-frame")).toBeHidden();

  // The link is the next stop of the keyboard after the lesson's heading.
  await lessonHeading(page, 1).focus();
  await page.keyboard.press("Tab");
  await expect(link).toBeFocused();

  await page.getByRole("button", { name: "Mark as Watched" }).click();
  await expect(page.getByRole("button", { name: "Watched" })).toBeVisible();
  await expect(page.getByText("1 of 3 videos watched")).toBeVisible();
  await expect(page.locator(".quiz-question").first()).toBeVisible();
});

test("a player that reports an error, or never becomes ready, gives way to the same words", async ({ page, context, request }, testInfo) => {
  test.slow(); // waits out the player's time to become ready
  await signedInAccount(context, request, { email: uniqueEmail(testInfo) });
  await page.goto("/program/beginner");
  await playVideo(page, LESSONS[0] ?? "");
  await expect(videoPlayer(page, LESSONS[0] ?? "")).toBeVisible();
  await drive(page, "fail");
  await expectVideoFallback(page);

  await page.addInitScript(() => Reflect.set(window, "fakeYouTubeSettings", { ready: false }));
  await page.reload();
  await playVideo(page, LESSONS[0] ?? "");
  await expect(page.locator("iframe[data-fake-youtube-player]")).toHaveCount(1);
  await expect(page.getByRole("status").filter({ hasText: "This video could not load." })).toBeVisible({ timeout: 20_000 });
  await expectVideoFallback(page);
});

test("a lesson shows its video's thumbnail and loads nothing of YouTube until the learner plays it", async ({ page, context, request }, testInfo) => {
  await signedInAccount(context, request, { email: uniqueEmail(testInfo) });
  let apiRequests = 0;
  await page.route(FAKE_IFRAME_API, (route) => {
    apiRequests += 1;
    return route.continue();
  });
  await page.goto("/program/beginner");
  await expect(lessonHeading(page, 1)).toBeVisible();
  const play = playButton(page, LESSONS[0] ?? "");
  await expect(play).toBeVisible();
  // The desktop window takes the larger picture (a phone the smaller, e2e/data-cost.spec.ts).
  const thumbnail = play.locator("img");
  await expect.poll(() => thumbnail.evaluate((image: HTMLImageElement) => image.currentSrc)).toMatch(/\/dev\/fakes\/youtube\/vi\/[\w-]{11}\/hqdefault\.jpg$/);
  await expect.poll(() => thumbnail.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
  await page.waitForTimeout(500);
  expect(apiRequests).toBe(0);
  await expect(page.locator("iframe")).toHaveCount(0);

  // Played with the keyboard: the player loads, plays, and has the focus.
  await play.focus();
  await page.keyboard.press("Enter");
  const player = videoPlayer(page, LESSONS[0] ?? "");
  await expect(player).toBeVisible();
  await expect(player).toBeFocused();
  expect(apiRequests).toBe(1);
  // It plays without a second press (the player's PLAYING state).
  const state = await page.evaluate(() => (Reflect.get(window, "fakeYouTube") as { players: { _state: number }[] }).players.at(-1)?._state);
  expect(state).toBe(1);
});
