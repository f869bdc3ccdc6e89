// Installing the app from /account (docs/product.md, "Account") on a 360 px phone. Headless
// Chromium never offers the install itself, so the test hands the page the event Chrome on Android
// sends once the manifest and the service worker meet its criteria (`beforeinstallprompt`, with
// `prompt()` and the learner's choice), and checks what the learner sees and that the browser's
// dialog is asked for.
import { expect, test, type Page } from "@playwright/test";
import { horizontalOverflow, signedInAccount, uniqueEmail } from "./support/accounts.ts";
import { expectNoAxeViolations } from "./support/axe.ts";

test.use({ viewport: { width: 360, height: 780 } });

const installCard = (page: Page) => page.getByRole("main").getByRole("region", { name: "Install the app" });

/** Chrome's offer, as it comes: the learner's answer to its dialog is `outcome`. */
async function browserOffersInstall(page: Page, outcome: "accepted" | "dismissed") {
  await page.evaluate((answer) => {
    const offer = Object.assign(new Event("beforeinstallprompt", { cancelable: true }), {
      prompt: () => {
        Object.assign(window, { installDialogShown: true });
        return Promise.resolve();
      },
      userChoice: Promise.resolve({ outcome: answer, platform: "web" }),
    });
    window.dispatchEvent(offer);
  }, outcome);
}

test("a learner installs the app from /account when the browser offers it", async ({ page, context, request }, testInfo) => {
  await signedInAccount(context, request, { email: uniqueEmail(testInfo) });
  await page.goto("/account");
  await expect(page.getByRole("heading", { name: "Data saver" })).toBeVisible();
  // A browser that offers nothing (Safari, Firefox, or the app already installed): no card.
  await expect(installCard(page)).toHaveCount(0);

  await browserOffersInstall(page, "accepted");
  const card = installCard(page);
  await expect(card).toContainText("Add Trading Academy to your home screen");
  expect(await horizontalOverflow(page)).toBe(0);
  await expectNoAxeViolations(page, "the install card at 360 px");
  await card.screenshot({ path: testInfo.outputPath("install-card-360.png") });

  await card.getByRole("button", { name: "Install" }).click();
  await expect(card.getByRole("status")).toHaveText("Trading Academy is installed on this device. Open it from your home screen.");
  expect(await page.evaluate(() => Reflect.get(window, "installDialogShown"))).toBe(true);
});

test("a learner who declines the browser's dialog is told how to install later", async ({ page, context, request }, testInfo) => {
  await signedInAccount(context, request, { email: uniqueEmail(testInfo) });
  await page.goto("/account");
  await expect(page.getByRole("heading", { name: "Data saver" })).toBeVisible();
  await browserOffersInstall(page, "dismissed");
  const card = installCard(page);
  await card.getByRole("button", { name: "Install" }).click();
  await expect(card.getByRole("status")).toHaveText("Not installed. Your browser can install it later from its menu (Add to Home screen).");
  await expect(card.getByRole("button", { name: "Install" })).toHaveCount(0);
});
