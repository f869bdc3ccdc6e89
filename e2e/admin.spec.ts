import { readFile } from "node:fs/promises";
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { signedInAccount, uniqueEmail } from "./support/accounts.ts";
import { expectNoAxeViolations } from "./support/axe.ts";
import { setPlanWithCli } from "./support/operator.ts";

/** A signed-in administrator in `context`: registered, verified, then given the plan by the operator. */
async function signedInAdmin(context: BrowserContext, request: Parameters<typeof signedInAccount>[1], email: string) {
  await signedInAccount(context, request, { email, name: "Kofi Admin" });
  await setPlanWithCli(email, "admin");
}

function tab(page: Page, name: string) {
  return page.getByRole("tab", { name: new RegExp(`^${name} \\(\\d+\\)$`) });
}

function row(page: Page, text: string) {
  return page.getByRole("row").filter({ hasText: text });
}

async function expectToast(page: Page, text: string) {
  await expect(page.getByText(text, { exact: true })).toBeVisible();
}

/** The simulator's checkout, opened by Paystack's inline script in a frame over the page. */
function checkout(page: Page) {
  return page.frameLocator('iframe[title="Paystack checkout (test mode)"]');
}

test("an admin rebuilds the Advanced program with two modules and a quiz, and an Advanced learner studies it", async ({
  page,
  context,
  browser,
  request,
}, testInfo) => {
  test.slow(); // two people, each signed up, verified and signed in, and a whole program built
  await signedInAdmin(context, request, uniqueEmail(`admin ${testInfo.title}`));
  const learnerEmail = uniqueEmail(`learner ${testInfo.title}`);
  const learnerContext = await browser.newContext();
  await signedInAccount(learnerContext, request, { email: learnerEmail });
  await setPlanWithCli(learnerEmail, "advanced");

  await page.goto("/admin?tab=programs");
  await expect(page.getByRole("heading", { name: "Admin Dashboard" })).toBeVisible();
  await expect(tab(page, "Programs")).toHaveAttribute("aria-selected", "true");
  await expect(tab(page, "Programs")).toHaveText("Programs (3)");

  // Delete the seeded Advanced program, after the spec's confirmation.
  await row(page, "Advanced Program").getByRole("button", { name: "Delete" }).click();
  const confirm = page.getByRole("dialog");
  await expect(confirm).toContainText("Are you sure you want to delete this program? This will remove all related data.");
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expectToast(page, "Program and all related data deleted successfully!");
  await expect(tab(page, "Programs")).toHaveText("Programs (2)");

  // Add it again, with two new modules.
  const form = page.getByRole("region", { name: "Add New Program" });
  await form.getByLabel("Program ID").fill("advanced");
  await form.getByLabel("Level").selectOption("Advanced");
  await form.getByLabel("Title", { exact: true }).fill("Advanced Program");
  await form.getByLabel("Duration", { exact: true }).fill("4 weeks");
  await form.getByLabel("Price (USD)", { exact: true }).fill("50");
  await form.getByLabel("Display Order", { exact: true }).fill("3");
  await form.getByLabel("Description (comma-separated)").fill("Risk management, Trading psychology");

  const addModule = form.getByRole("button", { name: "Add Module" });
  await expect(addModule).toBeDisabled();
  await form.getByLabel("Module Title", { exact: true }).fill("Position sizing");
  await form.getByLabel("YouTube Video ID", { exact: true }).fill("https://www.youtube.com/watch?v=dQw4w9WgXcQ");
  await addModule.click();
  await form.getByLabel("Module Title", { exact: true }).fill("Keeping a trading journal");
  await form.getByLabel("Module Description", { exact: true }).fill("Write down every trade and why.");
  await form.getByLabel("YouTube Video ID", { exact: true }).fill("9bZkp7q19f0");
  await addModule.click();
  await expect(form.getByRole("link", { name: /Watch on YouTube/ })).toHaveCount(2);
  await expect(form.getByRole("link", { name: /Watch on YouTube/ }).first()).toHaveAttribute(
    "href",
    "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
  );
  await form.getByRole("button", { name: "Save Program" }).click();
  await expectToast(page, "Program saved successfully!");
  await expect(tab(page, "Programs")).toHaveText("Programs (3)");

  // Its quiz, through the quiz modal.
  await row(page, "Advanced Program").getByRole("button", { name: "Manage Quiz" }).click();
  const quiz = page.getByRole("dialog", { name: "Manage Quiz for Advanced Program" });
  await quiz.getByLabel("Quiz Title", { exact: true }).fill("Advanced Quiz");
  await quiz.getByLabel("Question", { exact: true }).fill("How much of your account should one trade risk?");
  await quiz.getByLabel("Options (comma-separated)").fill("A) About 1%, B) Half of it");
  await quiz.getByLabel("Answer", { exact: true }).fill("A");
  await quiz.getByRole("button", { name: "Add Question" }).click();
  await expect(quiz.getByText("How much of your account should one trade risk?")).toBeVisible();
  await quiz.getByRole("button", { name: "Save Quiz" }).click();
  await expectToast(page, "Quiz saved successfully!");

  // A new program is a draft until published; Publish says what learners will see first.
  await expect(row(page, "Advanced Program")).toContainText("Draft");
  await row(page, "Advanced Program").getByRole("button", { name: "Publish" }).click();
  const publish = page.getByRole("dialog", { name: "Publish Advanced Program?" });
  await expect(publish).toContainText(
    "Learners will see the program itself, 2 new lessons and 1 new quiz question. No learner has completed this program yet.",
  );
  await publish.getByRole("button", { name: "Publish" }).click();
  await expectToast(page, "Advanced Program: published. Learners see it now.");
  await expect(row(page, "Advanced Program")).not.toContainText("Draft");

  // The Advanced learner sees the new program.
  const learner = await learnerContext.newPage();
  await learner.goto("/program/advanced");
  await expect(learner.getByRole("heading", { name: "Section 1: Position sizing" })).toBeVisible();
  const curriculum = learner.getByRole("navigation", { name: "Course content" });
  await expect(curriculum.getByRole("link", { name: /^Section 2 Keeping a trading journal/ })).toBeVisible();
  await learner.getByRole("button", { name: "Mark as Watched" }).first().click();
  const question = learner.locator(".quiz-question").first();
  await expect(question).toContainText("How much of your account should one trade risk?");
  await question.getByRole("button", { name: /^A\)/ }).click();
  await expect(question.getByRole("status")).toHaveText("Correct");
  await learnerContext.close();
});

