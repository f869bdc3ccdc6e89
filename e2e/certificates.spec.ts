// Completion and certificates (docs/product.md, "Completion and certificates"): the answer that
// passes the quiz brings the completion moment and the certificate, which anyone can verify from
// its link, print on A4 and share; an admin revokes it and its page then says so; an admin's Edit
// Progress that completes a program brings its certificate too.
import { expect, test, type APIRequestContext, type BrowserContext, type Page } from "@playwright/test";
import { E2E_BASE_URL } from "../playwright.config.ts";
import { mailFor, signedInAccount, uniqueEmail } from "./support/accounts.ts";
import { expectNoAxeViolations } from "./support/axe.ts";
import { setPlanWithCli } from "./support/operator.ts";

const NUMBER = /TA-[0-9A-Z]{10}/;

type Track = { modules: { id: string }[]; quiz: { questions: { question: string }[] } };

/** The answers of the seeded Beginner quiz (src/server/db/seed-content.ts). */
const BEGINNER_ANSWERS = ["A", "B", "C"];

/** A call the player would make, from the app's own origin (the server refuses others). */
function post(request: APIRequestContext, url: string, data: object) {
  return request.post(url, { data, headers: { origin: E2E_BASE_URL } });
}

/** Watches every video and answers all but the last question through the API, as the player would. */
async function studyAllButTheLastAnswer(request: APIRequestContext): Promise<Track> {
  const track = (await (await request.get("/api/programs/beginner")).json()) as Track;
  for (const { id } of track.modules) {
    expect((await post(request, `/api/programs/beginner/modules/${id}/watched`, {})).ok()).toBe(true);
  }
  expect(track.quiz.questions).toHaveLength(BEGINNER_ANSWERS.length);
  for (const [questionIndex, option] of BEGINNER_ANSWERS.slice(0, -1).entries()) {
    const answer = await post(request, "/api/programs/beginner/quiz/answers", { questionIndex, option });
    expect(((await answer.json()) as { correct: boolean }).correct).toBe(true);
  }
  return track;
}

function certificatePath(page: Page): string {
  return new URL(page.url()).pathname;
}

/** An administrator signed in on `page`, at the learner's row of the Users tab. */
async function adminAtUsersRow(
  { page, context, request }: { page: Page; context: BrowserContext; request: APIRequestContext },
  learnerEmail: string,
  title: string,
) {
  const adminEmail = uniqueEmail(`admin ${title}`);
  await signedInAccount(context, request, { email: adminEmail, name: "Kofi Admin" });
  await setPlanWithCli(adminEmail, "admin");
  await page.goto("/admin?tab=users");
  await page.getByLabel("Search by email").fill(learnerEmail);
  const row = page.getByRole("row").filter({ hasText: learnerEmail });
  await expect(row).toHaveCount(1);
  return row;
}

