// A catalogue the academy can grow (docs/data.md, "Content" and "Drafts"): an admin launches a
// fourth program, in Intermediate, as a draft, gives its first lesson notes, a PDF and a free
// preview, and publishes it; a free learner sees its curriculum, studies the preview and is refused
// the rest; an Intermediate learner studies it to a certificate; a lesson added later is a draft
// no learner sees, and the learner who finished stays complete.
import { readFile } from "node:fs/promises";
import { expect, test, type Page } from "@playwright/test";
import { signedInAccount, uniqueEmail } from "./support/accounts.ts";
import { expectNoAxeViolations } from "./support/axe.ts";
import { setPlanWithCli } from "./support/operator.ts";

const PDF = Buffer.from("%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n");
const TITLE = "Risk Management Bootcamp";

async function expectToast(page: Page, text: string) {
  await expect(page.getByText(text, { exact: true })).toBeVisible();
}

const programRow = (page: Page) => page.getByRole("row").filter({ hasText: TITLE });

async function publishFromRow(page: Page, expected: string) {
  await programRow(page).getByRole("button", { name: "Publish" }).click();
  const dialog = page.getByRole("dialog", { name: `Publish ${TITLE}?` });
  await expect(dialog).toContainText(expected);
  await expectNoAxeViolations(page, "the Publish confirmation");
  await dialog.getByRole("button", { name: "Publish" }).click();
  await expectToast(page, `${TITLE}: published. Learners see it now.`);
}

