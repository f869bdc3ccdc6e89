// Cohorts in the admin console (docs/admin.md, "Cohorts"): an admin creates a cohort, and admits
// a cohort's paid Advanced learners in bulk, following the run to its end; each learner is then
// admitted and welcomed by email.
import { expect, test, type APIRequestContext, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { E2E_BASE_URL } from "../playwright.config.ts";
import { cohortMonth, formatAcademyDay, formatCohortStart } from "../src/shared/contracts/cohorts.ts";
import { nextCohort } from "../src/shared/billing.ts";
import { mailFor, newSignedInContext, signedInAccount, uniqueEmail } from "./support/accounts.ts";
import { expectNoAxeViolations } from "./support/axe.ts";
import { setPlanWithCli } from "./support/operator.ts";
import { screens } from "./support/screens.ts";

test.use({ reducedMotion: "reduce" });

/** The simulator's key outside production (src/server/env.ts): it settles a payment as the checkout would. */
const SIMULATOR_SECRET_KEY = "sk_test_simulator_secret_key";

async function signedInAdmin(context: BrowserContext, request: APIRequestContext, email: string) {
  await signedInAccount(context, request, { email, name: "Kofi Admin" });
  await setPlanWithCli(email, "admin");
}

/** A learner who paid for the Advanced waitlist: the checkout, then Paystack's success and webhook. */
async function paidForAdvancedWaitlist(browser: Browser, email: string) {
  const learner = await newSignedInContext(browser, { email, name: "Abena Owusu" });
  const checkout = await learner.request.post("/api/waitlist/checkout", {
    data: { plan: "advanced" },
    headers: { origin: E2E_BASE_URL },
  });
  expect(checkout.status(), await checkout.text()).toBe(200);
  const { reference } = (await checkout.json()) as { reference: string };
  const settled = await learner.request.post(`/dev/fakes/paystack/simulate/${encodeURIComponent(reference)}`, {
    data: { outcome: "success" },
    headers: { authorization: `Bearer ${SIMULATOR_SECRET_KEY}` },
  });
  expect(settled.status(), await settled.text()).toBe(200);
  await learner.close();
}

function row(page: Page, text: string) {
  return page.getByRole("row").filter({ hasText: text });
}

test("a cohort admitted in bulk", async ({ page, context, browser, request }, testInfo) => {
  test.slow(); // an admin and three learners, each signed up and paid
  await signedInAdmin(context, request, uniqueEmail(`admin ${testInfo.title}`));
  const learners = [1, 2, 3].map((n) => uniqueEmail(`learner ${n} ${testInfo.title}`));
  for (const email of learners) await paidForAdvancedWaitlist(browser, email);
  const cohort = nextCohort(new Date());

  await page.goto("/admin?tab=waitlist");
  const card = page.getByRole("article", { name: cohort.name });
  await expect(card).toContainText(`Starts ${formatCohortStart(cohort.startsOn)}`);
  const advanced = card.locator(".cohort-track").filter({ has: page.getByRole("heading", { name: "Advanced" }) });
  await expect(advanced).toContainText(/\d+ paid · \d+ admitted · \d+ waiting/);
  const counts = /(\d+) paid · (\d+) admitted · (\d+) waiting/.exec((await advanced.textContent()) ?? "");
  const waiting = Number(counts?.[3]);
  expect(waiting).toBeGreaterThanOrEqual(learners.length);
  for (const email of learners) await expect(row(page, email).getByRole("button", { name: "Admit from Waitlist" })).toBeVisible();
  await expectNoAxeViolations(page, "the Waitlist tab with its cohorts");
  await screens(page, "cohorts-waitlist");

  // Admit all asks first, saying how many and the month they get: the cohort's first, as it has
  // not started yet (docs/subscriptions.md, "Admit from waitlist").
  const month = cohortMonth(cohort.startsOn, new Date());
  const span = `from ${formatAcademyDay(month.start)} to ${formatAcademyDay(month.end)}`;
  expect(formatAcademyDay(month.start)).toBe(formatCohortStart(cohort.startsOn));
  await advanced.getByRole("button", { name: `Admit all Advanced learners of ${cohort.name}` }).click();
  const dialog = page.getByRole("dialog", { name: `Admit all Advanced learners of ${cohort.name}` });
  await expect(dialog).toContainText(
    `Admit ${waiting} paid learners of the ${cohort.name} Advanced waitlist? Each gets a month of the Advanced track from the cohort's start, ${span}, with the program open to them from today.`,
  );
  await expectNoAxeViolations(page, "the Admit all confirmation");
  await screens(page, "cohorts-confirm");
  await dialog.getByRole("button", { name: `Admit ${waiting}` }).click();
  await expect(dialog).toHaveCount(0);

  // The run is followed to its end; the places then read admitted.
  await expect(advanced.getByText(`Admitted ${waiting} of ${waiting}`, { exact: true })).toBeVisible({ timeout: 15_000 });
  await expect(advanced).toContainText(`0 waiting`);
  await expect(advanced.getByRole("button", { name: `Admit all Advanced learners of ${cohort.name}` })).toBeDisabled();
  await card.getByRole("button", { name: `Show places of ${cohort.name}` }).click();
  await expect(page.getByRole("heading", { name: `Places in ${cohort.name}` })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`cohort=${encodeURIComponent(cohort.name).replace(/%20/g, "(\\+|%20)")}`));
  for (const email of learners) {
    await expect(row(page, email)).toContainText("Yes (");
    await expect(row(page, email).getByRole("button", { name: "Admit from Waitlist" })).toHaveCount(0);
  }
  await expectNoAxeViolations(page, "the Waitlist tab after Admit all");
  await screens(page, "cohorts-admitted");

  // Each learner is welcomed once, with the cohort's start and a link to the program.
  for (const email of learners) {
    await expect
      .poll(async () => (await mailFor(request, email)).filter((mail) => mail.subject.startsWith("Welcome to the")).length)
      .toBe(1);
    const [welcome] = (await mailFor(request, email)).filter((mail) => mail.subject.startsWith("Welcome to the"));
    expect(welcome?.subject).toBe(`Welcome to the ${cohort.name} cohort of Trading Academy`);
    expect(welcome?.text).toContain(`The cohort starts on ${formatCohortStart(cohort.startsOn)}.`);
    expect(welcome?.text).toContain(`Your month of the Advanced track runs ${span}.`);
    expect(welcome?.text).toContain("/program/advanced");
  }

  // One audit entry for the whole action, besides each learner's.
  await page.getByRole("tab", { name: /^Audit/ }).click();
  await expect(page.getByRole("row").filter({ hasText: "waitlist.admitted-all" }).first()).toBeVisible();
});

test("an admin creates a cohort, told first that it needs a start date", async ({ page, context, request }, testInfo) => {
  await signedInAdmin(context, request, uniqueEmail(`admin ${testInfo.title}`));
  const name = `October ${2040 + Math.floor(Math.random() * 50)} ${Date.now() % 10_000}`;

  await page.goto("/admin?tab=waitlist");
  await page.getByRole("button", { name: "New cohort" }).click();
  const dialog = page.getByRole("dialog", { name: "New cohort" });
  await dialog.getByLabel("Name").fill(name);
  await dialog.getByRole("checkbox", { name: "Intermediate" }).uncheck();
  await dialog.getByRole("button", { name: "Save cohort" }).click();
  await expect(dialog.getByRole("alert")).toHaveText("Enter the cohort's start date.");
  await expectNoAxeViolations(page, "the New cohort form with its error");
  await screens(page, "cohorts-new-cohort");

  await dialog.getByLabel("Start date").fill("2040-10-02");
  await dialog.getByRole("button", { name: "Save cohort" }).click();
  await expect(page.getByText(`Cohort ${name} created.`, { exact: true })).toBeVisible();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole("article", { name })).toContainText(`Starts ${formatCohortStart("2040-10-02")} · Advanced`);
});
