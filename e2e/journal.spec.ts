// The trading journal on a phone (docs/trading.md, "The journal"): a learner logs a winning trade
// with its screenshot and a losing one, reads the figures and the equity curve the server worked
// out, edits an entry, and is stopped at the field when a stop is on the wrong side.
import { expect, test, type Page } from "@playwright/test";
import { mailFor, newSignedInContext, signedInAccount, uniqueEmail } from "./support/accounts.ts";
import { expectNoAxeViolations } from "./support/axe.ts";
import { setPlanWithCli } from "./support/operator.ts";
import { screens } from "./support/screens.ts";

test.use({ viewport: { width: 360, height: 800 }, reducedMotion: "reduce" });

/** A 1x1 PNG. */
const PNG = Buffer.from("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082", "hex");

async function addTrade(page: Page, trade: { instrument: string; direction: "Buy" | "Sell"; entry: string; stop: string; exit: string; size: string; notes?: string }) {
  const form = page.getByRole("form", { name: "Add a trade" });
  await form.getByLabel("Instrument").fill(trade.instrument);
  await form.getByLabel("Direction").selectOption({ label: trade.direction });
  await form.getByLabel("Entry").fill(trade.entry);
  await form.getByLabel("Stop-loss").fill(trade.stop);
  await form.getByLabel("Exit").fill(trade.exit);
  await form.getByLabel("Size (lots)").fill(trade.size);
  if (trade.notes) await form.getByLabel("Notes").fill(trade.notes);
  return form;
}

test("a learner logs two trades, one with its chart, and reads the figures and the curve the server worked out", async ({ page, request }, testInfo) => {
  await signedInAccount(page.context(), request, { email: uniqueEmail(testInfo), name: "Ama Mensah" });
  await page.goto("/journal");
  await expect(page.getByRole("heading", { level: 1, name: "Trading journal" })).toBeVisible();
  await expect(page.getByText("No trades yet. Add your first one: a practice trade counts.")).toBeVisible();

  // A stop above a buy's entry is marked at its field, and nothing is saved.
  let form = await addTrade(page, { instrument: "EURUSD", direction: "Buy", entry: "1.08500", stop: "1.08700", exit: "1.08900", size: "0.05" });
  await form.getByRole("button", { name: "Add Trade" }).click();
  await expect(form.getByLabel("Stop-loss")).toHaveAccessibleDescription("A buy's stop-loss must be below its entry.");
  await expect(form.getByLabel("Stop-loss")).toHaveAttribute("aria-invalid", "true");
  await expectNoAxeViolations(page, "/journal, a field refused");

  // 20 pips risked, 40 made: 2.00 R.
  form = await addTrade(page, { instrument: "EURUSD", direction: "Buy", entry: "1.08500", stop: "1.08300", exit: "1.08900", size: "0.05", notes: "Bought the retest of 1.0850." });
  await form.getByLabel("Screenshot").setInputFiles({ name: "chart.png", mimeType: "image/png", buffer: PNG });
  await form.getByRole("button", { name: "Add Trade" }).click();
  const trades = page.getByRole("list").filter({ has: page.getByText("Buy EURUSD") });
  await expect(trades.getByRole("listitem")).toHaveCount(1);
  await expect(trades.getByRole("listitem").first()).toContainText("+2.00 R");
  await expect(trades.getByRole("img", { name: /^Chart of the EURUSD trade of / })).toBeVisible();

  // A sell stopped out: -1.00 R.
  form = await addTrade(page, { instrument: "XAUUSD", direction: "Sell", entry: "2045.10", stop: "2050.10", exit: "2050.10", size: "0.10" });
  await form.getByRole("button", { name: "Add Trade" }).click();
  await expect(page.getByRole("listitem").filter({ hasText: "Sell XAUUSD" })).toContainText("−1.00 R");

  // 1 win of 2: 50.0%; average (2 - 1) / 2 = +0.50 R; expectancy 0.5 x 2 - 0.5 x 1 = +0.50 R.
  const figures = page.getByRole("heading", { name: "Your figures" }).locator("..");
  await expect(figures.getByRole("definition")).toHaveText(["2", "50.0%", "+0.50 R", "+0.50 R a trade", "+2.00 R", "−1.00 R"]);
  await expect(figures.getByRole("img", { name: /^Equity curve of 2 closed trades/ })).toBeVisible();
  await expectNoAxeViolations(page, "/journal with two trades");
  await screens(page, "journal");

  // The export holds both trades.
  const csv = await page.request.get("/api/journal/journal.csv");
  expect((await csv.text()).split("\r\n").filter(Boolean)).toHaveLength(3);

  // Editing the loss into a smaller one changes the figures.
  await page.getByRole("button", { name: /^Edit the XAUUSD trade of / }).click();
  const edit = page.getByRole("form", { name: /^Edit the XAUUSD trade of / });
  await edit.getByLabel("Exit").fill("2047.60");
  await edit.getByRole("button", { name: "Save Entry" }).click();
  await expect(page.getByRole("listitem").filter({ hasText: "Sell XAUUSD" })).toContainText("−0.50 R");
  await expect(figures.getByRole("definition").nth(2)).toHaveText("+0.75 R");
});

