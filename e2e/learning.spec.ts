// Studying in the course player (docs/product.md, "Track page" and "Lesson player"): one lesson
// at a time, the curriculum beside it (folded on a phone), Previous and Next, deep links that
// survive a reload, the spec's address opening at the first unwatched lesson, and the progress the
// program cards and the home page show.
import { expect, test, type Page } from "@playwright/test";
import { DEFAULT_PASSWORD, logIn, signedInAccount, uniqueEmail } from "./support/accounts.ts";
import { setPlanWithCli } from "./support/operator.ts";

const LESSON_URL = /^\/program\/beginner\/[0-9a-f-]{36}$/;
const BEGINNER = ["Welcome to the markets", "Reading candlestick charts", "Support and resistance"];

function pathOf(page: Page): string {
  return new URL(page.url()).pathname;
}

function curriculum(page: Page) {
  return page.getByRole("navigation", { name: "Course content" });
}

/** The curriculum's link to lesson `n` (1-based). */
function lessonLink(page: Page, n: number) {
  return curriculum(page).getByRole("link", { name: new RegExp(`^Section ${n} `) });
}

function lessonHeading(page: Page, n: number) {
  return page.getByRole("heading", { level: 2, name: `Section ${n}: ${BEGINNER[n - 1]}` });
}

function programCard(page: Page, title: string) {
  return page.locator(".program-card").filter({ has: page.getByRole("heading", { name: title }) });
}