test("a learner completes a program, opens the certificate, and anyone can verify and print it", async ({
  page,
  context,
  browser,
  request,
}, testInfo) => {
  test.slow(); // a learner, a visitor, the mail
  const email = uniqueEmail(testInfo);
  await signedInAccount(context, request, { email, name: "Kofi Boateng" });
  const track = await studyAllButTheLastAnswer(context.request);

  // The last answer, in the player: the completion moment, with the certificate and the upgrade.
  await page.goto(`/program/beginner/${track.modules[0]?.id}`);
  const last = page.locator(".quiz-question").nth(BEGINNER_ANSWERS.length - 1);
  await last.getByRole("button", { name: /^C\)/ }).click();
  await expect(last.getByRole("status")).toHaveText("Correct");
  const moment = page.getByRole("region", { name: "Program complete!" });
  await expect(moment).toBeVisible();
  await expect(moment).toContainText("you watched every lesson and passed the quiz of the Beginner Program");
  await expect(moment.getByText(NUMBER)).toBeVisible();
  // A free learner: the Intermediate program is the upgrade's.
  await expect(moment.getByRole("link", { name: "Upgrade to open the Intermediate Program" })).toHaveAttribute(
    "href",
    "/subscription",
  );
  await expectNoAxeViolations(page, "the completion moment");

  await moment.getByRole("link", { name: "View your certificate" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Genuine certificate" })).toBeVisible();
  const path = certificatePath(page);
  expect(path).toMatch(new RegExp(`^/certificates/${NUMBER.source}$`));
  const number = path.split("/").at(-1) ?? "";
  const certificate = page.getByRole("article", { name: "Certificate" });
  await expect(certificate).toContainText("Kofi Boateng");
  await expect(certificate).toContainText("Beginner Program");
  await expect(certificate).toContainText(number);
  await expect(page).toHaveTitle(`Certificate ${number}: Beginner Program · Trading Academy`);
  await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", /genuine/);
  await expect(page.getByRole("link", { name: /Share on LinkedIn/ })).toHaveAttribute(
    "href",
    `https://www.linkedin.com/sharing/share-offsite/?url=${encodeURIComponent(new URL(path, page.url()).href)}`,
  );
  await expectNoAxeViolations(page, "a genuine certificate");
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.getByRole("button", { name: "Copy link" }).click();
  await expect(page.getByText("Link copied.")).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(new URL(path, page.url()).href);

  // Printed: the certificate alone.
  await page.emulateMedia({ media: "print" });
  await expect(page.locator(".site-header")).toBeHidden();
  await expect(page.locator(".site-footer")).toBeHidden();
  await expect(page.getByRole("button", { name: "Print certificate" })).toBeHidden();
  await expect(certificate).toBeVisible();
  await page.emulateMedia({ media: "screen" });

  // The email announces it, with the link.
  await expect
    .poll(async () => (await mailFor(request, email)).find((mail) => mail.subject.includes("certificate"))?.text ?? "")
    .toContain(`/certificates/${number}`);

  // Anyone, signed out, verifies it from the link.
  const visitor = await browser.newContext();
  const visitorPage = await visitor.newPage();
  const response = await visitorPage.goto(path);
  expect(response?.status()).toBe(200);
  await expect(visitorPage.getByRole("heading", { name: "Genuine certificate" })).toBeVisible();
  await expect(visitorPage.getByRole("article", { name: "Certificate" })).toContainText("Kofi Boateng");

  // A number never issued: the page says so, and the server answers 404.
  const unknown = await visitorPage.goto("/certificates/TA-0000000000");
  expect(unknown?.status()).toBe(404);
  await expect(visitorPage.getByRole("heading", { level: 1, name: "No such certificate" })).toBeVisible();
  await expect(visitorPage).toHaveTitle("No such certificate · Trading Academy");
  await visitor.close();

  // Home: with Beginner complete, the first card offers the upgrade that opens the next level.
  await page.goto("/");
  const nextStep = page.getByRole("region", { name: "Ready for more?" });
  await expect(nextStep).toContainText("Intermediate Program");
  await expect(nextStep.getByRole("link", { name: "Upgrade to open the Intermediate Program" })).toHaveAttribute(
    "href",
    "/subscription",
  );
  await expect(page.getByRole("link", { name: "Go to My Programs" })).toHaveCount(0);
});

test("an admin revokes a certificate with a reason, and its page says revoked", async ({ page, context, browser, request }, testInfo) => {
  test.slow(); // a learner and an admin
  const learnerEmail = uniqueEmail(`learner ${testInfo.title}`);
  const learner = await browser.newContext();
  await signedInAccount(learner, request, { email: learnerEmail, name: "Esi Owusu" });
  await studyAllButTheLastAnswer(learner.request);
  const passing = await post(learner.request, "/api/programs/beginner/quiz/answers", {
    questionIndex: BEGINNER_ANSWERS.length - 1,
    option: BEGINNER_ANSWERS.at(-1),
  });
  const number = ((await passing.json()) as { completion: { certificateId: string } }).completion.certificateId;
  expect(number).toMatch(NUMBER);
  await learner.close();

  const row = await adminAtUsersRow({ page, context, request }, learnerEmail, testInfo.title);
  await row.getByRole("button", { name: "Certificates" }).click();
  const dialog = page.getByRole("dialog", { name: `Certificates of ${learnerEmail}` });
  await expect(dialog).toContainText("Beginner Program");
  await expect(dialog.getByRole("link", { name: new RegExp(number) })).toBeVisible();
  await dialog.getByRole("button", { name: `Revoke certificate ${number}` }).click();
  await dialog.getByRole("button", { name: "Revoke certificate", exact: true }).click();
  await expect(dialog.getByRole("alert")).toHaveText("Give a reason for revoking the certificate.");
  await expectNoAxeViolations(page, "the certificates dialog");
  await dialog.getByLabel("Reason for revoking").fill("Issued in error");
  await dialog.getByRole("button", { name: "Revoke certificate", exact: true }).click();
  await expect(page.getByText(`Certificate ${number} revoked.`)).toBeVisible();
  await expect(dialog).toContainText("Issued in error");

  const visitor = await browser.newContext();
  const visitorPage = await visitor.newPage();
  await visitorPage.goto(`/certificates/${number}`);
  await expect(visitorPage.getByRole("heading", { level: 1, name: "Revoked certificate" })).toBeVisible();
  await expect(visitorPage.getByText(/was revoked on .* and is no longer valid\./)).toBeVisible();
  await expect(visitorPage.getByRole("button", { name: "Print certificate" })).toHaveCount(0);
  await expectNoAxeViolations(visitorPage, "a revoked certificate");
  await visitor.close();
});

test("a learner whose last videos an admin ticks in Edit Progress gets the certificate", async ({ page, context, browser, request }, testInfo) => {
  test.slow(); // a learner and an admin, and the job that issues the certificate
  const learnerEmail = uniqueEmail(`learner ${testInfo.title}`);
  const learner = await browser.newContext();
  await signedInAccount(learner, request, { email: learnerEmail, name: "Yaw Asante" });
  // The first video, then every answer right: the quiz is passed, the program not complete.
  const track = (await (await learner.request.get("/api/programs/beginner")).json()) as Track;
  expect((await post(learner.request, `/api/programs/beginner/modules/${track.modules[0]?.id}/watched`, {})).ok()).toBe(true);
  for (const [questionIndex, option] of BEGINNER_ANSWERS.entries()) {
    expect((await post(learner.request, "/api/programs/beginner/quiz/answers", { questionIndex, option })).ok()).toBe(true);
  }

  const row = await adminAtUsersRow({ page, context, request }, learnerEmail, testInfo.title);
  await row.getByRole("button", { name: "Edit Progress" }).click();
  const dialog = page.getByRole("dialog", { name: `Edit Progress for ${learnerEmail}` });
  const boxes = dialog.getByRole("group", { name: /Beginner/ }).getByRole("checkbox");
  await expect(boxes).toHaveCount(track.modules.length);
  for (const box of await boxes.all()) await box.check();
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("User progress updated!", { exact: true })).toBeVisible();

  // The learner's completion moment names the certificate once the job has issued it (seconds).
  const learnerPage = await learner.newPage();
  const moment = learnerPage.getByRole("region", { name: "Program complete!" });
  await expect(async () => {
    await learnerPage.goto("/program/beginner/complete");
    await expect(moment.getByRole("link", { name: "View your certificate" })).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await expect(moment.getByText(NUMBER)).toBeVisible();
  await expect.poll(async () => (await mailFor(request, learnerEmail)).map((mail) => mail.subject)).toContain(
    "Your Trading Academy certificate: Beginner Program",
  );
  await learner.close();
});
