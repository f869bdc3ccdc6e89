// axe-core (WCAG 2.1 A and AA) on every route and on every state a person can open on it: as a
// visitor, as a signed-in learner and as an admin. Each check expects no violation at all; a
// failure lists the rule ids, what they ask for and the elements that break them.
//
// The signed-in checks share one learner and one admin per group (made through the API helpers),
// and change nothing that other tests rely on: the admin opens the delete confirmation and
// cancels it.
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { newSignedInContext, uniqueEmail } from "./support/accounts.ts";
import { appRequestsSettled, watchAppRequests } from "./support/app-requests.ts";
import { expectNoAxeViolations } from "./support/axe.ts";
import { setPlanWithCli } from "./support/operator.ts";
import { ADMIN_TABS, LEARNER_PAGES, VISITOR_PAGES } from "./support/routes.ts";
import { blockIframeApi, expectVideoFallback } from "./support/youtube.ts";

// Toasts and menus are checked as they rest, not halfway through a fade.
test.use({ reducedMotion: "reduce" });

/** Opens `path` and waits until the page has drawn its main heading and finished loading what it shows. */
async function visit(page: Page, path: string) {
  watchAppRequests(page);
  await page.goto(path);
  await settle(page);
}

async function settle(page: Page) {
  await expect(page.locator("main h1").first()).toBeVisible();
  await appRequestsSettled(page);
  await expect(page.getByRole("main").getByText(/^Loading/)).toHaveCount(0);
}

test.describe("the checks themselves", () => {
  /** A page of its own, valid but for the controls given. */
  async function pageWith(page: Page, controls: string) {
    await page.setContent(`<!doctype html><html lang="en"><head><title>Names</title>
      <style>.visually-hidden { position: absolute; width: 1px; height: 1px; margin: -1px; overflow: hidden; clip: rect(0, 0, 0, 0); white-space: nowrap; }</style>
      </head><body><main><h1>Names</h1>${controls}</main></body></html>`);
  }

  test("names that start with the words shown pass, icons and hidden words included", async ({ page }) => {
    await pageWith(
      page,
      `<button type="button" aria-label="Cancel the upload">Cancel</button>
       <button type="button" aria-label="Close dialog"><svg aria-hidden="true" width="20" height="20"><path d="M2 2L18 18"/></svg></button>
       <a href="#video">Open on YouTube<span class="visually-hidden"> (opens in a new tab)</span></a>
       <a href="#previous"><span aria-hidden="true">&larr; </span>Previous</a>`,
    );
    await expectNoAxeViolations(page, "a page of good names");
  });

  test("a name that holds the words shown but does not start with them fails, where axe's rule lets it pass", async ({ page }) => {
    await pageWith(page, `<button type="button" aria-label="Close the dialog and Cancel">Cancel</button>`);
    await expect(expectNoAxeViolations(page, "a page of a late word")).rejects.toThrow(
      /shows "Cancel" but is named "Close the dialog and Cancel"/,
    );
  });

  test("words the browser runs together in the name, shown apart, fail", async ({ page }) => {
    await pageWith(page, `<a href="#file"><span>notes.pdf</span><span style="margin-left: 1rem">PDF, 12 KB</span></a>`);
    await expect(expectNoAxeViolations(page, "a page of words run together")).rejects.toThrow(
      /shows "notes.pdf PDF, 12 KB" but is named "notes.pdfPDF, 12 KB"/,
    );
  });
});

test.describe("as a visitor", () => {
  // The verification page with a code that fails shows its error state, checked with the rest.
  const routes = [...VISITOR_PAGES, "/verify-email?oobCode=not-a-real-code"];
  for (const path of routes) {
    test(`${path} has no WCAG 2.1 AA violations`, async ({ page }) => {
      await visit(page, path);
      if (path.startsWith("/verify-email?")) await expect(page.getByRole("main").getByRole("alert")).toBeVisible();
      await expectNoAxeViolations(page, path);
    });
  }

  test("/register with the form's error shown has no violations", async ({ page }) => {
    await visit(page, "/register");
    await page.getByRole("main").getByRole("button", { name: "Sign Up" }).click();
    await expect(page.getByRole("main").getByRole("alert")).toBeVisible();
    await expectNoAxeViolations(page, "/register with an error");
  });
});

