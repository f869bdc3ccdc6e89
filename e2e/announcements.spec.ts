// Announcements (docs/admin.md, "Announcements"): an administrator writes one, previews it, sends
// it; learners find it in the development mailbox, and one unsubscribes with its link.
import { expect, test, type Page } from "@playwright/test";
import { ANNOUNCEMENT_MESSAGES } from "../src/shared/contracts/announcements.ts";
import { mailFor, readLinkFromMail, signedInAccount, uniqueEmail } from "./support/accounts.ts";
import { expectNoAxeViolations } from "./support/axe.ts";
import { setPlanWithCli } from "./support/operator.ts";

test.use({ reducedMotion: "reduce" });

/** "This announcement will reach 3 learners." -> 3 */
async function reach(page: Page): Promise<number> {
  const status = page.getByRole("status").filter({ hasText: /^This announcement will reach/ });
  await expect(status).toBeVisible();
  const match = /reach ([\d,]+) learners?\./.exec((await status.textContent()) ?? "");
  return Number(match?.[1]?.replace(/,/g, ""));
}

test("an announcement previewed, sent and received in the development mailbox", async ({ page, context, browser, request }, testInfo) => {
  test.slow(); // three people signed up, and a job that sends while the page polls
  const adminEmail = uniqueEmail(`admin ${testInfo.title}`);
  await signedInAccount(context, request, { email: adminEmail, name: "Kofi Admin" });
  await setPlanWithCli(adminEmail, "admin");
  const learners = [uniqueEmail("announcement learner one"), uniqueEmail("announcement learner two")];
  const learnerContext = await browser.newContext();
  for (const email of learners) {
    await signedInAccount(learnerContext, request, { email, name: "Ama Mensah" });
    await setPlanWithCli(email, "advanced");
  }
  const subject = `Live session on risk, ${testInfo.title.length}-${Date.now()}`;

  await page.goto("/admin?tab=announcements");
  const compose = page.getByRole("region", { name: "New announcement" });
  await expect(compose).toBeVisible();

  // Nothing written: a message next to each field, and nothing previewed.
  await compose.getByRole("button", { name: "Preview" }).click();
  await expect(compose.getByText(ANNOUNCEMENT_MESSAGES.subjectRequired)).toBeVisible();
  await expect(compose.getByText(ANNOUNCEMENT_MESSAGES.bodyRequired)).toBeVisible();
  await expect(compose.getByText(ANNOUNCEMENT_MESSAGES.audienceRequired)).toBeVisible();
  await expect(compose.getByLabel("Subject")).toBeFocused();
  await expect(compose.getByLabel("Subject")).toHaveAttribute("aria-invalid", "true");

  await compose.getByLabel("Subject").fill(subject);
  await compose.getByLabel("Message").fill("Join us on Friday at 18:00 Accra time.\n\nBring your trading journal.");
  await compose.getByLabel("Audience").selectOption({ label: "Learners on a plan" });
  await compose.getByRole("button", { name: "Preview" }).click();
  await expect(compose.getByText(ANNOUNCEMENT_MESSAGES.planRequired)).toBeVisible();
  await compose.getByLabel("Plan").selectOption({ label: "Advanced" });
  await compose.getByRole("button", { name: "Preview" }).click();

  const recipients = await reach(page);
  expect(recipients).toBeGreaterThanOrEqual(learners.length);
  const email = page.frameLocator('iframe[title="The email as learners receive it"]');
  await expect(email.getByRole("heading", { name: subject })).toBeVisible();
  await expect(email.getByText("Hello Kofi Admin,")).toBeVisible();
  await expect(email.getByText("Bring your trading journal.")).toBeVisible();
  await expect(email.getByText(ANNOUNCEMENT_MESSAGES.footer)).toBeVisible();
  await expectNoAxeViolations(page, "the Announcements tab with a preview");
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), `sideways at ${width}px`).toBeLessThanOrEqual(0);
    await page.screenshot({ path: testInfo.outputPath(`announcement-preview-${width}.png`), fullPage: true });
  }

  // A change after the preview must be previewed again before it can be sent.
  await compose.getByLabel("Message").fill("Join us on Friday at 18:00 Accra time.\n\nBring your trading journal!");
  await expect(page.getByText(ANNOUNCEMENT_MESSAGES.previewStale)).toBeVisible();
  await expect(page.getByRole("button", { name: /^Send to/ })).toHaveCount(0);
  await compose.getByRole("button", { name: "Preview" }).click();
  await expect(email.getByText("Bring your trading journal!")).toBeVisible();

  await page.getByRole("button", { name: ANNOUNCEMENT_MESSAGES.sendLabel(recipients) }).click();
  const confirm = page.getByRole("dialog", { name: ANNOUNCEMENT_MESSAGES.sendTitle });
  await expect(confirm).toContainText(ANNOUNCEMENT_MESSAGES.sendConfirm(subject, recipients));
  await expectNoAxeViolations(page, "the send confirmation");
  await confirm.getByRole("button", { name: ANNOUNCEMENT_MESSAGES.sendLabel(recipients) }).click();
  await expect(page.getByText(ANNOUNCEMENT_MESSAGES.started(recipients))).toBeVisible();
  await expect(compose.getByLabel("Subject")).toHaveValue("");

  // The list follows the job until every learner has it.
  const row = page.getByRole("row").filter({ hasText: subject });
  await expect(row).toContainText("Plan: Advanced");
  await expect(row.getByText("Sent", { exact: true })).toBeVisible({ timeout: 20_000 });
  await expect(row).toContainText(`${recipients.toLocaleString()} of ${recipients.toLocaleString()} sent`);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: testInfo.outputPath("announcement-sent-1280.png"), fullPage: true });
  await expectNoAxeViolations(page, "the Announcements tab with a sent announcement");

  // Each learner received it once, with their own unsubscribe link.
  for (const learner of learners) {
    const mails = (await mailFor(request, learner)).filter((mail) => mail.subject === subject);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.text).toContain("Hello Ama Mensah,");
    expect(mails[0]?.text).toContain("Bring your trading journal!");
  }

  // One of them leaves: opening the link changes nothing, the button does.
  const link = await readLinkFromMail(request, learners[0] ?? "", "/unsubscribe");
  const reader = await learnerContext.newPage();
  await reader.goto(link);
  await expect(reader.getByRole("heading", { name: "Unsubscribe from announcements" })).toBeVisible();
  await expect(reader.getByText(ANNOUNCEMENT_MESSAGES.unsubscribeKeeps)).toBeVisible();
  await expectNoAxeViolations(reader, "/unsubscribe with a token");
  await reader.setViewportSize({ width: 360, height: 740 });
  await reader.screenshot({ path: testInfo.outputPath("unsubscribe-360.png"), fullPage: true });
  await reader.getByRole("button", { name: ANNOUNCEMENT_MESSAGES.unsubscribeButton }).click();
  await expect(reader.getByRole("status")).toHaveText(ANNOUNCEMENT_MESSAGES.unsubscribed);
  await expectNoAxeViolations(reader, "/unsubscribe once done");

  // The same audience now reaches one learner fewer.
  await compose.getByLabel("Subject").fill(`${subject} (reminder)`);
  await compose.getByLabel("Message").fill("Tomorrow!");
  await compose.getByLabel("Audience").selectOption({ label: "Learners on a plan" });
  await compose.getByLabel("Plan").selectOption({ label: "Advanced" });
  await compose.getByRole("button", { name: "Preview" }).click();
  expect(await reach(page)).toBe(recipients - 1);
  await learnerContext.close();
});

test("a bad unsubscribe link says so", async ({ page }) => {
  await page.goto("/unsubscribe?token=not-a-real-token");
  await page.getByRole("button", { name: ANNOUNCEMENT_MESSAGES.unsubscribeButton }).click();
  await expect(page.getByRole("alert")).toHaveText(ANNOUNCEMENT_MESSAGES.badToken);
  await page.goto("/unsubscribe");
  await expect(page.getByRole("alert")).toHaveText(ANNOUNCEMENT_MESSAGES.badToken);
  await expect(page.getByRole("button", { name: ANNOUNCEMENT_MESSAGES.unsubscribeButton })).toHaveCount(0);
});