test("an admin changes a learner's plan and admits a waitlisted learner", async ({ page, context, browser, request }, testInfo) => {
  test.slow(); // three people, and a checkout
  await signedInAdmin(context, request, uniqueEmail(`admin ${testInfo.title}`));
  const learnerEmail = uniqueEmail(`learner ${testInfo.title}`);
  const waitlisterEmail = uniqueEmail(`waitlister ${testInfo.title}`);
  const learnerContext = await browser.newContext();
  await signedInAccount(learnerContext, request, { email: learnerEmail });

  // A learner pays for the Advanced waitlist through the checkout.
  const waitlisterContext = await browser.newContext();
  await signedInAccount(waitlisterContext, request, { email: waitlisterEmail });
  const waitlister = await waitlisterContext.newPage();
  await waitlister.goto("/join-waitlist");
  const advanced = waitlister.locator(".card").filter({ has: waitlister.getByRole("heading", { name: "Advanced track" }) });
  await advanced.getByRole("button", { name: "Pay for 1 Month & Join Waitlist" }).click();
  await checkout(waitlister).getByRole("button", { name: "Pay" }).click();
  await expect(waitlister).toHaveURL(/\/join-waitlist\/success\?reference=LTF-WAITLIST-ADVANCED-/);

  // The plan selector changes the plan at once.
  await page.goto("/admin?tab=users");
  await page.getByLabel("Search by email").fill(learnerEmail);
  const learnerRow = row(page, learnerEmail);
  await expect(learnerRow).toHaveCount(1);
  await expect(learnerRow).toContainText("Free (Beginner)");
  await learnerRow.getByLabel(`Plan for ${learnerEmail}`).selectOption("intermediate");
  await expectToast(page, "Updated user subscription to intermediate");
  await expect(learnerRow).toContainText("active");
  const learner = await learnerContext.newPage();
  await learner.goto("/program/intermediate");
  await expect(learner.getByRole("heading", { name: /^Section 1:/ })).toBeVisible();
  await learnerContext.close();

  // The waitlisted learner is admitted from the Waitlist tab and gets the Advanced track.
  await tab(page, "Waitlist").click();
  const waitlistRow = row(page, waitlisterEmail);
  await expect(waitlistRow).toContainText("advanced");
  await waitlistRow.getByRole("button", { name: "Admit from Waitlist" }).click();
  await expectToast(page, `Admitted ${waitlisterEmail} from waitlist and activated subscription.`);
  await expect(waitlistRow.getByRole("button", { name: "Admit from Waitlist" })).toHaveCount(0);

  await waitlister.goto("/program/advanced");
  await expect(waitlister.getByRole("heading", { name: /^Section 1:/ })).toBeVisible();
  await waitlisterContext.close();

  // Both changes are in the audit log.
  await tab(page, "Audit").click();
  await expect(row(page, waitlisterEmail).first()).toContainText("waitlist.admitted");
  await expect(row(page, learnerEmail).first()).toContainText("plan.set");
});

