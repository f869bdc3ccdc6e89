// The account page (docs/accounts.md), as its owner uses it: a new name, a new email confirmed
// from the mailed link (read from the development mailbox), a new password, another device signed
// out, and the account deleted.
import { expect, test, type Page } from "@playwright/test";
import {
  DEFAULT_PASSWORD,
  expectSignedOutHeader,
  logIn,
  mailFor,
  readLinkFromMail,
  signedInAccount,
  uniqueEmail,
} from "./support/accounts.ts";
import { expectNoAxeViolations } from "./support/axe.ts";

const NEW_PASSWORD = "Another-Secret-2026";

const main = (page: Page) => page.getByRole("main");
const card = (page: Page, title: string) => main(page).getByRole("region", { name: title });

test("a learner renames themself, moves to a new email once its link is opened, and changes the password", async ({
  page,
  context,
  request,
}, testInfo) => {
  const email = uniqueEmail(testInfo);
  const newEmail = uniqueEmail("moved");
  await signedInAccount(context, request, { email });

  // The verification link, opened again while signed in, says it was used already.
  await page.goto(await readLinkFromMail(request, email, "/verify-email"));
  await expect(main(page).getByRole("status")).toHaveText("Your email is already verified.");
  await expect(main(page).getByRole("link", { name: "Go to My Programs" })).toBeVisible();

  await page.goto("/");
  await page.getByRole("button", { name: /account menu/ }).click();
  await page.getByRole("menuitem", { name: "Your Account" }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(main(page).getByRole("heading", { level: 1, name: "Your Account" })).toBeVisible();
  await expect(page).toHaveTitle(/^Your Account/);

  const name = card(page, "Name");
  await name.getByLabel("Full Name").fill("  Akosua Adjoa Mensah ");
  await name.getByRole("button", { name: "Save Name" }).click();
  await expect(name.getByRole("status")).toHaveText("Your name has been saved.");
  await expect(name.getByLabel("Full Name")).toHaveValue("Akosua Adjoa Mensah");
  // The first and the last name's letters.
  await expect(page.getByRole("button", { name: "AM account menu" })).toBeVisible();

  const emailCard = card(page, "Email");
  await emailCard.getByLabel("New Email").fill(newEmail);
  await emailCard.getByRole("button", { name: "Change Email" }).click();
  await expect(emailCard.getByRole("status")).toContainText(`We sent a link to ${newEmail}.`);
  await expect(emailCard.getByText(email)).toBeVisible();
  await page.goto(await readLinkFromMail(request, newEmail, "/verify-email"));
  await expect(main(page).getByRole("status")).toHaveText(`Your email is now ${newEmail}`);
  await main(page).getByRole("link", { name: "Back to Your Account" }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(card(page, "Email").getByText(newEmail)).toBeVisible();

  const password = card(page, "Password");
  await password.getByLabel("Current Password").fill("not my password");
  await password.getByLabel("New Password", { exact: true }).fill(NEW_PASSWORD);
  await password.getByLabel("Confirm New Password").fill(NEW_PASSWORD);
  await password.getByRole("button", { name: "Change Password" }).click();
  await expect(password.getByRole("alert")).toHaveText("Incorrect password. Please try again.");
  await password.getByLabel("Current Password").fill(DEFAULT_PASSWORD);
  await password.getByRole("button", { name: "Change Password" }).click();
  await expect(password.getByRole("status")).toHaveText(
    "Your password has been changed. Your other devices have been signed out.",
  );

  await page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Logout" }).click();
  await expectSignedOutHeader(page);
  await logIn(page, newEmail, NEW_PASSWORD);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("button", { name: /account menu/ })).toBeVisible();
});

test("a learner sees where they are signed in and signs another device out", async ({ page, context, request, browser }, testInfo) => {
  const email = uniqueEmail(testInfo);
  await signedInAccount(context, request, { email });
  const phone = await browser.newContext({ viewport: { width: 360, height: 740 } });
  const phonePage = await phone.newPage();
  await logIn(phonePage, email, DEFAULT_PASSWORD);
  await expect(phonePage).toHaveURL(/\/$/);

  await page.goto("/account");
  const devices = card(page, "Where You're Signed In");
  await expect(devices.getByRole("listitem")).toHaveCount(2);
  await expect(devices.getByRole("listitem").first()).toContainText("This device");
  // Held on its way, the button says what it is doing, and is still named by what it shows.
  let releaseSignOut: () => void = () => undefined;
  const signOutHeld = new Promise<void>((resolve) => (releaseSignOut = resolve));
  await page.route("**/api/accounts/sessions/*", async (route) => {
    if (route.request().method() === "DELETE") await signOutHeld;
    await route.continue();
  });
  const other = devices.getByRole("listitem").filter({ hasNotText: "This device" }).getByRole("button");
  // Which device, in the name: the list shows it beside the button.
  await expect(other).toHaveAccessibleName(/^sign out .+, signed in /i);
  await other.click();
  await expect(other).toHaveText(/^Signing out\.\.\./);
  await expect(other).toBeDisabled();
  await expectNoAxeViolations(page, "/account, signing a device out");
  releaseSignOut();
  await expect(devices.getByRole("status")).toHaveText("That device has been signed out.");
  await expect(devices.getByRole("listitem")).toHaveCount(1);

  await phonePage.goto("/account");
  await expect(phonePage).toHaveURL(/\/login\?redirect=%2Faccount$/);
  const phoneMain = phonePage.getByRole("main");
  await expect(phoneMain.getByRole("status")).toHaveText(
    "You were signed out on this device from another session. Please log in again.",
  );
  // The words stand until the next step: a sign-in attempt replaces them with its own answer.
  await phoneMain.getByLabel("Email").fill(email);
  await phoneMain.getByLabel("Password", { exact: true }).fill("not my password");
  await phoneMain.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(phoneMain.getByRole("alert")).toHaveText("Incorrect email or password. Please try again.");
  await expect(phoneMain.getByRole("status")).toHaveCount(0);
  await phone.close();
});

test("a learner deletes their account with their password, and is told by email", async ({ page, context, request }, testInfo) => {
  const email = uniqueEmail(testInfo);
  await signedInAccount(context, request, { email });
  await page.goto("/account");

  await card(page, "Delete Account").getByRole("button", { name: "Delete Account" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete your account?" });
  await expect(dialog).toContainText(email);
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  await dialog.getByRole("button", { name: "Delete My Account" }).click();
  await expect(dialog.getByRole("alert")).toHaveText("Please enter your password to delete your account.");
  await dialog.getByLabel("Your Password").fill("not my password");
  await dialog.getByRole("button", { name: "Delete My Account" }).click();
  await expect(dialog.getByRole("alert")).toHaveText("Incorrect password. Please try again.");
  await dialog.getByLabel("Your Password").fill(DEFAULT_PASSWORD);
  await dialog.getByRole("button", { name: "Delete My Account" }).click();

  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText("Your account has been deleted.")).toBeVisible();
  await expectSignedOutHeader(page);
  await expect
    .poll(async () => (await mailFor(request, email)).map((mail) => mail.subject), { timeout: 15_000 })
    .toContain("Your Trading Academy account has been deleted");

  await logIn(page, email, DEFAULT_PASSWORD);
  await expect(main(page).getByRole("alert")).toHaveText("Incorrect email or password. Please try again.");
});
