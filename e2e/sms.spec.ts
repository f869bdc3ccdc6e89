// SMS on /account (docs/product.md, "SMS") on a 360 px phone: a number added, its code read from
// the development mailbox (where SMS go without Hubtel's keys), confirmed, and the choices changed.
import { expect, test, type Page } from "@playwright/test";
import { horizontalOverflow, mailFor, signedInAccount, uniqueEmail } from "./support/accounts.ts";
import { expectNoAxeViolations } from "./support/axe.ts";
import { setPlanWithCli } from "./support/operator.ts";

test.use({ viewport: { width: 360, height: 780 } });

const smsCard = (page: Page) => page.getByRole("main").getByRole("region", { name: "Text messages (SMS)" });

test("a learner adds a mobile number, confirms it with the SMS code and chooses what comes by SMS", async ({
  page,
  context,
  request,
}, testInfo) => {
  await signedInAccount(context, request, { email: uniqueEmail(testInfo) });
  // A number of its own for each run: a confirmed number belongs to one account.
  const digits = String(Math.floor(Math.random() * 10_000_000)).padStart(7, "0");
  const national = `024${digits}`;
  const e164 = `+23324${digits}`;
  await page.goto("/account");
  const card = smsCard(page);

  await card.getByLabel("Mobile number").fill("030 123 4567");
  await card.getByRole("button", { name: "Send code" }).click();
  await expect(card.getByRole("alert")).toContainText("Please enter a Ghanaian mobile number");

  await card.getByLabel("Mobile number").fill(`+233 ${national.slice(1, 3)} ${digits.slice(0, 3)} ${digits.slice(3)}`);
  await card.getByRole("button", { name: "Send code" }).click();
  await expect(card.getByText(`${national.slice(0, 3)} ${national.slice(3, 6)} ${national.slice(6)}`, { exact: true })).toBeVisible();
  // The job queue sends the code into the development mailbox.
  await expect(card.getByText("The code has been sent.")).toBeVisible({ timeout: 20_000 });
  const [sms] = await mailFor(request, e164);
  const code = /\b(\d{6})\b/.exec(sms?.text ?? "")?.[1] ?? "";
  expect(code).toMatch(/^\d{6}$/);

  await card.getByLabel("6-digit code").fill(code === "000000" ? "111111" : "000000");
  await card.getByRole("button", { name: "Confirm number" }).click();
  await expect(card.getByRole("alert")).toHaveText("That code is not right. You have 4 tries left.");
  await card.getByLabel("6-digit code").fill(code);
  await card.getByRole("button", { name: "Confirm number" }).click();

  const receipts = card.getByRole("checkbox", { name: "A short receipt after each payment" });
  await expect(receipts).toBeChecked();
  await receipts.uncheck();
  await expect(card.getByRole("status")).toHaveText("Your SMS choices have been saved.");
  await expect(receipts).not.toBeChecked();
  await page.reload();
  await expect(smsCard(page).getByRole("checkbox", { name: "A short receipt after each payment" })).not.toBeChecked();

  expect(await horizontalOverflow(page)).toBe(0);
  await expectNoAxeViolations(page, "the SMS settings at 360 px");
  await smsCard(page).screenshot({ path: testInfo.outputPath("sms-settings-360.png") });

  // Another number: SMS keep coming to the confirmed one until the new one's code is given.
  const newDigits = String((Number(digits) + 1) % 10_000_000).padStart(7, "0");
  const newNational = `055 ${newDigits.slice(0, 3)} ${newDigits.slice(3)}`;
  const shown = `${national.slice(0, 3)} ${national.slice(3, 6)} ${national.slice(6)}`;
  await smsCard(page).getByLabel("New mobile number").fill(newNational);
  await smsCard(page).getByRole("button", { name: "Send code to new number" }).click();
  await expect(smsCard(page).getByText(`SMS go to ${shown}. Email still comes as before.`)).toBeVisible();
  await expect(smsCard(page).getByText(`To have SMS sent to ${newNational} instead`)).toContainText(`Until then they keep coming to ${shown}.`);
  await expect(smsCard(page).getByText("The code has been sent.")).toBeVisible({ timeout: 20_000 });
  await smsCard(page).screenshot({ path: testInfo.outputPath("sms-new-number-360.png") });
  const [newSms] = await mailFor(request, `+23355${newDigits}`);
  const newCode = /\b(\d{6})\b/.exec(newSms?.text ?? "")?.[1] ?? "";
  await smsCard(page).getByLabel("6-digit code").fill(newCode);
  await smsCard(page).getByRole("button", { name: "Confirm new number" }).click();
  await expect(smsCard(page).getByText(`SMS go to ${newNational}. Email still comes as before.`)).toBeVisible();

  await smsCard(page).getByRole("button", { name: "Turn off SMS and remove my number" }).click();
  await expect(smsCard(page).getByRole("status")).toHaveText("Your number has been removed. No more SMS will be sent to you.");
  await expect(smsCard(page).getByLabel("Mobile number")).toBeVisible();
});

test("an admin sees the SMS not sent under Messages", async ({ page, context, request }, testInfo) => {
  const email = uniqueEmail(testInfo);
  await signedInAccount(context, request, { email, name: "Kofi Admin" });
  await setPlanWithCli(email, "admin");
  await page.goto("/admin?tab=messages");
  const section = page.getByRole("region", { name: "SMS not sent" });
  // The development mailbox takes every SMS: none is left failing.
  await expect(section.getByText("Every SMS has gone through.")).toBeVisible();
  await expectNoAxeViolations(page, "the admin's Messages tab with the SMS not sent");
});