test("a learner studies the whole Beginner program in the player", async ({ page, context, request }, testInfo) => {
  test.slow(); // the whole program, the home page, the program list, a log out and back in
  const email = uniqueEmail(testInfo);
  await signedInAccount(context, request, { email });

  // Start from the program list: the player opens at the first lesson, at its own address.
  await page.goto("/program");
  await programCard(page, "Beginner Program").getByRole("button", { name: "Start" }).click();
  await expect(lessonHeading(page, 1)).toBeVisible();
  expect(pathOf(page)).toMatch(LESSON_URL);
  const lesson1 = pathOf(page);
  await expect(page).toHaveTitle("Welcome to the markets · Beginner Program · Trading Academy");
  await expect(page.getByText("0 of 3 videos watched")).toBeVisible();
  await expect(page.getByText("0% complete")).toBeVisible();
  await expect(page.getByText("Watch Section 1 to unlock this quiz.")).toBeVisible();
  // The video's thumbnail and play button: YouTube's player comes only when played.
  await expect(page.getByRole("button", { name: "Play video, Welcome to the markets", exact: true })).toBeVisible();
  await expect(page.locator("iframe")).toHaveCount(0);

  // The curriculum: every lesson in order, the quiz under the first, the current one marked.
  await expect(curriculum(page).getByRole("heading", { name: "Course content" })).toBeVisible();
  await expect(curriculum(page).getByRole("link")).toHaveText([
    /Section 1.*Welcome to the markets/,
    /Quiz.*Beginner Program Quiz.*Locked/,
    /Section 2.*Reading candlestick charts/,
    /Section 3.*Support and resistance/,
  ]);
  await expect(lessonLink(page, 1)).toHaveAttribute("aria-current", "page");
  await expect(lessonLink(page, 2)).not.toHaveAttribute("aria-current");

  // Watch the first lesson: the quiz opens; one right answer (the rest later: a wrong first answer
  // would count in this attempt's score, docs/product.md "Quiz attempts").
  await page.getByRole("button", { name: "Mark as Watched" }).click();
  await expect(page.getByRole("button", { name: "Watched" })).toBeVisible();
  await expect(page.getByText("1 of 3 videos watched")).toBeVisible();
  await expect(page.getByText("25% complete")).toBeVisible();
  await expect(lessonLink(page, 1)).toHaveAccessibleName(/\(watched\)$/);
  await expect(page.getByText("Watch Section 1 to unlock this quiz.")).toHaveCount(0);
  const q1 = page.locator(".quiz-question").nth(0);
  await q1.getByRole("button", { name: /^A\)/ }).click();
  await expect(q1.getByRole("status")).toHaveText("Correct");
  await expect(curriculum(page).getByRole("link", { name: /^Quiz/ })).toContainText("1 of 3 correct");

  // Next: the second lesson, at its own address, its heading taking the focus.
  const pager = page.getByRole("navigation", { name: "Previous and next lesson" });
  await expect(pager.getByRole("link", { name: /^Previous/ })).toHaveCount(0);
  await pager.getByRole("link", { name: "Next Reading candlestick charts" }).click();
  await expect(lessonHeading(page, 2)).toBeFocused();
  expect(pathOf(page)).toMatch(LESSON_URL);
  expect(pathOf(page)).not.toBe(lesson1);
  const lesson2 = pathOf(page);
  await expect(lessonLink(page, 2)).toHaveAttribute("aria-current", "page");
  await expect(page).toHaveTitle("Reading candlestick charts · Beginner Program · Trading Academy");
  await expect(page.locator(".quiz-panel")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Mark as Watched" })).toBeVisible();

  // Previous, and the browser's Back, both return to the first lesson.
  await pager.getByRole("link", { name: "Previous Welcome to the markets" }).click();
  await expect(lessonHeading(page, 1)).toBeFocused();
  expect(pathOf(page)).toBe(lesson1);
  await page.goBack();
  await expect(lessonHeading(page, 2)).toBeFocused();
  await page.getByRole("button", { name: "Mark as Watched" }).click();
  await expect(page.getByText("2 of 3 videos watched")).toBeVisible();

  // A deep link survives a reload.
  await page.reload();
  await expect(lessonHeading(page, 2)).toBeVisible();
  expect(pathOf(page)).toBe(lesson2);
  await expect(page.getByRole("button", { name: "Watched" })).toBeVisible();

  // The spec's address opens the course at the first unwatched lesson.
  await page.goto("/program/beginner");
  await expect(lessonHeading(page, 3)).toBeVisible();
  expect(pathOf(page)).toMatch(LESSON_URL);
  const lesson3 = pathOf(page);

  // The program cards and the home page say how far the learner is and where to go on.
  await page.goto("/program");
  const listCard = programCard(page, "Beginner Program");
  await expect(listCard.getByText("50% complete")).toBeVisible();
  await expect(listCard.getByRole("button", { name: "Continue: Support and resistance" })).toBeVisible();
  await page.screenshot({ path: "test-results/screens/program-list-progress-1280.png" });
  await page.goto("/");
  const continueCard = page.getByRole("region", { name: "Continue learning" });
  await expect(continueCard).toContainText("Beginner Program");
  await expect(continueCard).toContainText("50% complete");
  await expect(programCard(page, "Beginner Program").getByRole("button", { name: "Continue: Support and resistance" })).toBeVisible();
  await continueCard.getByRole("link", { name: "Continue: Support and resistance" }).click();
  expect(pathOf(page)).toBe(lesson3);
  await expect(lessonHeading(page, 3)).toBeVisible();

  // The last lesson: Next is the quiz left under the first lesson.
  await page.getByRole("button", { name: "Mark as Watched" }).click();
  await expect(page.getByText("3 of 3 videos watched")).toBeVisible();
  await expect(page.getByText("75% complete")).toBeVisible();
  await pager.getByRole("link", { name: /^Next: the quiz/ }).click();
  expect(pathOf(page)).toBe(lesson1);
  await expect(page.locator(`#quiz`)).toBeFocused();
  await page.locator(".quiz-question").nth(1).getByRole("button", { name: /^B\)/ }).click();
  await expect(page.locator(".quiz-question").nth(1).getByRole("status")).toHaveText("Correct");
  await page.locator(".quiz-question").nth(2).getByRole("button", { name: /^C\)/ }).click();
  await expect(page.locator(".quiz-question").nth(2).getByRole("status")).toHaveText("Correct");
  await expect(curriculum(page).getByRole("link", { name: /^Quiz/ })).toContainText("Passed");
  await expect(page.getByText("100% complete")).toBeVisible();

  // The completion moment shows under the lesson that brought it; the curriculum keeps an entry for it.
  const moment = page.locator(".completion-moment");
  await expect(moment.getByRole("heading", { level: 2 })).toBeVisible();
  await expect(moment).toBeInViewport();
  await page.screenshot({ path: "test-results/screens/player-complete-1280.png" });
  await curriculum(page).getByRole("link", { name: /^Finished Program complete/ }).click();
  expect(pathOf(page)).toBe("/program/beginner/complete");
  await expect(page.locator(".completion-moment")).toBeFocused();
  await expect(curriculum(page).getByRole("link", { name: /^Finished Program complete/ })).toHaveAttribute("aria-current", "page");
  await expect(page).toHaveTitle("Program complete · Beginner Program · Trading Academy");

  // All watched: the spec's address opens at the first lesson; the card offers a review.
  await page.goto("/program/beginner");
  await expect(lessonHeading(page, 1)).toBeVisible();
  await page.goto("/program");
  await expect(listCard.getByText("100% complete")).toBeVisible();
  await expect(listCard.getByRole("button", { name: "Review" })).toBeVisible();

  // Log out and back in on a deep link: the progress and the answers are still there.
  await page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Logout" }).click();
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Login" })).toBeVisible();
  await page.goto(lesson2);
  await expect(page).toHaveURL(/\/login\?redirect=/);
  await logIn(page, email, DEFAULT_PASSWORD);
  await expect(lessonHeading(page, 2)).toBeVisible();
  expect(pathOf(page)).toBe(lesson2);
  await expect(page.getByText("3 of 3 videos watched")).toBeVisible();
  await lessonLink(page, 1).click();
  await expect(page.locator(".quiz-question").nth(0).getByRole("status")).toHaveText("Correct");
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test("the curriculum folds away above the lesson, and folds again once a lesson is chosen", async ({
    page,
    context,
    request,
  }, testInfo) => {
    await signedInAccount(context, request, { email: uniqueEmail(testInfo) });
    await page.goto("/program/beginner");
    await expect(lessonHeading(page, 1)).toBeVisible();

    const disclosure = curriculum(page).getByText("Course content (0 of 3 watched)");
    await expect(disclosure).toBeVisible();
    await expect(lessonLink(page, 2)).toBeHidden();
    await page.screenshot({ path: "test-results/screens/player-lesson-360.png", fullPage: true });

    await disclosure.click();
    await expect(lessonLink(page, 2)).toBeVisible();
    await expect(lessonLink(page, 1)).toHaveAttribute("aria-current", "page");
    await page.screenshot({ path: "test-results/screens/player-curriculum-open-360.png", fullPage: true });
    await lessonLink(page, 2).click();
    await expect(lessonHeading(page, 2)).toBeFocused();
    await expect(lessonHeading(page, 2)).toBeInViewport();
    await expect(lessonLink(page, 2)).toBeHidden();

    await page.getByRole("button", { name: "Mark as Watched" }).click();
    await expect(curriculum(page).getByText("Course content (1 of 3 watched)")).toBeVisible();
    const { scrollWidth, clientWidth } = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      clientWidth: document.documentElement.clientWidth,
    }));
    expect(scrollWidth).toBeLessThanOrEqual(clientWidth);

    await page.getByRole("navigation", { name: "Previous and next lesson" }).getByRole("link", { name: /^Next/ }).click();
    await expect(lessonHeading(page, 3)).toBeFocused();
    await expect(lessonHeading(page, 3)).toBeInViewport();

    // The home page's Continue card, in the hero.
    await page.goto("/");
    const continueCard = page.getByRole("region", { name: "Continue learning" });
    await expect(continueCard.getByRole("link", { name: "Continue: Welcome to the markets" })).toBeInViewport();
    await page.screenshot({ path: "test-results/screens/home-continue-360.png", fullPage: true });
  });
});