test("an admin launches a fourth program in Intermediate as a draft and publishes it; a free learner previews it, an Intermediate one finishes it", async ({
  page,
  context,
  browser,
  request,
}, testInfo) => {
  test.slow(); // three people, a program built, published and edited
  const adminEmail = uniqueEmail(`admin ${testInfo.title}`);
  await signedInAccount(context, request, { email: adminEmail, name: "Kofi Admin" });
  await setPlanWithCli(adminEmail, "admin");

  // The new program, in the form: its own id and level, two lessons, the first a free preview with notes.
  await page.goto("/admin?tab=programs");
  const form = page.getByRole("region", { name: "Add New Program" });
  await form.getByLabel("Program ID").fill("risk-bootcamp");
  await expect(form.getByText("Its address: /program/risk-bootcamp.", { exact: false })).toBeVisible();
  await form.getByLabel("Level").selectOption("Intermediate");
  await form.getByLabel("Title", { exact: true }).fill(TITLE);
  await form.getByLabel("Duration", { exact: true }).fill("2 weeks");
  await form.getByLabel("Display Order", { exact: true }).fill("4");
  await form.getByLabel("Module Title", { exact: true }).fill("Sizing a position");
  await form.getByLabel("YouTube Video ID", { exact: true }).fill("dQw4w9WgXcQ");
  await form.getByLabel("Lesson Notes").fill("## The 1% rule\n\nRisk at most **1%** of your account on one trade.");
  await form.getByLabel("Free preview: anyone signed in can open this lesson").check();
  await form.getByRole("button", { name: "Add Module" }).click();
  await form.getByLabel("Module Title", { exact: true }).fill("Placing the stop");
  await form.getByLabel("YouTube Video ID", { exact: true }).fill("9bZkp7q19f0");
  await form.getByRole("button", { name: "Add Module" }).click();
  await form.getByRole("button", { name: "Save Program" }).click();
  await expectToast(page, "Program saved successfully!");
  await expect(programRow(page)).toContainText("Draft");
  await expect(programRow(page).getByRole("cell", { name: "Intermediate" })).toBeVisible();

  await programRow(page).getByRole("button", { name: "Edit" }).click();
  const edit = page.getByRole("region", { name: "Edit Program" });
  await edit.getByLabel("Attach a file to Sizing a position").setInputFiles({ name: "Position sizing.pdf", mimeType: "application/pdf", buffer: PDF });
  await expectToast(page, "Position sizing.pdf attached.");
  await expect(edit.getByText("Draft: not published")).toHaveCount(2);
  await edit.getByRole("button", { name: "Cancel Edit" }).click();

  // A draft: learners do not find it.
  const freeContext = await browser.newContext();
  await signedInAccount(freeContext, request, { email: uniqueEmail(`free ${testInfo.title}`) });
  const free = await freeContext.newPage();
  await free.goto("/program/risk-bootcamp");
  await expect(free.getByText("Program not found.")).toBeVisible();

  await publishFromRow(page, "Learners will see the program itself and 2 new lessons. No learner has completed this program yet.");
  await expect(programRow(page)).not.toContainText("Draft");

  // The free learner: the program in the list, its curriculum, the preview lesson and its PDF.
  await free.goto("/program");
  await expect(free.getByRole("heading", { name: TITLE })).toBeVisible();
  await free.goto("/program/risk-bootcamp");
  await expect(free.getByText("Available to Premium users only").first()).toBeVisible();
  const curriculum = free.getByRole("navigation", { name: "What this program teaches" });
  await expect(curriculum.getByRole("listitem")).toHaveCount(2);
  await curriculum.getByRole("link", { name: "Sizing a position" }).click();
  await expect(free.getByRole("heading", { name: "The 1% rule" })).toBeVisible();
  const [download] = await Promise.all([free.waitForEvent("download"), free.getByRole("link", { name: /Position sizing\.pdf/ }).click()]);
  expect(download.suggestedFilename()).toBe("Position sizing.pdf");
  expect((await readFile(await download.path())).equals(PDF)).toBe(true);
  const closed = await free.evaluate(async () => {
    const preview = (await (await fetch("/api/programs/risk-bootcamp/preview")).json()) as { lessons: { id: string; freePreview: boolean }[] };
    return preview.lessons.find((lesson) => !lesson.freePreview)?.id ?? "";
  });
  await free.goto(`/program/risk-bootcamp/${closed}`);
  await expect(free.getByText("Available to Premium users only").first()).toBeVisible();
  await expect(free.locator(".video-frame")).toHaveCount(0);

  // An Intermediate learner: both lessons, then the certificate.
  const learnerEmail = uniqueEmail(`learner ${testInfo.title}`);
  const learnerContext = await browser.newContext();
  await signedInAccount(learnerContext, request, { email: learnerEmail });
  await setPlanWithCli(learnerEmail, "intermediate");
  const learner = await learnerContext.newPage();
  await learner.goto("/program/risk-bootcamp");
  await expect(learner.getByRole("heading", { name: "Section 1: Sizing a position" })).toBeVisible();
  await learner.getByRole("button", { name: "Mark as Watched" }).click();
  const lessons = learner.getByRole("navigation", { name: "Course content" });
  await lessons.getByRole("link", { name: /^Section 2 Placing the stop/ }).click();
  await learner.getByRole("button", { name: "Mark as Watched" }).click();
  const moment = learner.getByRole("region", { name: "Program complete!" });
  await expect(moment).toBeVisible();
  await expect(moment.getByRole("link", { name: "View your certificate" })).toBeVisible();

  // A lesson added later is a draft: the admin previews it, learners do not see it.
  await page.getByRole("row").filter({ hasText: TITLE }).getByRole("button", { name: "Edit" }).click();
  const again = page.getByRole("region", { name: "Edit Program" });
  await again.getByLabel("Module Title", { exact: true }).fill("Journal every trade");
  await again.getByLabel("Lesson Notes").fill("Write down the entry, the stop and why.");
  await again.getByRole("button", { name: "Add Module" }).click();
  await again.getByRole("button", { name: "Save Program" }).click();
  await expectToast(page, "Program saved successfully!");
  const preview = await context.newPage();
  await preview.goto("/program/risk-bootcamp");
  const previewed = preview.getByRole("navigation", { name: "Course content" });
  await expect(previewed.getByRole("link", { name: "Section 3 Draft Journal every trade" })).toBeVisible();
  await previewed.getByRole("link", { name: /Journal every trade/ }).click();
  await expect(preview.getByText("Draft: only administrators see this lesson until the program is published.")).toBeVisible();
  await expectNoAxeViolations(preview, "an admin's preview of a draft lesson");

  await learner.goto("/program/risk-bootcamp");
  const before = learner.getByRole("navigation", { name: "Course content" });
  await expect(before.getByRole("link", { name: "Finished Program complete (your certificate)" })).toBeVisible();
  await expect(before.getByRole("link")).toHaveCount(3); // two lessons and the completion
  await expect(learner.getByText("Journal every trade")).toHaveCount(0);

  await publishFromRow(
    page,
    "Learners will see 1 new lesson. 1 learner has completed this program: they stay complete and keep their certificates, and find the new content waiting.",
  );
  // Published: the learner finds the new lesson, and is still complete, certificate and all.
  await learner.goto("/program/risk-bootcamp");
  const after = learner.getByRole("navigation", { name: "Course content" });
  await expect(after.getByRole("link", { name: /^Section 3 Journal every trade$/ })).toBeVisible();
  await expect(after.getByRole("link", { name: "Finished Program complete (your certificate)" })).toBeVisible();
  // A lesson of notes only is read, not watched: the count says lessons.
  await expect(learner.getByText("2 of 3 lessons done")).toBeVisible();

  // Archived: out of the catalogue at once.
  await programRow(page).getByRole("button", { name: `Archive ${TITLE}` }).click();
  await expectToast(page, `${TITLE} is archived: it is out of the catalogue, and its learners keep their progress.`);
  await free.goto("/program");
  await expect(free.getByRole("heading", { name: "Beginner Program" })).toBeVisible();
  await expect(free.getByRole("heading", { name: TITLE })).toHaveCount(0);
  await expectNoAxeViolations(page, "the Programs tab with an archived program");

  // Gone, for the journeys after this one, which count the seeded programs.
  await programRow(page).getByRole("button", { name: /^Delete/ }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
  await expectToast(page, "Program and all related data deleted successfully!");
  await Promise.all([freeContext.close(), learnerContext.close()]);
});