test("an admin exports the users as CSV", async ({ page, context, request }, testInfo) => {
  const adminEmail = uniqueEmail(`admin ${testInfo.title}`);
  await signedInAdmin(context, request, adminEmail);

  await page.goto("/admin?tab=users");
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Export as CSV" }).click(),
  ]);
  expect(download.suggestedFilename()).toBe("users.csv");
  const csv = await readFile(await download.path(), "utf8");
  const lines = csv.trim().split(/\r?\n/);
  expect(lines[0]).toBe("Email,UID,SubscriptionPlan,Provider,Status,SubscriptionEnd,LastActive");
  const mine = lines.find((line) => line.startsWith(`${adminEmail},`));
  expect(mine).toMatch(new RegExp(`^${adminEmail.replace(/[.+]/g, "\\$&")},[^,]+,admin,email,inactive,N/A,\\d{4}-\\d{2}-\\d{2}$`));
});

test("an admin ticks a learner's watched videos in Edit Progress, and the learner sees them", async ({ page, context, browser, request }, testInfo) => {
  await signedInAdmin(context, request, uniqueEmail(`admin ${testInfo.title}`));
  const learnerEmail = uniqueEmail(`learner ${testInfo.title}`);
  const learnerContext = await browser.newContext();
  await signedInAccount(learnerContext, request, { email: learnerEmail });

  await page.goto("/admin?tab=users");
  await page.getByLabel("Search by email").fill(learnerEmail);
  await row(page, learnerEmail).getByRole("button", { name: "Edit Progress" }).click();
  const dialog = page.getByRole("dialog", { name: `Edit Progress for ${learnerEmail}` });
  const beginner = dialog.getByRole("group", { name: "Beginner Program" });
  // Each video by its title as learners see it, and the quiz as the learner left it; no JSON.
  await expect(beginner.getByRole("checkbox")).toHaveCount(3);
  await expect(beginner.getByRole("checkbox", { name: "Section 1: Welcome to the markets" })).not.toBeChecked();
  await expect(beginner).toContainText("Quiz: Beginner Program Quiz, not passed (0 of");
  await expect(dialog.getByRole("textbox")).toHaveCount(0);

  await beginner.getByRole("checkbox", { name: "Section 1: Welcome to the markets" }).check();
  await beginner.getByRole("checkbox", { name: "Section 3: Support and resistance" }).check();
  await dialog.getByRole("button", { name: "Save" }).click();
  await expectToast(page, "User progress updated!");
  await expect(dialog).toHaveCount(0);

  await row(page, learnerEmail).getByRole("button", { name: "Edit Progress" }).click();
  await expect(beginner.getByRole("checkbox", { name: "Section 1: Welcome to the markets" })).toBeChecked();
  await expect(beginner.getByRole("checkbox", { name: "Section 2: Reading candlestick charts" })).not.toBeChecked();
  await page.keyboard.press("Escape");

  const learner = await learnerContext.newPage();
  await learner.goto("/program");
  // Videos 1 and 3 watched: the next one is the second.
  await expect(learner.getByRole("main")).toContainText("Continue: Reading candlestick charts");
  await learnerContext.close();

  await page.getByRole("tab", { name: /^Audit/ }).click();
  await expect(row(page, learnerEmail).first()).toContainText("progress.edited");
});

test("an admin sees under Messages the emails not sent", async ({ page, context, request }, testInfo) => {
  await signedInAdmin(context, request, uniqueEmail(testInfo));
  await page.goto("/admin?tab=messages");
  const section = page.getByRole("region", { name: "Email not sent" });
  // The development mailbox takes every email: none is left failing.
  await expect(section.getByText("Every email has gone through.")).toBeVisible();
  await expectNoAxeViolations(page, "the admin's Messages tab with the emails not sent");
});
