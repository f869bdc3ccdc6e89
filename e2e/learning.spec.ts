import { expect, test, type Page } from "@playwright/test";
import { DEFAULT_PASSWORD, logIn, signedInAccount, uniqueEmail } from "./support/accounts.ts";
import { setPlanWithCli } from "./support/operator.ts";

function section(page: Page, n: number) {
  return page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: new RegExp(`^Section ${n}:`) }) });
}

test("a free learner studies Beginner: watch, the quiz unlocks, Correct and Incorrect, progress kept", async ({
  page,
  context,
  request,
}, testInfo) => {
  const email = uniqueEmail(testInfo);
  await signedInAccount(context, request, { email });

  await page.goto("/program");
  const beginnerCard = page.locator(".program-card").filter({ hasText: "Beginner Program" });
  await expect(beginnerCard.getByRole("button", { name: "Start" })).toBeVisible();
  await beginnerCard.getByRole("button", { name: "Start" }).click();
  await expect(page).toHaveURL("/program/beginner");

  await expect(page.getByText("0 of 3 videos watched")).toBeVisible();
  await expect(page.getByText("Watch Section 1 to unlock this quiz.")).toBeVisible();
  const first = section(page, 1);
  await expect(first.locator("iframe")).toHaveAttribute("src", /^https:\/\/www\.youtube-nocookie\.com\/embed\/[\w-]+\?rel=0$/);

  await first.getByRole("button", { name: "Mark as Watched" }).click();
  await expect(first.getByRole("button", { name: "Watched" })).toBeVisible();
  await expect(page.getByText("1 of 3 videos watched")).toBeVisible();
  await expect(page.getByText("Watch Section 1 to unlock this quiz.")).toHaveCount(0);

  const q1 = page.locator(".quiz-question").nth(0);
  await q1.getByRole("button", { name: /^A\)/ }).click();
  await expect(q1.getByRole("status")).toHaveText("Correct");
  const q2 = page.locator(".quiz-question").nth(1);
  await q2.getByRole("button", { name: /^A\)/ }).click();
  await expect(q2.getByRole("status")).toHaveText("Incorrect");

  await page.goto("/program");
  await expect(beginnerCard.getByRole("button", { name: "Continue" })).toBeVisible();

  // Log out and back in: the progress and the answers are still there.
  await page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Logout" }).click();
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Login" })).toBeVisible();
  await page.goto("/program/beginner");
  await expect(page).toHaveURL(/\/login\?redirect=%2Fprogram%2Fbeginner$/);
  await logIn(page, email, DEFAULT_PASSWORD);
  await expect(page).toHaveURL("/program/beginner");
  await expect(page.getByText("1 of 3 videos watched")).toBeVisible();
  await expect(section(page, 1).getByRole("button", { name: "Watched" })).toBeVisible();
  await expect(page.locator(".quiz-question").nth(0).getByRole("status")).toHaveText("Correct");
});

test("a free learner is stopped at Intermediate with the premium message", async ({ page, context, request }, testInfo) => {
  await signedInAccount(context, request, { email: uniqueEmail(testInfo) });
  await page.goto("/program/intermediate");
  await expect(page.getByRole("main").getByText("Available to Premium users only")).toBeVisible();
  await expect(page.locator("iframe")).toHaveCount(0);

  await page.goto("/program");
  await page.locator(".program-card").filter({ hasText: "Intermediate Program" }).getByRole("button").click();
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
  await expect(section(page, 1).locator("iframe")).toBeVisible();
  await page.goto("/program/advanced");
  await expect(page.getByRole("main").getByText("Available to Premium users only")).toBeVisible();
});

test("an unknown track says so", async ({ page, context, request }, testInfo) => {
  await signedInAccount(context, request, { email: uniqueEmail(testInfo) });
  await page.goto("/program/expert");
  await expect(page.getByText("Program not found.")).toBeVisible();
});
