// Money a person can see: a learner's payment history and receipts on /subscription, and an
// administrator's refund from the console's Payments tab (docs/product.md; docs/subscriptions.md,
// "Refunds"). Screens are photographed to test-results/screens/ at 360 px and 1280 px for a look.
import { expect, test, type APIRequestContext, type BrowserContext, type Page } from "@playwright/test";
import { mailFor, signedInAccount, uniqueEmail } from "./support/accounts.ts";
import { expectNoAxeViolations } from "./support/axe.ts";
import { screens } from "./support/screens.ts";
import { setPlanWithCli } from "./support/operator.ts";

// The development server's simulator key (src/server/env.ts): it authorizes the test controls.
const SIMULATOR_KEY = "sk_test_simulator_secret_key";

function checkout(page: Page) {
  return page.frameLocator('iframe[title="Paystack checkout (test mode)"]');
}

function planCard(page: Page, title: string) {
  return page.locator(".card").filter({ has: page.getByRole("heading", { name: title, exact: true }) });
}

/** Upgrades the signed-in learner on `page` to Intermediate through the checkout, as a person does. */
async function payForIntermediate(page: Page) {
  await page.goto("/subscription");
  await planCard(page, "Intermediate").getByRole("button", { name: "Upgrade" }).click();
  await checkout(page).getByRole("button", { name: "Pay" }).click();
  await expect(page).toHaveURL("/program");
}

async function refuseRefunds(request: APIRequestContext, refuse: string | null) {
  const answer = await request.post("/dev/fakes/paystack/simulate/refunds", {
    headers: { authorization: `Bearer ${SIMULATOR_KEY}` },
    data: { refuse },
  });
  expect(answer.ok()).toBe(true);
}

async function signedInAdmin(context: BrowserContext, request: APIRequestContext, email: string) {
  await signedInAccount(context, request, { email, name: "Kofi Admin" });
  await setPlanWithCli(email, "admin");
}

