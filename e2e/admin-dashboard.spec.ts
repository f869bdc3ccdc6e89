// The console's Dashboard tab (docs/admin.md, "Dashboard"): an administrator opens /admin on it,
// sees a learner's payment and first video arrive in its figures, reads every chart as a table,
// picks a funnel period (an empty one shows words in the chart's place, a reversed one is refused),
// at 360 px and at 1280 px, with no axe violations. Screens go to test-results/screens/.
import { expect, test, type Locator, type Page } from "@playwright/test";
import { horizontalOverflow, signedInAccount, uniqueEmail } from "./support/accounts.ts";
import { expectNoAxeViolations } from "./support/axe.ts";
import { setPlanWithCli } from "./support/operator.ts";

function card(page: Page, title: string): Locator {
  return page.getByRole("region", { name: title, exact: true });
}

/** A figure's value (a `<dd>`) by its label (its `<dt>`), as a number: "GH₵ 1,082.00" -> 1082. */
async function figure(scope: Locator, label: RegExp): Promise<number> {
  const term = scope.locator(".dashboard-figure").filter({ has: scope.page().locator("dt", { hasText: label }) });
  const text = (await term.locator("dd").first().innerText()).split("\n")[0] ?? "";
  return Number(text.replace(/[^\d.−-]/g, "").replace("−", "-"));
}

/** Learners on Intermediate today: the figure, or 0 when the card says nobody holds a paid plan. */
async function paidIntermediate(page: Page): Promise<number> {
  const learners = card(page, "Paid learners today");
  if ((await learners.locator(".dashboard-empty").count()) > 0) return 0;
  return figure(learners, /^Intermediate$/);
}

/** Learners who started Beginner, from the Completion card's table (none when it says nobody started). */
async function startedBeginner(page: Page): Promise<number> {
  const completion = card(page, "Completion");
  if ((await completion.locator(".chart-empty").count()) > 0) return 0;
  const toggle = completion.getByRole("button", { name: "Show as table" });
  if ((await toggle.count()) > 0) await toggle.click();
  const row = completion.getByRole("row").filter({ hasText: "Beginner Program" });
  return Number((await row.getByRole("cell").first().innerText()).replace(/\D/g, ""));
}

/** The charts drawn on the tab (each chart's surface, named by its title), once all have loaded. */
async function charts(page: Page): Promise<Locator> {
  await expect(page.getByRole("tabpanel").getByRole("status")).toHaveCount(0);
  return page.getByRole("tabpanel").getByRole("application");
}

test("an administrator reads how the academy is doing on the dashboard", async ({ page, context, browser, request }, testInfo) => {
  test.slow(); // two people signed up, a payment through the checkout, a video watched
  const adminEmail = uniqueEmail(`admin ${testInfo.title}`);
  await signedInAccount(context, request, { email: adminEmail, name: "Kofi Admin" });
  await setPlanWithCli(adminEmail, "admin");

  // /admin opens on the dashboard.
  await page.goto("/admin");
  await expect(page.getByRole("tab", { name: "Dashboard" })).toHaveAttribute("aria-selected", "true");
  await expect(card(page, "Revenue by month")).toBeVisible();
  const intermediateBefore = await paidIntermediate(page);
  const revenueBefore = await figure(card(page, "Revenue by month"), /so far$/);
  const startedBefore = await startedBeginner(page);

  // A learner pays for a month of Intermediate and watches a first Beginner video.
  const learnerContext = await browser.newContext();
  const learner = await learnerContext.newPage();
  await signedInAccount(learnerContext, request, { email: uniqueEmail(`learner ${testInfo.title}`) });
  await learner.goto("/subscription");
  await learner
    .locator(".card")
    .filter({ has: learner.getByRole("heading", { name: "Intermediate", exact: true }) })
    .getByRole("button", { name: "Upgrade" })
    .click();
  await learner.frameLocator('iframe[title="Paystack checkout (test mode)"]').getByRole("button", { name: "Pay" }).click();
  await expect(learner).toHaveURL("/program");
  await learner.goto("/program/beginner");
  await learner.getByRole("button", { name: "Mark as Watched" }).first().click();
  await expect(learner.getByRole("button", { name: "Watched", exact: true })).toBeVisible();
  await learnerContext.close();

  // The dashboard says so.
  await page.reload();
  await expect(card(page, "Revenue by month")).toBeVisible();
  expect(await paidIntermediate(page)).toBe(intermediateBefore + 1);
  expect(await figure(card(page, "Revenue by month"), /so far$/)).toBeCloseTo(revenueBefore + 541, 2);
  await expect(card(page, "Revenue by month")).toContainText("Cedis received each month");

  // Every section with data draws its chart: revenue, the funnel, completion, where learners stop.
  const surfaces = await charts(page);
  await expect(surfaces).toHaveCount((await card(page, "Waitlist places").locator(".chart-empty").count()) === 1 ? 4 : 5);
  await expect(card(page, "Revenue by month").locator(".recharts-bar-rectangle").first()).toBeVisible();
  await expectNoAxeViolations(page, "the dashboard with its charts");
  await page.screenshot({ path: "test-results/screens/dashboard-tab-1280.png", fullPage: true });

  // Each chart as a table with the same figures.
  const revenue = card(page, "Revenue by month");
  await revenue.getByRole("button", { name: "Show as table" }).click();
  const months = revenue.getByRole("table", { name: "Revenue by month" });
  await expect(months.getByRole("row")).toHaveCount(13);
  const thisMonth = new Date().toLocaleString("en-GB", { month: "long", year: "numeric", timeZone: "UTC" });
  await expect(months.getByRole("row").last().getByRole("rowheader")).toHaveText(thisMonth);
  await expect(months.getByRole("row").last()).toContainText("GH₵");
  expect(await startedBeginner(page)).toBe(startedBefore + 1);
  const stops = card(page, "Where learners stop");
  await stops.getByRole("button", { name: "Show as table" }).click();
  await expect(stops.getByRole("row").filter({ hasText: "Beginner Program" }).first()).toBeVisible();
  const funnel = card(page, "From registration to payment");
  await funnel.getByRole("button", { name: "Show as table" }).click();
  await expect(funnel.getByRole("rowheader")).toHaveText(["Registered", "Verified their email", "Started Beginner", "Finished Beginner", "Paid"]);
  await expectNoAxeViolations(page, "the dashboard as tables");
  await revenue.getByRole("button", { name: "Show as chart" }).click();
  await expect(revenue.locator("svg.recharts-surface")).toBeVisible();

  // A period with nobody in it: the chart's place says so. A reversed one is refused.
  await funnel.getByLabel("From", { exact: true }).fill("2019-01-01");
  await funnel.getByLabel("To", { exact: true }).fill("2019-01-31");
  await expect(page).toHaveURL(/from=2019-01-01&to=2019-01-31/);
  await expect(funnel.locator(".chart-empty")).toHaveText("No one registered in this period.");
  await expect(funnel).toContainText("Learners who registered from 1 January 2019 to 31 January 2019");
  await funnel.getByLabel("To", { exact: true }).fill("2018-12-01");
  await expect(funnel.getByRole("alert")).toHaveText("The start date must be on or before the end date.");

  // 360 px: nothing wider than the screen, the charts drawn to fit.
  await page.goto("/admin");
  await page.setViewportSize({ width: 360, height: 800 });
  await expect(await charts(page)).not.toHaveCount(0);
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  await expectNoAxeViolations(page, "the dashboard at 360 px");
  await page.screenshot({ path: "test-results/screens/dashboard-tab-360.png", fullPage: true });
});