test("the player at 1280 px, for a person to look at", async ({ page, context, request }, testInfo) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signedInAccount(context, request, { email: uniqueEmail(testInfo) });
  await page.goto("/program/beginner");
  await page.getByRole("button", { name: "Mark as Watched" }).click();
  await page.locator(".quiz-question").nth(0).getByRole("button", { name: /^A\)/ }).click();
  await expect(page.locator(".quiz-question").nth(0).getByRole("status")).toHaveText("Correct");
  await expect(lessonLink(page, 2)).toBeVisible();
  await page.screenshot({ path: "test-results/screens/player-lesson-1280.png", fullPage: true });
  await page.getByRole("navigation", { name: "Previous and next lesson" }).getByRole("link", { name: /^Next/ }).click();
  await expect(lessonHeading(page, 2)).toBeFocused();
  await page.screenshot({ path: "test-results/screens/player-lesson-2-1280.png" });
  await page.goto("/");
  await expect(page.getByRole("region", { name: "Continue learning" })).toBeVisible();
  await page.screenshot({ path: "test-results/screens/home-continue-1280.png" });
});

test("a lesson address that is not a lesson shows the way on", async ({ page, context, request }, testInfo) => {
  await signedInAccount(context, request, { email: uniqueEmail(testInfo) });
  await page.goto("/program/beginner/not-a-lesson");
  await expect(page.getByRole("heading", { level: 2, name: "This video is not part of the program." })).toBeVisible();
  await expect(curriculum(page).locator("[aria-current]")).toHaveCount(0);
  await page.getByRole("link", { name: "Go on with Welcome to the markets" }).click();
  await expect(lessonHeading(page, 1)).toBeFocused();
});

