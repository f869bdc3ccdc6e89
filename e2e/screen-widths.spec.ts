// Every page at a phone's 360 px and a desktop's 1440 px, as a visitor, a learner and an admin:
// the page never scrolls sideways (wide tables scroll inside their own box). Each page is
// photographed to test-results/screens/ for a look by eye.
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { newSignedInContext, uniqueEmail } from "./support/accounts.ts";
import { setPlanWithCli } from "./support/operator.ts";
import { ADMIN_TABS, LEARNER_PAGES, VISITOR_PAGES } from "./support/routes.ts";

const WIDTHS = [
  { width: 360, height: 740 },
  { width: 1440, height: 900 },
];

/** Checks, without stopping the test, that the page is no wider than the window. */
async function expectNoSideways(page: Page, name: string) {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect.soft(scrollWidth, `${name} is ${scrollWidth} px wide in a ${clientWidth} px window`).toBeLessThanOrEqual(clientWidth);
  const file = name.replace(/^\//, "").replace(/[^a-z0-9]+/gi, "-").replace(/^-|-$/g, "") || "home";
  await page.screenshot({ path: `test-results/screens/${file}-${clientWidth}.png`, fullPage: true });
}

async function visit(page: Page, path: string) {
  await page.goto(path);
  await expect(page.locator("main h1").first()).toBeVisible();
  await expect(page.getByRole("main").getByText(/^Loading/)).toHaveCount(0);
}

for (const viewport of WIDTHS) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test("every visitor page fits", async ({ page }) => {
      for (const path of VISITOR_PAGES) {
        await visit(page, path);
        await expectNoSideways(page, path);
      }
    });
  });
}

test.describe("signed in", () => {
  let learner: BrowserContext;
  let admin: BrowserContext;
  let adminEmail: string;
  test.beforeAll(async ({ browser }) => {
    learner = await newSignedInContext(browser, { email: uniqueEmail("widths learner") });
    adminEmail = uniqueEmail("widths admin");
    admin = await newSignedInContext(browser, { email: adminEmail, name: "Kofi Admin" });
    await setPlanWithCli(adminEmail, "admin");
  });
  test.afterAll(async () => {
    await learner.close();
    await admin.close();
  });

  for (const viewport of WIDTHS) {
    test(`every learner page fits ${viewport.width} px, with the menus open`, async () => {
      const page = await learner.newPage();
      await page.setViewportSize(viewport);
      for (const path of LEARNER_PAGES) {
        await visit(page, path);
        await expectNoSideways(page, `learner ${path}`);
      }
      if (viewport.width > 800) {
        await page.getByRole("button", { name: /account menu/ }).click();
        await expect(page.getByRole("menu")).toBeVisible();
        await expectNoSideways(page, "learner account menu");
      } else {
        await page.getByRole("button", { name: "Open menu" }).click();
        await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "About" })).toBeVisible();
        await expectNoSideways(page, "learner mobile menu");
      }
      await page.close();
    });

    test(`every admin tab and dialog fits ${viewport.width} px`, async () => {
      const page = await admin.newPage();
      await page.setViewportSize(viewport);
      for (const tab of ADMIN_TABS) {
        await visit(page, `/admin?tab=${tab}`);
        await expect(page.getByRole("tabpanel").getByRole("status")).toHaveCount(0);
        await expectNoSideways(page, `admin ${tab}`);
      }

      await visit(page, "/admin");
      await page.getByRole("button", { name: "Edit Beginner Program" }).click();
      await expect(page.getByRole("region", { name: "Edit Program" })).toBeVisible();
      await expectNoSideways(page, "admin program form editing");

      await page.getByRole("button", { name: "Manage Quiz for Beginner Program" }).click();
      const quiz = page.getByRole("dialog", { name: "Manage Quiz for Beginner Program" });
      await expect(quiz.getByLabel("Quiz Title", { exact: true })).toBeVisible();
      await expectNoSideways(page, "admin quiz modal");
      await page.keyboard.press("Escape");
      await expect(quiz).toHaveCount(0);

      await visit(page, "/admin?tab=users");
      await page.getByLabel("Search by email").fill(adminEmail);
      await expect(page.getByRole("row").filter({ hasText: adminEmail })).toHaveCount(1);
      await page.getByRole("row").filter({ hasText: adminEmail }).getByRole("button", { name: "Edit Progress" }).click();
      const progress = page.getByRole("dialog", { name: `Edit Progress for ${adminEmail}` });
      await expect(progress.getByRole("textbox").first()).toBeVisible();
      await expectNoSideways(page, "admin progress modal");
      await page.close();
    });
  }
});
