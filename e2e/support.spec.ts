// The support the plans promise (docs/product.md, "Questions and mentorship"): a learner asks under
// a lesson and reads the Academy team's answer; an Advanced learner asks for a 1-on-1 session and
// sees it confirmed, in Accra time, and one who loses Advanced sees the request cancelled with the
// reason. Each state a person reaches is checked with axe on the way.
import { expect, test, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { mailFor, signedInAccount, uniqueEmail } from "./support/accounts.ts";
import { expectNoAxeViolations } from "./support/axe.ts";
import { setPlanWithCli } from "./support/operator.ts";

test.use({ reducedMotion: "reduce" });

async function signedInAdmin(browser: Browser, email: string): Promise<BrowserContext> {
  const context = await browser.newContext({ reducedMotion: "reduce" });
  await signedInAccount(context, context.request, { email, name: "Kofi Admin" });
  await setPlanWithCli(email, "admin");
  return context;
}

function questions(page: Page) {
  return page.getByRole("region", { name: "Questions about this lesson" });
}

test("a learner asks a question under a lesson and reads the Academy team's answer", async ({ page, context, browser, request }, testInfo) => {
  test.slow(); // two people, each signed up and signed in
  const learnerEmail = uniqueEmail(`learner ${testInfo.title}`);
  await signedInAccount(context, request, { email: learnerEmail, name: "Ama Mensah" });
  const admin = await signedInAdmin(browser, uniqueEmail(`admin ${testInfo.title}`));
  const question = `Why does the spread widen at night? (${Date.now()})`;

  // The course opens at the first lesson, the questions under it.
  await page.goto("/program/beginner");
  await expect(page).toHaveURL(/\/program\/beginner\/[0-9a-f-]{36}/);
  const lessonUrl = page.url();
  const section = questions(page);
  // The questions come as the learner scrolls to them, not with the lesson.
  await expect(section.getByRole("heading", { name: "Questions about this lesson" })).toBeVisible();
  await section.scrollIntoViewIfNeeded();
  // Other learners may have asked here already (the browser suites share one database): the
  // section has loaded either way.
  await expect(section.getByRole("button", { name: "Post question" })).toBeVisible();
  await expect(section.getByText(/Loading questions/)).toHaveCount(0);
  await section.getByRole("button", { name: "Post question" }).click();
  await expect(section.getByRole("alert")).toHaveText("Write your question before posting it.");
  await section.getByLabel("Your question").fill(question);
  await section.getByRole("button", { name: "Post question" }).click();
  await expect(section.getByText("Your question is posted. You will get an email when someone answers it.")).toBeVisible();
  await expect(section.getByRole("article").filter({ hasText: question })).toBeVisible();
  await expectNoAxeViolations(page, "a lesson with a question");

  // The admin finds it first in the console, unanswered, and answers it there.
  const adminPage = await admin.newPage();
  await adminPage.goto("/admin?tab=questions");
  const thread = adminPage.getByRole("article").filter({ hasText: question });
  await expect(thread.getByText("Unanswered")).toBeVisible();
  await thread.getByRole("button", { name: "Answer" }).click();
  await thread.getByLabel("Your answer").fill("Liquidity is thin between sessions, so brokers quote wider.");
  await expectNoAxeViolations(adminPage, "/admin?tab=questions with an answer being written");
  await thread.getByRole("button", { name: "Post answer" }).click();
  await expect(thread.getByText("Liquidity is thin between sessions")).toBeVisible();
  await expect(thread.getByText("Unanswered")).toHaveCount(0);
  await thread.getByRole("button", { name: "Pin" }).click();
  await expect(thread.getByText("Pinned", { exact: true })).toBeVisible();

  // The learner sees it under the lesson, from the Academy team, and was emailed.
  await page.goto(lessonUrl);
  await questions(page).scrollIntoViewIfNeeded();
  const answered = questions(page).getByRole("article").filter({ hasText: question });
  await expect(answered.getByText("Liquidity is thin between sessions")).toBeVisible();
  await expect(answered.getByText("Academy team")).toBeVisible();
  await expect(answered.getByText("Pinned", { exact: true })).toBeVisible();
  await expectNoAxeViolations(page, "a lesson with an answered question");
  await expect
    .poll(async () => (await mailFor(request, learnerEmail)).map((mail) => mail.subject), { timeout: 15_000 })
    .toContainEqual(expect.stringMatching(/^New answer to your question on "/));
  await admin.close();
});

test("an Advanced learner asks for a 1-on-1 session and sees it confirmed in Accra time", async ({ page, context, browser, request }, testInfo) => {
  test.slow();
  const learnerEmail = uniqueEmail(`learner ${testInfo.title}`);
  await signedInAccount(context, request, { email: learnerEmail, name: "Ama Mensah" });
  const admin = await signedInAdmin(browser, uniqueEmail(`admin ${testInfo.title}`));

  // Before Advanced: what the plan includes, and the way to it.
  await page.goto("/mentorship");
  await expect(page.getByRole("heading", { name: "1-on-1 mentorship is part of the Advanced plan." })).toBeVisible();
  await expect(page.getByRole("link", { name: "See the Advanced plan" })).toHaveAttribute("href", "/subscription");

  await setPlanWithCli(learnerEmail, "advanced");
  await page.reload();
  const topic = `Position sizing on gold (${Date.now()})`;
  await page.getByLabel("What would you like to work on?").fill(topic);
  await page.getByRole("button", { name: "Request a session" }).click();
  await expect(page.getByRole("alert")).toHaveText("Tell us a few days and times that suit you.");
  await page.getByLabel("When can you meet?").fill("Weekday evenings after 18:00");
  await page.getByRole("button", { name: "Request a session" }).click();
  await expect(page.getByText("Request sent. We will email you when a time is confirmed.")).toBeVisible();
  const mine = page.getByRole("listitem").filter({ hasText: topic });
  await expect(mine.getByText("Waiting for a time")).toBeVisible();
  await expectNoAxeViolations(page, "/mentorship with a request waiting");

  const adminPage = await admin.newPage();
  await adminPage.goto("/admin?tab=mentorship");
  const row = adminPage.getByRole("row").filter({ hasText: topic });
  await row.getByRole("button", { name: "Confirm" }).click();
  const dialog = adminPage.getByRole("dialog");
  await dialog.getByLabel("Session time (Accra time)").fill("2099-03-14T15:00");
  await dialog.getByLabel("Note to the learner (optional)").fill("Bring your trading journal.");
  await expectNoAxeViolations(adminPage, "the mentorship confirmation dialog");
  await dialog.getByRole("button", { name: "Confirm session" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(row.getByText("Saturday 14 March 2099 at 15:00 (Accra time)")).toBeVisible();

  await page.reload();
  await expect(mine.getByText("Confirmed", { exact: true })).toBeVisible();
  await expect(mine.getByText("Saturday 14 March 2099 at 15:00 (Accra time)")).toBeVisible();
  await expect(mine.getByText("Bring your trading journal.")).toBeVisible();
  await expectNoAxeViolations(page, "/mentorship with a confirmed session");
  await expect
    .poll(async () => (await mailFor(request, learnerEmail)).map((mail) => mail.subject), { timeout: 15_000 })
    .toContain("Your mentorship session: Saturday 14 March 2099 at 15:00 (Accra time)");
  await admin.close();
});

test("a learner who loses Advanced sees their request cancelled with the reason, and the admin can no longer confirm it", async ({ page, context, browser, request }, testInfo) => {
  const learnerEmail = uniqueEmail(`learner ${testInfo.title}`);
  await signedInAccount(context, request, { email: learnerEmail, name: "Yaw Boateng" });
  await setPlanWithCli(learnerEmail, "advanced");
  const admin = await signedInAdmin(browser, uniqueEmail(`admin ${testInfo.title}`));

  await page.goto("/mentorship");
  const topic = `Reading the order book (${Date.now()})`;
  await page.getByLabel("What would you like to work on?").fill(topic);
  await page.getByLabel("When can you meet?").fill("Saturday morning");
  await page.getByRole("button", { name: "Request a session" }).click();
  const mine = page.getByRole("listitem").filter({ hasText: topic });
  await expect(mine.getByText("Waiting for a time")).toBeVisible();

  // An operator's plan change away from Advanced cancels the request (docs/product.md).
  await setPlanWithCli(learnerEmail, "intermediate");
  const reason = "Cancelled because your Advanced plan was changed by the Academy team. 1-on-1 mentorship is part of the Advanced plan.";
  await page.reload();
  await expect(mine.getByText("Cancelled", { exact: true })).toBeVisible();
  await expect(mine.getByText(reason)).toBeVisible();
  await expectNoAxeViolations(page, "/mentorship with a request cancelled for a lost plan");

  const adminPage = await admin.newPage();
  await adminPage.goto("/admin?tab=mentorship");
  const row = adminPage.getByRole("row").filter({ hasText: topic });
  await expect(row.getByText("Cancelled", { exact: true })).toBeVisible();
  await expect(row.getByText(reason)).toBeVisible();
  await expect(row.getByRole("button", { name: "Confirm" })).toHaveCount(0);

  await expect
    .poll(async () => (await mailFor(request, learnerEmail)).filter((mail) => mail.subject === "Your mentorship request was cancelled").length, {
      timeout: 15_000,
    })
    .toBe(1);
  await admin.close();
});
