import { expect, test, type Locator, type Page } from "@playwright/test";
import { nextCohort } from "../src/shared/billing.ts";
import { mailFor, signedInAccount, uniqueEmail } from "./support/accounts.ts";
import { screens } from "./support/screens.ts";

/** The simulator's checkout, opened by Paystack's inline script in a frame over the page. */
function checkout(page: Page) {
  return page.frameLocator('iframe[title="Paystack checkout (test mode)"]');
}

function planCard(page: Page, title: string) {
  return page.locator(".card").filter({ has: page.getByRole("heading", { name: title, exact: true }) });
}

/** What a plan's card says will happen before its button is pressed (docs/product.md, "Subscription page"). */
function disclosureOf(card: Locator) {
  return card.locator(".plan-disclosure").filter({ hasText: "Before you pay" });
}

test("a free learner upgrades to Intermediate through the checkout and studies it", async ({
  page,
  context,
  request,
}, testInfo) => {
  const email = uniqueEmail(testInfo);
  await signedInAccount(context, request, { email });
  await page.goto("/subscription");
  await expect(page.getByRole("heading", { name: "Subscription Plans" })).toBeVisible();
  await expect(planCard(page, "Free").getByRole("button", { name: "Current Plan" })).toBeDisabled();
  await expect(planCard(page, "Advanced")).toContainText("POPULAR");
  await expect(planCard(page, "Intermediate")).toContainText("$35/month");
  await expect(planCard(page, "Intermediate")).toContainText("GH₵ 541/month");

  await planCard(page, "Intermediate").getByRole("button", { name: "Upgrade" }).click();
  await expect(checkout(page).getByText("GH₵ 541.00")).toBeVisible();
  await checkout(page).getByRole("button", { name: "Pay" }).click();

  await expect(page).toHaveURL("/program");
  await expect(page.getByText("Payment verified! Your plan has been upgraded.").first()).toBeVisible();
  // The first card is the program just bought, on the programs page and on the home page.
  const bought = page.getByRole("region", { name: "Start learning" });
  await expect(bought).toContainText("Intermediate Program");
  await expect(bought.getByRole("link", { name: "Start: Chart patterns" })).toBeVisible();
  await page.goto("/");
  await expect(page.getByRole("region", { name: "Start learning" })).toContainText("Intermediate Program");
  await page.goto("/program/intermediate");
  await expect(page.getByRole("heading", { level: 1, name: "Intermediate Program" })).toBeVisible();
  await expect(page.getByRole("button", { name: /^Play video, / })).toBeVisible();

  await page.goto("/subscription");
  await expect(page.getByText("Your subscription")).toBeVisible();
  await expect(page.getByText(/^(30|31) days$/)).toBeVisible();
  await expect(planCard(page, "Intermediate").getByRole("button", { name: "Current Plan" })).toBeDisabled();
  await expect(planCard(page, "Advanced").getByRole("button", { name: "Change Plan" })).toBeEnabled();

  // The receipt, sent by the server once the payment was credited.
  await expect
    .poll(async () => (await mailFor(request, email)).some((m) => m.subject.startsWith("Your Trading Academy receipt")))
    .toBe(true);
  await page.screenshot({ path: "test-results/screens/subscription-1280.png", fullPage: true });
});

