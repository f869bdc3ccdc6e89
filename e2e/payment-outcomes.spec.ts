// The right state at once (docs/subscriptions.md, "Asking Paystack"): a declined payment says so
// the moment the checkout closes; a learner who paid and closed the tab before any webhook finds
// the plan on coming back; a closed, unpaid checkout does not stand in the way of deleting the
// account.
import { expect, test, type Page } from "@playwright/test";
import { DEFAULT_PASSWORD, expectSignedOutHeader, logIn, signedInAccount, uniqueEmail } from "./support/accounts.ts";
import { screens } from "./support/screens.ts";

// The development server's simulator key (src/server/env.ts): it authorizes the test controls.
const SIMULATOR_KEY = "sk_test_simulator_secret_key";

function checkout(page: Page) {
  return page.frameLocator('iframe[title="Paystack checkout (test mode)"]');
}

function planCard(page: Page, title: string) {
  return page.locator(".card").filter({ has: page.getByRole("heading", { name: title, exact: true }) });
}

function historyRow(page: Page, purpose: string) {
  return page.getByRole("region", { name: "Payment history" }).getByRole("row").filter({ hasText: purpose });
}

/** Presses the plan's button on /subscription; answers the reference of the checkout the server created. */
async function startCheckout(page: Page, plan: "Intermediate" | "Advanced"): Promise<string> {
  await page.goto("/subscription");
  const [created] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith("/api/subscription-management") && r.request().postDataJSON()?.action === "create_subscription"),
    planCard(page, plan).getByRole("button", { name: "Upgrade" }).click(),
  ]);
  const { reference } = (await created.json()) as { reference: string };
  await expect(checkout(page).getByRole("button", { name: "Pay" })).toBeVisible();
  return reference;
}

test("a declined card says so as soon as the checkout closes, and the history says Failed", async ({ page, context, request }, testInfo) => {
  await signedInAccount(context, request, { email: uniqueEmail(testInfo) });
  await startCheckout(page, "Advanced");
  await checkout(page).getByRole("button", { name: "Fail" }).click();
  await expect(checkout(page).getByText("Payment failed. Declined.")).toBeVisible();
  await checkout(page).getByRole("button", { name: "Close" }).click();

  await expect(page.getByText("Your payment was declined; you have not been charged.")).toBeVisible();
  await expect(page.getByText("If you completed payment, your transaction is being processed.")).toHaveCount(0);
  await expect(historyRow(page, "1 month of the Advanced plan").getByRole("cell", { name: "Failed" })).toBeVisible();
  await expect(planCard(page, "Free").getByRole("button", { name: "Current Plan" })).toBeDisabled();
  // The sentence is a toast: shot as the learner sees it, then the whole page.
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 740 });
    const toast = page.getByText("Your payment was declined; you have not been charged.");
    await expect(toast).toBeInViewport();
    // Changing the width moves the toast: let it settle where it goes.
    await page.locator("[data-sonner-toast]").evaluate((el) => Promise.all(el.getAnimations({ subtree: true }).map((a) => a.finished)));
    await page.screenshot({ path: `test-results/screens/payment-declined-toast-${width}.png` });
  }
  await screens(page, "payment-declined");
});

test("a learner who paid and closed the tab before any webhook finds the plan on signing in again", async ({
  page,
  context,
  browser,
  request,
}, testInfo) => {
  const email = uniqueEmail(testInfo);
  await signedInAccount(context, request, { email });
  const reference = await startCheckout(page, "Intermediate");
  // Paid at Paystack (a mobile-money prompt approved on the phone), and no webhook arrives.
  const paid = await request.post(`/dev/fakes/paystack/simulate/${encodeURIComponent(reference)}`, {
    headers: { authorization: `Bearer ${SIMULATOR_KEY}` },
    data: { outcome: "success", deliverWebhook: false },
  });
  expect(paid.ok()).toBe(true);
  await page.close();

  const later = await browser.newContext();
  const again = await later.newPage();
  await logIn(again, email, DEFAULT_PASSWORD);
  await expect(again.getByRole("button", { name: /account menu/ })).toBeVisible();
  await again.goto("/subscription");
  await expect(again.getByRole("region", { name: "Your subscription" })).toContainText("Intermediate");
  await expect(planCard(again, "Intermediate").getByRole("button", { name: "Current Plan" })).toBeDisabled();
  await expect(historyRow(again, "1 month of the Intermediate plan").getByRole("cell", { name: "Paid" })).toBeVisible();
  await later.close();
});

test("a learner closes an unpaid checkout, then deletes the account at once", async ({ page, context, request }, testInfo) => {
  const email = uniqueEmail(testInfo);
  await signedInAccount(context, request, { email });
  await startCheckout(page, "Intermediate");
  await checkout(page).getByRole("button", { name: "Close" }).click();
  await expect(page.getByText("Payment window closed. If you completed payment, your transaction is being processed.")).toBeVisible();
  await expect(historyRow(page, "1 month of the Intermediate plan").getByRole("cell", { name: "Not completed" })).toBeVisible();

  await page.goto("/account");
  await page.getByRole("main").getByRole("region", { name: "Delete Account" }).getByRole("button", { name: "Delete Account" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete your account?" });
  await dialog.getByLabel("Your Password").fill(DEFAULT_PASSWORD);
  await dialog.getByRole("button", { name: "Delete My Account" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText("Your account has been deleted.")).toBeVisible();
  await expectSignedOutHeader(page);
});