test.describe("as a signed-in learner", () => {
  let learner: BrowserContext;
  test.beforeAll(async ({ browser }) => {
    learner = await newSignedInContext(browser, { email: uniqueEmail("axe learner") }, { reducedMotion: "reduce" });
  });
  test.afterAll(async () => {
    await learner.close();
  });

  async function open(path: string): Promise<Page> {
    const page = await learner.newPage();
    await visit(page, path);
    return page;
  }

  // The track pages are checked below, in the states a learner brings them to.
  for (const path of LEARNER_PAGES.filter((path) => !path.startsWith("/program/"))) {
    test(`${path} has no WCAG 2.1 AA violations`, async () => {
      const page = await open(path);
      await expectNoAxeViolations(page, path);
      await page.close();
    });
  }

  test("/program/beginner, with the quiz locked and then unlocked and answered, has no violations", async () => {
    const page = await open("/program/beginner");
    await expect(page.getByText("Watch Section 1 to unlock this quiz.")).toBeVisible();
    await expectNoAxeViolations(page, "/program/beginner before watching");

    await page.getByRole("button", { name: "Mark as Watched" }).first().click();
    const question = page.locator(".quiz-question").first();
    await question.getByRole("button", { name: /^A\)/ }).click();
    await expect(question.getByRole("status")).not.toBeEmpty();
    // Right, so that this learner can still pass the attempt below (docs/product.md, "Quiz
    // attempts"); a failed attempt's page is checked in quiz-attempts.spec.ts.
    const second = page.locator(".quiz-question").nth(1);
    await second.getByRole("button", { name: /^B\)/ }).click();
    await expect(second.getByRole("status")).not.toBeEmpty();
    await expectNoAxeViolations(page, "/program/beginner with the quiz answered");
    await page.close();
  });

  test("the course player at a lesson's own address, with Previous and Next, has no violations", async () => {
    const page = await open("/program/beginner");
    const curriculum = page.getByRole("navigation", { name: "Course content" });
    // The earlier check watched the first lesson, so the course opened at the second.
    await curriculum.getByRole("link", { name: /^Section 3 / }).click();
    await expect(page.getByRole("heading", { level: 2, name: /^Section 3:/ })).toBeFocused();
    await page.reload();
    await settle(page);
    const pager = page.getByRole("navigation", { name: "Previous and next lesson" });
    await expect(pager.getByRole("link", { name: /^Previous/ })).toBeVisible();
    await expectNoAxeViolations(page, "a lesson of /program/beginner, opened at its address");
    await page.close();
  });

  test("the course player at 360 px, the curriculum folded and open, has no violations", async () => {
    const page = await learner.newPage();
    await page.setViewportSize({ width: 360, height: 740 });
    await visit(page, "/program/beginner");
    const curriculum = page.getByRole("navigation", { name: "Course content" });
    await expect(curriculum.getByText(/^Course content \(/)).toBeVisible();
    await expectNoAxeViolations(page, "the player at 360 px, the curriculum folded");
    await curriculum.getByText(/^Course content \(/).click();
    await expect(curriculum.getByRole("link", { name: /^Section 2 / })).toBeVisible();
    await expectNoAxeViolations(page, "the player at 360 px, the curriculum open");
    await page.close();
  });

  test("a lesson whose video could not load, its words and link to YouTube shown, has no violations", async () => {
    const page = await learner.newPage();
    await blockIframeApi(page);
    await visit(page, "/program/beginner");
    await page.getByRole("button", { name: /^Play video, / }).click();
    await expectVideoFallback(page);
    await expectNoAxeViolations(page, "a lesson of /program/beginner without its video");
    await page.close();
  });

  test("a lesson address that is not a lesson has no violations", async () => {
    const page = await open("/program/beginner/not-a-lesson");
    await expect(page.getByRole("heading", { name: "This video is not part of the program." })).toBeVisible();
    await expectNoAxeViolations(page, "/program/beginner/not-a-lesson");
    await page.close();
  });

  test("the home page with the learner's Continue card has no violations", async () => {
    const page = await open("/");
    await expect(page.getByRole("region", { name: /learning$/ })).toBeVisible();
    await expectNoAxeViolations(page, "/ signed in, with the Continue card");
    await page.close();
  });

  test("/program/intermediate, refused with the premium message, has no violations", async () => {
    const page = await open("/program/intermediate");
    await expect(page.getByRole("main").getByText("Available to Premium users only")).toBeVisible();
    // The toast says it too, and is checked with the page.
    await expect(page.locator("[data-sonner-toast]")).toBeVisible();
    await expectNoAxeViolations(page, "/program/intermediate refused");
    await page.close();
  });

  test("/account with the delete confirmation open, and its error shown, has no violations", async () => {
    const page = await open("/account");
    await page.getByRole("button", { name: "Delete Account" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete your account?" });
    await dialog.getByRole("button", { name: "Delete My Account" }).click();
    await expect(dialog.getByRole("alert")).toBeVisible();
    await expectNoAxeViolations(page, "/account, deleting");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await page.close();
  });

  test("the account menu, open, has no violations", async () => {
    const page = await open("/program");
    await page.getByRole("button", { name: /account menu/ }).click();
    await expect(page.getByRole("menu")).toBeVisible();
    await expectNoAxeViolations(page, "the open account menu");
    await page.close();
  });

  test("the mobile menu, open at 360 px, has no violations", async () => {
    const page = await learner.newPage();
    await page.setViewportSize({ width: 360, height: 740 });
    await visit(page, "/program");
    await page.getByRole("button", { name: "Open menu" }).click();
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "About" })).toBeVisible();
    await expectNoAxeViolations(page, "the open mobile menu at 360 px");
    await page.close();
  });

  test("the Paystack simulator's checkout, open on /subscription, has no violations", async () => {
    const page = await open("/subscription");
    const intermediate = page
      .locator(".card")
      .filter({ has: page.getByRole("heading", { name: "Intermediate", exact: true }) });
    await intermediate.getByRole("button", { name: "Upgrade" }).click();
    const checkout = page.frameLocator('iframe[title="Paystack checkout (test mode)"]');
    await expect(checkout.getByRole("button", { name: "Pay" })).toBeVisible();
    await expectNoAxeViolations(page, "/subscription with the checkout open");
    await checkout.getByRole("button", { name: "Close" }).click();
    await page.close();
  });

  // Last of this learner's checks: it completes the Beginner program.
  test("the completed program, its moment in the player and its own step, has no violations", async () => {
    const page = await open("/program/beginner");
    const curriculum = page.getByRole("navigation", { name: "Course content" });
    for (const section of [1, 2, 3]) {
      await curriculum.getByRole("link", { name: new RegExp(`^Section ${section} `) }).click();
      await expect(page.getByRole("heading", { level: 2, name: new RegExp(`^Section ${section}:`) })).toBeFocused();
      const mark = page.getByRole("button", { name: "Mark as Watched" });
      if (await mark.isVisible()) await mark.click();
      await expect(page.getByRole("button", { name: "Watched" })).toBeVisible();
    }
    await curriculum.getByRole("link", { name: /^Quiz/ }).click();
    const questions = page.locator(".quiz-question");
    for (const [index, letter] of ["A", "B", "C"].entries()) {
      await questions.nth(index).getByRole("button", { name: new RegExp(`^${letter}\\)`) }).click();
      await expect(questions.nth(index).getByRole("status")).toHaveText("Correct");
    }
    await expect(page.locator(".completion-moment")).toBeVisible();
    await expectNoAxeViolations(page, "the player with the completion moment");
    await curriculum.getByRole("link", { name: /^Finished Program complete/ }).click();
    await expect(page.locator(".completion-moment")).toBeFocused();
    await expectNoAxeViolations(page, "/program/beginner/complete");
    await page.close();
  });
});