test("a learner sees their payments on /subscription and opens a printable receipt", async ({ page, context, browser, request }, testInfo) => {
  const email = uniqueEmail(testInfo);
  await signedInAccount(context, request, { email, name: "Ama Mensah" });
  await payForIntermediate(page);

  await page.goto("/subscription");
  const history = page.getByRole("region", { name: "Payment history" });
  await expect(history.getByRole("heading", { name: "Payment history" })).toBeVisible();
  const row = history.getByRole("row").filter({ hasText: "1 month of the Intermediate plan" });
  await expect(row).toContainText("GH₵ 541.00");
  await expect(row).toContainText("Paid");
  await expect(row).toContainText(/LTF-INTERMEDIATE-\d+/);
  await expectNoAxeViolations(page, "/subscription with a payment in the history");
  await screens(page, "payment-history");
  await page.setViewportSize({ width: 360, height: 900 });
  await history.screenshot({ path: "test-results/screens/payment-history-section-360.png" });
  await page.setViewportSize({ width: 1280, height: 720 });

  // The receipt link is reachable by keyboard and shows where the focus is.
  const receiptLink = row.getByRole("link", { name: /^Receipt for LTF-INTERMEDIATE-\d+$/ });
  await receiptLink.focus();
  await expect(receiptLink).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/subscription\/receipts\/LTF-INTERMEDIATE-\d+$/);
  const receipt = page.getByRole("article", { name: "Payment receipt" });
  await expect(receipt.getByRole("heading", { level: 1, name: "Payment receipt" })).toBeVisible();
  await expect(receipt).toContainText("Ama Mensah");
  await expect(receipt).toContainText(email);
  await expect(receipt).toContainText("1 month of the Intermediate plan");
  await expect(receipt).toContainText("US$ 35.00 at 15.45 cedis per dollar");
  await expect(receipt.getByRole("row", { name: /Total paid/ })).toContainText("GH₵ 541.00");
  // The business and how Paystack says it was paid: the checkout's first choice, its test card.
  await expect(receipt.getByText("Trading Academy", { exact: true })).toBeVisible();
  await expect(receipt.getByText("Visa card ending in 4081", { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Print receipt" })).toBeVisible();
  await expectNoAxeViolations(page, "a receipt");
  await screens(page, "receipt");

  // On paper: the receipt alone.
  await page.emulateMedia({ media: "print" });
  await expect(page.locator(".site-header")).toBeHidden();
  await expect(page.getByRole("button", { name: "Print receipt" })).toBeHidden();
  await expect(receipt).toBeVisible();
  await page.screenshot({ path: "test-results/screens/receipt-print.png", fullPage: true });
  await page.emulateMedia({ media: "screen" });

  // Another learner cannot open it.
  const receiptUrl = page.url();
  const stranger = await browser.newContext();
  await signedInAccount(stranger, stranger.request, { email: uniqueEmail(`stranger ${testInfo.title}`) });
  const strangerPage = await stranger.newPage();
  await strangerPage.goto(receiptUrl);
  await expect(strangerPage.getByRole("alert")).toHaveText(
    "Receipt not found. It may belong to another account, or the payment was not completed.",
  );
  await expect(strangerPage.getByText("Ama Mensah")).toHaveCount(0);
  await stranger.close();
});

test("a learner who paid by mobile money opens the receipt from its email, and it prints on one A4 page", async ({
  page,
  context,
  request,
}, testInfo) => {
  const email = uniqueEmail(testInfo);
  await signedInAccount(context, request, { email, name: "Akosua Adjoa Mensah" });
  await page.goto("/subscription");
  await planCard(page, "Intermediate").getByRole("button", { name: "Upgrade" }).click();
  await checkout(page).getByLabel("Mobile money").check();
  await checkout(page).getByRole("button", { name: "Pay" }).click();
  await expect(page).toHaveURL("/program");

  let link = "";
  await expect
    .poll(async () => {
      const mail = (await mailFor(request, email)).find((m) => m.subject.startsWith("Your Trading Academy receipt"));
      link = mail?.text.match(/View your receipt: (\S+)/)?.[1] ?? "";
      return link;
    }, { timeout: 15_000 })
    .toMatch(/\/subscription\/receipts\/LTF-INTERMEDIATE-\d+$/);
  await page.goto(link);
  const receipt = page.getByRole("article", { name: "Payment receipt" });
  await expect(receipt).toContainText("Akosua Adjoa Mensah");
  // The avatar's initials are the first and last names' letters, not the first two names'.
  await expect(page.getByRole("button", { name: "AM account menu", exact: true })).toBeVisible();
  await expect(receipt.getByText("MTN Mobile Money 055***4987", { exact: true })).toBeVisible();
  await expect(receipt).toContainText(/\d+ \w+ \d{4} to \d+ \w+ \d{4}/);

  // The longest a receipt gets (a configured address and tax number, refunds) still prints on one A4 page.
  const reference = new URL(link).pathname.split("/").pop() ?? "";
  await page.route(`**/api/payments/${reference}`, async (route) => {
    const answer = await route.fetch();
    const body: Record<string, unknown> = await answer.json();
    const refund = { amountMinor: 5_000, status: "processed", createdAt: new Date().toISOString(), processedAt: new Date().toISOString() };
    await route.fulfill({
      response: answer,
      json: {
        ...body,
        business: { name: "Trading Academy Ltd", address: "12 Liberation Road, Airport Residential Area, Accra, Ghana", taxNumber: "C0012345678" },
        refundedMinor: 15_000,
        refunds: [refund, refund, { ...refund, status: "pending", processedAt: null }],
      },
    });
  });
  await page.reload();
  await expect(receipt).toContainText("Tax number: C0012345678");
  await expect(receipt.getByRole("row", { name: /Total after refunds/ })).toContainText("GH₵ 391.00");
  await screens(page, "receipt-full");
  await page.emulateMedia({ media: "print" });
  await page.screenshot({ path: "test-results/screens/receipt-full-print.png", fullPage: true });
  const pdf = await page.pdf({ format: "A4", path: "test-results/screens/receipt-full.pdf" });
  const pages = pdf.toString("latin1").match(/\/Type\s*\/Page(?!s)/g) ?? [];
  expect(pages).toHaveLength(1);
});

test("an admin refunds a payment from the Payments tab, after a confirmation naming the amount and the learner", async ({
  page,
  context,
  browser,
  request,
}, testInfo) => {
  test.slow(); // two people, a checkout, a refused refund and a refund
  const learnerEmail = uniqueEmail(`learner ${testInfo.title}`);
  const learner = await browser.newContext();
  await signedInAccount(learner, learner.request, { email: learnerEmail, name: "Ama Mensah" });
  const learnerPage = await learner.newPage();
  await payForIntermediate(learnerPage);

  await signedInAdmin(context, request, uniqueEmail(`admin ${testInfo.title}`));
  await page.goto("/admin?tab=payments");
  await page.getByLabel("Status").selectOption("success");
  await expect(page).toHaveURL(/status=success/);
  const row = page.getByRole("row").filter({ hasText: learnerEmail });
  await expect(row.getByText("Success", { exact: true })).toBeVisible();
  await screens(page, "admin-payments");

  // Paystack refuses first (the simulator's control): the dialog says so, and nothing changes.
  await refuseRefunds(request, "Refunds are paused on this account.");
  try {
    await row.getByRole("button", { name: /^Refund LTF-INTERMEDIATE-/ }).click();
    const dialog = page.getByRole("dialog", { name: "Refund payment" });
    await expect(dialog).toContainText(`Refund ₵541.00 (GHS) to Ama Mensah (${learnerEmail}) for payment LTF-INTERMEDIATE-`);
    await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
    await dialog.getByRole("button", { name: "Refund ₵541.00" }).click();
    await expect(dialog.getByRole("alert")).toHaveText("Paystack refused the refund: Refunds are paused on this account. Nothing was changed.");
    await expectNoAxeViolations(page, "the refund dialog with Paystack's refusal");
    await screens(page, "admin-refund-refused");
    await dialog.getByRole("button", { name: "Cancel" }).click();
  } finally {
    await refuseRefunds(request, null);
  }
  await expect(row.getByText("Success", { exact: true })).toBeVisible();

  // Then it goes through, by keyboard.
  await row.getByRole("button", { name: /^Refund LTF-INTERMEDIATE-/ }).click();
  const dialog = page.getByRole("dialog", { name: "Refund payment" });
  await dialog.getByLabel("Reason (optional, for the audit log)").fill("Asked within 7 days");
  await screens(page, "admin-refund-dialog");
  await dialog.getByRole("button", { name: "Refund ₵541.00" }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByText(`Refunded ₵541.00 to Ama Mensah (${learnerEmail}).`, { exact: true })).toBeVisible();
  await expect(dialog).toBeHidden();

  // The filter on success no longer shows it; refunded does, with the amount.
  await expect(row).toHaveCount(0);
  await page.getByLabel("Status").selectOption("refunded");
  await expect(row.getByText("Refunded", { exact: true })).toBeVisible();
  await expect(row).toContainText("₵541.00 refunded");
  await expect(row.getByRole("button", { name: /^Refund/ })).toHaveCount(0);
  await screens(page, "admin-payments-refunded");

  // The learner: the month is gone, the history says refunded, and the email came.
  await learnerPage.goto("/subscription");
  await expect(planCard(learnerPage, "Free").getByRole("button", { name: "Current Plan" })).toBeDisabled();
  const history = learnerPage.getByRole("region", { name: "Payment history" });
  await expect(history.getByRole("row").filter({ hasText: "1 month of the Intermediate plan" })).toContainText("Refunded");
  await expect
    .poll(async () => (await mailFor(request, learnerEmail)).some((mail) => mail.subject.startsWith("Your Trading Academy refund for")))
    .toBe(true);
  await learner.close();
});
