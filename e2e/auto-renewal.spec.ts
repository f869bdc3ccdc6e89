// Automatic renewal on /subscription (docs/subscriptions.md, "Automatic renewal"): a card payer
// turns it on and off with a checkbox whose consent names the amount at today's rate and the day;
// a mobile-money payer is told why it is not offered. Each test turns off what it turned on.
import { expect, test, type Page } from "@playwright/test";
import { signedInAccount, uniqueEmail } from "./support/accounts.ts";
import { expectNoAxeViolations } from "./support/axe.ts";

function checkout(page: Page) {
  return page.frameLocator('iframe[title="Paystack checkout (test mode)"]');
}

async function payForIntermediate(page: Page, channel: "Card" | "Mobile money") {
  await page.goto("/subscription");
  await page
    .locator(".card")
    .filter({ has: page.getByRole("heading", { name: "Intermediate", exact: true }) })
    .getByRole("button", { name: "Upgrade" })
    .click();
  await checkout(page).getByLabel(channel).check();
  await checkout(page).getByRole("button", { name: "Pay" }).click();
  await expect(page).toHaveURL("/program");
  await page.goto("/subscription");
}

test("a card payer turns automatic renewal on and off, reading what it will charge and when", async ({ page, context, request }, testInfo) => {
  await signedInAccount(context, request, { email: uniqueEmail(testInfo), name: "Ama Mensah" });
  await payForIntermediate(page, "Card");

  const status = page.getByRole("region", { name: "Your subscription" });
  await expect(status.getByRole("heading", { name: "Automatic renewal" })).toBeVisible();
  const toggle = status.getByRole("checkbox", { name: "Renew my plan automatically by card" });
  await expect(toggle).not.toBeChecked();
  const endsOn = (await status.locator("dd time").first().textContent()) ?? "";
  await expect(toggle).toHaveAccessibleDescription(
    new RegExp(
      `^On ${endsOn}, the day your Intermediate month ends.*your Visa card ending in 4081 US\\$ 35\\.00 in cedis at that day's rate: GH₵ 541\\.00 at today's rate of 15\\.45 cedis per dollar\\.`,
    ),
  );
  await expectNoAxeViolations(page, "/subscription with automatic renewal offered");

  await toggle.check();
  await expect(page.getByText("Automatic renewal is on.")).toBeVisible();
  await page.reload();
  await expect(toggle).toBeChecked();

  await toggle.uncheck();
  await expect(page.getByText("Automatic renewal is off: you will not be charged.")).toBeVisible();
  await page.reload();
  await expect(toggle).not.toBeChecked();
});

test("a mobile-money payer keeps the reminders and is told why automatic renewal is not offered", async ({ page, context, request }, testInfo) => {
  await signedInAccount(context, request, { email: uniqueEmail(testInfo), name: "Kwame Boateng" });
  await payForIntermediate(page, "Mobile money");

  const status = page.getByRole("region", { name: "Your subscription" });
  await expect(status.getByRole("heading", { name: "Automatic renewal" })).toBeVisible();
  await expect(status).toContainText(
    "Mobile-money payments cannot be charged again automatically: we email you a reminder before your plan ends.",
  );
  await expect(status.getByRole("checkbox")).toHaveCount(0);
});