test("a free learner is stopped at Intermediate with the premium message", async ({ page, context, request }, testInfo) => {
  await signedInAccount(context, request, { email: uniqueEmail(testInfo) });
  await page.goto("/program/intermediate");
  await expect(page.getByRole("main").getByText("Available to Premium users only")).toBeVisible();
  await expect(page.locator(".video-frame")).toHaveCount(0);
  await expect(page).toHaveTitle("Intermediate Program · Trading Academy");
  // A lesson's address says the same.
  await page.goto("/program/intermediate/any-lesson");
  await expect(page.getByRole("main").getByText("Available to Premium users only")).toBeVisible();
  await expect(page.locator(".video-frame")).toHaveCount(0);

  await page.goto("/program");
  await expect(programCard(page, "Intermediate Program").getByText(/% complete/)).toHaveCount(0);
  await programCard(page, "Intermediate Program").getByRole("button").click();
  await expect(page).toHaveURL("/subscription");
});

test("a learner whose plan was set to intermediate through the CLI opens Intermediate", async ({
  page,
  context,
  request,
}, testInfo) => {
  const email = uniqueEmail(testInfo);
  await signedInAccount(context, request, { email });
  await setPlanWithCli(email, "intermediate");

  await page.goto("/program/intermediate");
  await expect(page.getByRole("heading", { level: 1, name: "Intermediate Program" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: /^Section 1:/ })).toBeVisible();
  await expect(page.getByRole("button", { name: /^Play video, / })).toBeVisible();
  await page.goto("/program/advanced");
  await expect(page.getByRole("main").getByText("Available to Premium users only")).toBeVisible();
});

test("an unknown track says so, at its address and at a lesson's", async ({ page, context, request }, testInfo) => {
  await signedInAccount(context, request, { email: uniqueEmail(testInfo) });
  await page.goto("/program/expert");
  await expect(page.getByText("Program not found.")).toBeVisible();
  await page.goto("/program/expert/any-lesson");
  await expect(page.getByText("Program not found.")).toBeVisible();
  const missing = await request.get("/program/beginner/a/b");
  expect(missing.status()).toBe(404);
});

test("the home page keeps its place while a learner's next step is read, on a phone", async ({ page, context, request }, testInfo) => {
  await signedInAccount(context, request, { email: uniqueEmail(testInfo) });
  await page.setViewportSize({ width: 360, height: 740 });
  // A slow network: the step comes well after the page is drawn.
  let releaseProgress: () => void = () => undefined;
  const progressHeld = new Promise<void>((resolve) => (releaseProgress = resolve));
  await page.route("**/api/progress", async (route) => {
    await progressHeld;
    await route.continue();
  });
  await page.addInitScript(() => {
    const shifts: number[] = [];
    Object.assign(window, { layoutShifts: shifts });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        const shift = entry as PerformanceEntry & { value: number; hadRecentInput: boolean };
        if (!shift.hadRecentInput) shifts.push(shift.value);
      }
    }).observe({ type: "layout-shift", buffered: true });
  });

  await page.goto("/");
  const pending = page.getByRole("status", { name: "Loading your next step" });
  await expect(pending).toBeVisible();
  const video = page.getByRole("button", { name: "Watch the introduction" });
  const before = await video.boundingBox();
  releaseProgress();
  await expect(page.getByRole("region", { name: "Start learning" })).toContainText("Beginner Program");
  await expect(pending).toHaveCount(0);
  const after = await video.boundingBox();
  // The card fills the room its frame kept: the video under it moves by one line at most (a lesson
  // title that wraps in the button), where it moved by the whole card (some 220 px) before.
  expect(Math.abs((after?.y ?? 0) - (before?.y ?? 0))).toBeLessThanOrEqual(30);
  const shifted = await page.evaluate(() => (window as unknown as { layoutShifts: number[] }).layoutShifts.reduce((sum, value) => sum + value, 0));
  expect(shifted).toBeLessThan(0.05);
});
