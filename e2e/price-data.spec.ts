// The Price Data tab on a phone (docs/trading.md, "Price data"): an administrator uploads
// MetaTrader 5's export, is told of a bad file by its line, and removes a set.
import { expect, test } from "@playwright/test";
import { signedInAccount, uniqueEmail } from "./support/accounts.ts";
import { expectNoAxeViolations } from "./support/axe.ts";
import { setPlanWithCli } from "./support/operator.ts";
import { screens } from "./support/screens.ts";

test.use({ viewport: { width: 360, height: 800 }, reducedMotion: "reduce" });

const MT5_FILE = [
  "<DATE>\t<TIME>\t<OPEN>\t<HIGH>\t<LOW>\t<CLOSE>\t<TICKVOL>\t<VOL>\t<SPREAD>",
  "2024.03.01\t13:00:00\t1.08420\t1.08510\t1.08390\t1.08470\t1520\t0\t2",
  "2024.03.01\t14:00:00\t1.08470\t1.08600\t1.08450\t1.08580\t1710\t0\t1",
  "2024.03.01\t15:00:00\t1.08580\t1.08590\t1.08300\t1.08350\t1980\t0\t2",
].join("\r\n");

test("an admin uploads a MetaTrader 5 export, is told which line of a bad one is wrong, and removes a set", async ({ page, request }) => {
  const email = uniqueEmail("price-data-admin");
  await signedInAccount(page.context(), request, { email, name: "Kofi Admin" });
  await setPlanWithCli(email, "admin");

  await page.goto("/admin?tab=price-data");
  await expect(page.getByRole("heading", { name: "Upload price data" })).toBeVisible();
  // A fresh academy has the demo's generated set, marked as not real prices.
  const table = page.getByRole("region", { name: "Price data sets" });
  await expect(table.getByRole("row").filter({ hasText: "EURUSD H1 (illustrative, not real prices)" })).toContainText("Illustrative");

  // A file whose third bar has its high below its close: refused by its line, nothing listed.
  await page.getByLabel("CSV file").setInputFiles({ name: "bad.csv", mimeType: "text/csv", buffer: Buffer.from(MT5_FILE.replace("1.08600", "1.08500")) });
  await page.getByLabel("Name").fill("EURUSD H1, March 2024");
  await page.getByLabel("Instrument").fill("EURUSD");
  await page.getByLabel("Instrument").blur();
  // A known instrument's pip size is filled in.
  await expect(page.getByLabel("Pip size")).toHaveValue("0.0001");
  await page.getByLabel("Timeframe").selectOption("H1");
  await page.getByRole("button", { name: "Upload Data Set" }).click();
  await expect(page.getByRole("alert")).toHaveText("Line 3: the high 1.08500 is below the open or the close.");
  await expect(table.getByRole("row").filter({ hasText: "EURUSD H1, March 2024" })).toHaveCount(0);
  await expectNoAxeViolations(page, "/admin?tab=price-data, a file refused");

  await page.getByLabel("CSV file").setInputFiles({ name: "EURUSD_H1.csv", mimeType: "text/csv", buffer: Buffer.from(MT5_FILE) });
  await page.getByRole("button", { name: "Upload Data Set" }).click();
  await expect(page.getByRole("status")).toHaveText("EURUSD H1, March 2024: 3 bars kept.");
  const uploaded = table.getByRole("row").filter({ hasText: "EURUSD H1, March 2024" });
  await expect(uploaded).toContainText("MetaTrader 5");
  await expect(uploaded).toContainText("1 Mar 2024, 13:00 to 1 Mar 2024, 15:00");
  await expectNoAxeViolations(page, "/admin?tab=price-data with a set uploaded");
  await screens(page, "admin-price-data");

  await uploaded.getByRole("button", { name: "Remove EURUSD H1, March 2024" }).click();
  const dialog = page.getByRole("dialog", { name: "Remove this data set?" });
  await expect(dialog).toContainText("EURUSD H1, March 2024 and its 3 bars will be removed for good.");
  await dialog.getByRole("button", { name: "Remove Data Set" }).click();
  await expect(uploaded).toHaveCount(0);
});
