// Lessons with more than a video (docs/product.md, "Lesson notes", "Attachments" and "Previews"): an
// admin writes notes, attaches a PDF and opens the lesson as a free preview; a learner whose plan
// opens the program reads the notes and downloads the file; a lesson of notes only is marked read;
// a free learner sees the locked program's curriculum and studies its free preview, and no more.
import { readFile } from "node:fs/promises";
import { expect, test, type Page } from "@playwright/test";
import { signedInAccount, uniqueEmail } from "./support/accounts.ts";
import { expectNoAxeViolations } from "./support/axe.ts";
import { setPlanWithCli } from "./support/operator.ts";

const PDF = Buffer.from("%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n");

const NOTES = [
  "## The 1% rule",
  "Risk at most **1%** of your account on one trade.",
  "",
  "| Account (GHS) | Risk per trade |",
  "| ---: | ---: |",
  "| 1,000 | 10 |",
  "| 5,000 | 50 |",
  "",
  "<script>window.hacked = true</script>",
].join("\n");

async function expectToast(page: Page, text: string) {
  await expect(page.getByText(text, { exact: true })).toBeVisible();
}

test("an admin gives a lesson notes and a PDF and opens it as a free preview; learners read and download them, a free one sees the curriculum", async ({
  page,
  context,
  browser,
  request,
}, testInfo) => {
  test.slow(); // two people, a program edited twice
  const adminEmail = uniqueEmail(`admin ${testInfo.title}`);
  await signedInAccount(context, request, { email: adminEmail, name: "Kofi Admin" });
  await setPlanWithCli(adminEmail, "admin");
  const learnerEmail = uniqueEmail(`learner ${testInfo.title}`);
  const learnerContext = await browser.newContext();
  await signedInAccount(learnerContext, request, { email: learnerEmail });
  await setPlanWithCli(learnerEmail, "intermediate");

  await page.goto("/admin?tab=programs");
  await page.getByRole("row").filter({ hasText: "Intermediate Program" }).getByRole("button", { name: "Edit" }).click();
  const form = page.getByRole("region", { name: "Edit Program" });
  const firstModule = form.getByRole("listitem").filter({ has: page.getByRole("button", { name: /^Edit / }) }).first();
  const moduleTitle = (await firstModule.locator(".admin-module-title").textContent()) ?? "";

  // Notes, through the module's own form, then Save Program.
  await firstModule.getByRole("button", { name: /^Edit / }).click();
  await form.getByLabel("Lesson Notes").fill(NOTES);
  await form.getByLabel("Free preview: anyone signed in can open this lesson").check();
  await form.getByRole("button", { name: "Update Module" }).click();
  await expect(firstModule).toContainText("Notes: ");
  await expect(firstModule).toContainText("Free preview");
  // A lesson of notes only, at the end.
  await form.getByLabel("Module Title", { exact: true }).fill("Your risk checklist");
  await form.getByLabel("Lesson Notes").fill("- Where is my stop?\n- How much do I lose there?");
  await form.getByRole("button", { name: "Add Module" }).click();
  await form.getByRole("button", { name: "Save Program" }).click();
  await expectToast(page, "Program saved successfully!");
  // The lesson added is a draft until published.
  await page.getByRole("row").filter({ hasText: "Intermediate Program" }).getByRole("button", { name: "Publish" }).click();
  const publish = page.getByRole("dialog", { name: "Publish Intermediate Program?" });
  await expect(publish).toContainText("Learners will see 1 new lesson.");
  await publish.getByRole("button", { name: "Publish" }).click();
  await expectToast(page, "Intermediate Program: published. Learners see it now.");

  // A file is attached to a saved lesson at once; one of another kind is refused in words.
  await page.getByRole("row").filter({ hasText: "Intermediate Program" }).getByRole("button", { name: "Edit" }).click();
  const edited = page.getByRole("region", { name: "Edit Program" });
  await edited.getByLabel(`Attach a file to ${moduleTitle}`).setInputFiles({ name: "risk-sheet.png", mimeType: "image/png", buffer: PDF });
  await expectToast(page, "The content of risk-sheet.png is not what its name says: save it again in its own format and attach it.");
  await edited.getByLabel(`Attach a file to ${moduleTitle}`).setInputFiles({ name: "Risk sheet.pdf", mimeType: "application/pdf", buffer: PDF });
  await expectToast(page, "Risk sheet.pdf attached.");
  await expect(edited.getByRole("list", { name: `Files of ${moduleTitle}` })).toContainText("Risk sheet.pdf (PDF, 77 bytes)");
  await expectNoAxeViolations(page, "the program form with notes and an attachment");

  // The learner reads the notes and downloads the file.
  const learner = await learnerContext.newPage();
  await learner.goto("/program/intermediate");
  await expect(learner.getByRole("heading", { name: "The 1% rule" })).toBeVisible();
  await expect(learner.getByRole("cell", { name: "5,000" })).toBeVisible();
  await expect(learner.getByText("<script>window.hacked = true</script>")).toBeVisible();
  expect(await learner.evaluate(() => "hacked" in window)).toBe(false);
  const downloadLink = learner.getByRole("link", { name: /Risk sheet\.pdf/ });
  await expect(downloadLink).toContainText("PDF, 77 bytes");
  const [download] = await Promise.all([learner.waitForEvent("download"), downloadLink.click()]);
  expect(download.suggestedFilename()).toBe("Risk sheet.pdf");
  expect((await readFile(await download.path())).equals(PDF)).toBe(true);
  await expectNoAxeViolations(learner, "a lesson with notes and a download");

  // The lesson of notes only: no video, marked read.
  await learner.getByRole("navigation", { name: "Course content" }).getByRole("link", { name: /Your risk checklist/ }).click();
  await expect(learner.getByRole("listitem").filter({ hasText: "How much do I lose there?" })).toBeVisible();
  await expect(learner.locator(".video-frame")).toHaveCount(0);
  await learner.getByRole("button", { name: "Mark as Read" }).click();
  await expect(learner.getByRole("button", { name: "Read" })).toBeVisible();
  await learnerContext.close();

  // A free learner: the program's curriculum and its free preview, whole; the rest stays premium.
  const freeContext = await browser.newContext();
  await signedInAccount(freeContext, request, { email: uniqueEmail(`free ${testInfo.title}`) });
  const free = await freeContext.newPage();
  await free.goto("/program/intermediate");
  await expect(free.getByText("Available to Premium users only").first()).toBeVisible();
  const curriculum = free.getByRole("navigation", { name: "What this program teaches" });
  // Its five lessons (the last two chart exercises) and the quiz.
  await expect(curriculum.getByRole("listitem")).toHaveCount(6);
  await expect(curriculum).toContainText("Exercise, premium");
  await expect(curriculum).toContainText("3 questions, premium");
  // The toast says it too (sonner loads with it): checked with the page once it is up.
  await expect(free.locator("[data-sonner-toast]").filter({ hasText: "Available to Premium users only" })).toBeVisible();
  await expectNoAxeViolations(free, "a locked program's curriculum");
  await curriculum.getByRole("link", { name: moduleTitle }).click();
  await expect(free.getByText("Free preview", { exact: true })).toBeVisible();
  await expect(free.getByRole("heading", { name: "The 1% rule" })).toBeVisible();
  await expect(free.getByRole("link", { name: "See plans" })).toBeVisible();
  const [previewDownload] = await Promise.all([free.waitForEvent("download"), free.getByRole("link", { name: /Risk sheet\.pdf/ }).click()]);
  expect((await readFile(await previewDownload.path())).equals(PDF)).toBe(true);
  await expectNoAxeViolations(free, "a free preview lesson");
  // Another lesson of the program, by its address: the spec's words, no lesson.
  const closedLesson = await free.evaluate(async () => {
    const preview = (await (await fetch("/api/programs/intermediate/preview")).json()) as { lessons: { id: string; freePreview: boolean }[] };
    return preview.lessons.find((lesson) => !lesson.freePreview)?.id ?? "";
  });
  await free.goto(`/program/intermediate/${closedLesson}`);
  await expect(free.getByText("Available to Premium users only").first()).toBeVisible();
  await expect(free.getByText("Free preview", { exact: true })).toHaveCount(0);
  await expect(free.locator(".video-frame")).toHaveCount(0);
  await freeContext.close();

  // The program as it was for the journeys after this one: the notes-only lesson removed.
  await page.goto("/admin?tab=programs");
  await page.getByRole("row").filter({ hasText: "Intermediate Program" }).getByRole("button", { name: "Edit" }).click();
  await page.getByRole("region", { name: "Edit Program" }).getByRole("button", { name: "Delete Your risk checklist" }).click();
  await page.getByRole("region", { name: "Edit Program" }).getByRole("button", { name: "Save Program" }).click();
  await expectToast(page, "Program saved successfully!");
});