test("the upgrade disclosure before paying names the queued days and dates", async ({ page, context, request }, testInfo) => {
  await signedInAccount(context, request, { email: uniqueEmail(testInfo) });
  await page.goto("/subscription");
  // Nothing runs yet: the price and the month, and no days to queue.
  const firstMonth = disclosureOf(planCard(page, "Intermediate"));
  await expect(firstMonth).toContainText("You pay GH₵ 541.00 (US$ 35.00) now.");
  await expect(firstMonth).toContainText(/Intermediate starts now and runs from \d+ \w+ \d{4} to \d+ \w+ \d{4}\./);
  await expect(firstMonth).not.toContainText("left");
  await planCard(page, "Intermediate").getByRole("button", { name: "Upgrade" }).click();
  await checkout(page).getByRole("button", { name: "Pay" }).click();
  await expect(page).toHaveURL("/program");

  // Mid-month on Intermediate: before paying for Advanced, the page says what happens to the days left.
  await page.goto("/subscription");
  const today = await page.evaluate(() =>
    new Date().toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric" }),
  );
  const advanced = planCard(page, "Advanced");
  const disclosure = disclosureOf(advanced);
  await expect(disclosure).toContainText("You pay GH₵ 773.00 (US$ 50.00) now.");
  await expect(disclosure).toContainText(`Advanced starts now and runs from ${today} to `);
  const queued = disclosure.getByText(/^The (30|31) days left of your Intermediate plan are not lost: they are queued after Advanced, from .+ to .+\.$/);
  await expect(queued).toBeVisible();
  const [, queuedFrom, queuedTo] = /from (.+) to (.+)\.$/.exec((await queued.textContent()) ?? "") ?? [];
  await expect(disclosure).toContainText(`runs from ${today} to ${queuedFrom}.`);
  await expect(advanced.getByRole("button", { name: "Change Plan" })).toHaveAccessibleDescription(/Before you pay .*The (30|31) days left/);
  await screens(page, "upgrade-disclosure");

  await advanced.getByRole("button", { name: "Change Plan" }).click();
  await expect(checkout(page).getByText("GH₵ 773.00")).toBeVisible();
  await checkout(page).getByRole("button", { name: "Pay" }).click();
  await expect(page).toHaveURL("/program");

  // What was said is what happened.
  await page.goto("/subscription");
  const status = page.getByRole("region", { name: "Your subscription" });
  await expect(status).toContainText("Advanced");
  await expect(status).toContainText(`Ends on${queuedFrom}`);
  await expect(status).toContainText(`Then Intermediate until ${queuedTo}`);
});

test("closing the checkout says the window closed and changes nothing", async ({ page, context, request }, testInfo) => {
  await signedInAccount(context, request, { email: uniqueEmail(testInfo) });
  await page.goto("/subscription");
  await planCard(page, "Advanced").getByRole("button", { name: "Upgrade" }).click();
  await checkout(page).getByRole("button", { name: "Close" }).click();
  await expect(
    page.getByText("Payment window closed. If you completed payment, your transaction is being processed."),
  ).toBeVisible();
  await expect(planCard(page, "Free").getByRole("button", { name: "Current Plan" })).toBeDisabled();
  await expect(planCard(page, "Advanced").getByRole("button", { name: "Upgrade" })).toBeEnabled();
});

test("a learner joins the waitlist for Advanced and sees the success page", async ({ page, context, request }, testInfo) => {
  await signedInAccount(context, request, { email: uniqueEmail(testInfo) });
  await page.goto("/join-waitlist");
  await expect(page.getByRole("heading", { name: "Join the Waitlist" })).toBeVisible();
  await expect(page.getByText(/^for the (January|April|July|October) \d{4} cohort$/)).toBeVisible();

  const advanced = page.locator(".card").filter({ has: page.getByRole("heading", { name: "Advanced track" }) });
  await advanced.getByRole("button", { name: "Pay for 1 Month & Join Waitlist" }).click();
  await checkout(page).getByRole("button", { name: "Pay" }).click();

  // The page names what this payment bought, as the server's record of it says.
  await expect(page).toHaveURL(/\/join-waitlist\/success\?reference=LTF-WAITLIST-ADVANCED-\d+$/);
  await expect(page.getByRole("heading", { name: "You're on the waitlist!" })).toBeVisible();
  const cohort = nextCohort(new Date()).name;
  await expect(page.getByText(`You are now on the waitlist for the Advanced track of the ${cohort} cohort.`)).toBeVisible();

  // A reference that is not a payment of the learner's names no track.
  await page.goto("/join-waitlist/success?reference=LTF-WAITLIST-INTERMEDIATE-1");
  await expect(page.getByText("You are now on the waitlist for the next cohort.")).toBeVisible();
  await expect(page.locator(".card").getByText(/Intermediate|Advanced/)).toHaveCount(0);

  await page.goto("/join-waitlist");
  await expect(page.getByRole("heading", { name: "You're on the Waitlist" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Go to Dashboard" })).toHaveAttribute("href", "/program");
});

test("visitors see the waitlist with links to create an account or sign in", async ({ page }) => {
  await page.goto("/join-waitlist");
  await expect(page.getByRole("heading", { name: "Join the Waitlist" })).toBeVisible();
  await expect(page.getByRole("main").getByRole("link", { name: "Create Account" })).toHaveAttribute(
    "href",
    "/register?redirect=/join-waitlist",
  );
  await expect(page.getByRole("main").getByRole("link", { name: "Sign In" })).toHaveAttribute(
    "href",
    "/login?redirect=/join-waitlist",
  );
});
