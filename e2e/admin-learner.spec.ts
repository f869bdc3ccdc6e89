// A learner's page in the admin console (docs/admin.md, "Learner page"): an administrator follows a
// learner's email from the Users tab, reads what the academy knows about them, and changes their
// plan and progress from the page, which shows each change at once. Checked with axe, at a phone's
// 360 px and a laptop's 1280 px.
import { expect, test, type Page } from "@playwright/test";
import { horizontalOverflow, newSignedInContext, signedInAccount, uniqueEmail } from "./support/accounts.ts";
import { expectNoAxeViolations } from "./support/axe.ts";
import { setPlanWithCli } from "./support/operator.ts";

test.use({ reducedMotion: "reduce" });

function section(page: Page, name: RegExp | string) {
  return page.getByRole("region", { name });
}

async function expectToast(page: Page, text: string) {
  await expect(page.getByText(text, { exact: true })).toBeVisible();
}

test("a learner's page", async ({ page, context, browser }, testInfo) => {
  test.slow(); // two people, each signed up and signed in, and a question asked under a lesson
  const adminEmail = uniqueEmail(`admin ${testInfo.title}`);
  await signedInAccount(context, context.request, { email: adminEmail, name: "Kofi Admin" });
  await setPlanWithCli(adminEmail, "admin");
  const learnerEmail = uniqueEmail(`learner ${testInfo.title}`);
  const learner = await newSignedInContext(browser, { email: learnerEmail, name: "Ama Mensah" }, { reducedMotion: "reduce" });

  // The learner asks a question under the first Beginner lesson.
  const learnerPage = await learner.newPage();
  await learnerPage.goto("/program/beginner");
  await expect(learnerPage).toHaveURL(/\/program\/beginner\/[0-9a-f-]{36}/);
  const lessonPath = new URL(learnerPage.url()).pathname;
  const question = `What is a pip? (${Date.now()})`;
  const questions = learnerPage.getByRole("region", { name: "Questions about this lesson" });
  await questions.scrollIntoViewIfNeeded();
  await questions.getByLabel("Your question").fill(question);
  await questions.getByRole("button", { name: "Post question" }).click();
  await expect(questions.getByRole("article").filter({ hasText: question })).toBeVisible();
  await learner.close();

  // From the Users tab, the learner's email opens their page.
  await page.goto(`/admin?tab=users&q=${encodeURIComponent(learnerEmail)}`);
  await page.getByRole("row").filter({ hasText: learnerEmail }).getByRole("link", { name: learnerEmail }).click();
  await expect(page).toHaveURL(/\/admin\/users\/[^/]+$/);
  const learnerPath = new URL(page.url()).pathname;
  await expect(page.getByRole("heading", { level: 1, name: "Ama Mensah" })).toBeVisible();
  await expect(page).toHaveTitle("Ama Mensah · Trading Academy");

  const profile = section(page, "Profile");
  await expect(profile.getByText(learnerEmail)).toBeVisible();
  await expect(profile.getByText("(verified)")).toBeVisible();
  await expect(profile.getByText("Email and password")).toBeVisible();
  await expect(section(page, /^Payments/).getByText("No payments yet.")).toBeVisible();
  await expect(section(page, /^Plan$/).getByText("No plan changes recorded yet.")).toBeVisible();
  await expect(section(page, /^Plan$/).getByText("Not on the waitlist.")).toBeVisible();
  await expect(section(page, /^Quiz answers/).getByText("No quiz answers yet.")).toBeVisible();
  await expect(section(page, /^Certificates/).getByText("No certificates yet.")).toBeVisible();
  const asked = section(page, /^Questions asked/);
  await expect(asked.getByRole("row").filter({ hasText: question }).getByRole("link")).toHaveAttribute("href", lessonPath);
  await expect(page.getByRole("button", { name: "Admit from Waitlist" })).toBeDisabled();
  await expectNoAxeViolations(page, "a learner's page");

  // The plan, changed from the page: the badge, the history and the audit entries follow.
  await page.getByLabel(`Plan for ${learnerEmail}`).selectOption("intermediate");
  await expectToast(page, "Updated user subscription to intermediate");
  await expect(page.locator(".learner-subtitle .badge")).toHaveText("Intermediate");
  const history = section(page, "Plan history, newest first");
  await expect(history.getByRole("row").filter({ hasText: "Plan changed" })).toContainText(adminEmail);
  await expect(history.getByRole("row").filter({ hasText: "Plan changed" })).toContainText("Free (Beginner), inactive");
  await expect(section(page, /^Audit entries/).getByRole("row").filter({ hasText: "plan.set" })).toContainText(adminEmail);

  // Progress, edited from the page: the first Beginner video ticked.
  const progress = section(page, "Progress per program");
  const beginner = progress.getByRole("row").filter({ hasText: "Beginner" });
  await expect(beginner).toContainText(/^Beginner.*0 of \d+/);
  await page.getByRole("button", { name: "Edit Progress" }).click();
  const dialog = page.getByRole("dialog", { name: `Edit Progress for ${learnerEmail}` });
  await dialog.getByRole("group", { name: /Beginner/ }).getByRole("checkbox").first().check();
  await dialog.getByRole("button", { name: "Save" }).click();
  await expectToast(page, "User progress updated!");
  await expect(dialog).toHaveCount(0);
  await expect(beginner).toContainText(/1 of \d+/);
  await expect(beginner).not.toContainText("Not started");
  await expect(section(page, /^Audit entries/).getByRole("row").filter({ hasText: "progress.edited" })).toBeVisible();

  // Certificates: the console's dialog, without a link back to this very page.
  await page.getByRole("button", { name: "Certificates" }).click();
  const certificates = page.getByRole("dialog", { name: `Certificates of ${learnerEmail}` });
  await expect(certificates.getByText("No certificates yet.")).toBeVisible();
  await expect(certificates.getByRole("link")).toHaveCount(0);
  await expectNoAxeViolations(page, "a learner's page with the certificates dialog");
  await certificates.getByRole("button", { name: "Close", exact: true }).click();
  await expectNoAxeViolations(page, "a learner's page after a plan change and a progress edit");

  // The audit log links the learner's email back here.
  await page.goto(`/admin?tab=audit&user=${encodeURIComponent(learnerEmail)}`);
  await page.getByRole("row").filter({ hasText: "plan.set" }).getByRole("link", { name: learnerEmail }).click();
  await expect(page).toHaveURL(learnerPath);
  await expect(page.getByRole("heading", { level: 1, name: "Ama Mensah" })).toBeVisible();

  // At a phone's width and a laptop's, the page never scrolls sideways: wide tables scroll in their box.
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    await expect(page.getByRole("heading", { level: 1, name: "Ama Mensah" })).toBeVisible();
    expect(await horizontalOverflow(page), `the learner page at ${width} px`).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `test-results/screens/admin-learner-${width}.png`, fullPage: true });
  }
  await expectNoAxeViolations(page, "a learner's page at 1280 px");

  // An id that is no user's: said plainly, with the way back.
  await page.goto("/admin/users/no-such-user");
  await expect(page.getByRole("heading", { level: 1, name: "No such user." })).toBeVisible();
  await expect(page).toHaveTitle("No such user · Trading Academy");
  await expectNoAxeViolations(page, "the learner page of an unknown id");
  await page.getByRole("link", { name: "Back to the users" }).click();
  await expect(page).toHaveURL(/\/admin\?tab=users$/);
});