test.describe("as an admin", () => {
  let admin: BrowserContext;
  let adminEmail: string;
  test.beforeAll(async ({ browser }) => {
    adminEmail = uniqueEmail("axe admin");
    admin = await newSignedInContext(browser, { email: adminEmail, name: "Kofi Admin" }, { reducedMotion: "reduce" });
    await setPlanWithCli(adminEmail, "admin");
  });
  test.afterAll(async () => {
    await admin.close();
  });

  async function openAdmin(tab: string): Promise<Page> {
    const page = await admin.newPage();
    await visit(page, `/admin?tab=${tab}`);
    // The counts have loaded (a tab without one, such as Announcements, has none to wait for).
    await expect(page.getByRole("tab", { name: /\(\d+\)$/ }).first()).toBeVisible();
    return page;
  }

  for (const tab of ADMIN_TABS) {
    test(`/admin?tab=${tab} has no WCAG 2.1 AA violations`, async () => {
      const page = await openAdmin(tab);
      await expect(page.getByRole("tabpanel").getByRole("status")).toHaveCount(0);
      await expectNoAxeViolations(page, `/admin?tab=${tab}`);
      await page.close();
    });
  }

  test("the program form in edit mode has no violations", async () => {
    const page = await openAdmin("programs");
    await page.getByRole("button", { name: "Edit Beginner Program" }).click();
    await expect(page.getByRole("region", { name: "Edit Program" })).toBeVisible();
    await expectNoAxeViolations(page, "the program form in edit mode");
    await page.close();
  });

  test("the quiz modal, open, has no violations", async () => {
    const page = await openAdmin("programs");
    await page.getByRole("button", { name: "Manage Quiz for Beginner Program" }).click();
    const dialog = page.getByRole("dialog", { name: "Manage Quiz for Beginner Program" });
    await expect(dialog.getByLabel("Quiz Title", { exact: true })).toBeVisible();
    await expectNoAxeViolations(page, "the open quiz modal");
    await page.close();
  });

  test("the Edit Progress modal, open, has no violations", async () => {
    const page = await openAdmin("users");
    await page.getByLabel("Search by email").fill(adminEmail);
    const row = page.getByRole("row").filter({ hasText: adminEmail });
    await expect(row).toHaveCount(1);
    await row.getByRole("button", { name: "Edit Progress" }).click();
    const dialog = page.getByRole("dialog", { name: `Edit Progress for ${adminEmail}` });
    await expect(dialog.getByRole("checkbox").first()).toBeVisible();
    await expectNoAxeViolations(page, "the open Edit Progress modal");
    await page.close();
  });

  test("the delete confirmation, open, has no violations", async () => {
    const page = await openAdmin("programs");
    await page.getByRole("button", { name: "Delete Beginner Program" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete Beginner Program?" });
    await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
    await expectNoAxeViolations(page, "the open delete confirmation");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toHaveCount(0);
    await page.close();
  });
});