test("an Advanced learner shares a trade, the mentor comments on it in the console, and the learner reads the comment and its email", async ({ browser, page, request }, testInfo) => {
  const email = uniqueEmail(testInfo);
  await signedInAccount(page.context(), request, { email, name: "Abena Owusu" });
  await setPlanWithCli(email, "advanced");
  await page.goto("/journal");
  const form = await addTrade(page, { instrument: "GBPUSD", direction: "Buy", entry: "1.27000", stop: "1.26800", exit: "1.27300", size: "0.02" });
  await form.getByRole("button", { name: "Add Trade" }).click();
  await page.getByRole("button", { name: /^Share with My Mentor the GBPUSD trade of / }).click();
  await expect(page.getByText("Shared with your mentor.")).toBeVisible();

  const adminEmail = uniqueEmail(`${testInfo.title} admin`);
  const mentor = await newSignedInContext(browser, { email: adminEmail, name: "Kofi Mentor" }, { viewport: { width: 360, height: 800 }, reducedMotion: "reduce" });
  await setPlanWithCli(adminEmail, "admin");
  const tab = await mentor.newPage();
  await tab.goto("/admin?tab=mentorship");
  const trade = tab.getByRole("listitem").filter({ hasText: "Buy GBPUSD" }).filter({ hasText: "Abena Owusu" });
  await expect(trade).toContainText("1.50 R");
  await trade.getByLabel(/^Comment on the GBPUSD trade of /).fill("Well managed. Let the next winner run to 2 R.");
  await trade.getByRole("button", { name: "Send Comment" }).click();
  await expect(trade).toContainText("Your comment: Well managed. Let the next winner run to 2 R.");
  await expectNoAxeViolations(tab, "/admin?tab=mentorship with a shared trade");
  await screens(tab, "admin-shared-trades");

  // The learner's page in the console has their whole journal, with their figures.
  await trade.getByRole("link", { name: "Abena Owusu" }).click();
  await expect(tab.getByRole("heading", { level: 1, name: "Abena Owusu" })).toBeVisible();
  const journal = tab.getByRole("region", { name: "Trading journal (1)", exact: true });
  await expect(journal.getByText("1 closed trade; win rate 100.0%, average 1.50 R, expectancy 1.50 R.")).toBeVisible();
  await expect(journal.getByRole("row").filter({ hasText: "Buy GBPUSD" })).toContainText("Shared");
  await expectNoAxeViolations(tab, "a learner's page with their trading journal");
  await mentor.close();

  await expect.poll(async () => (await mailFor(request, email)).some((mail) => mail.subject === "Your mentor commented on your GBPUSD trade")).toBe(true);
  await page.reload();
  const comments = page.getByRole("list", { name: /^Your mentor's comments on the GBPUSD trade/ });
  await expect(comments).toHaveText("Your mentor: Well managed. Let the next winner run to 2 R.");
  await expectNoAxeViolations(page, "/journal with a mentor's comment");
});
