// Chart exercises on a phone (docs/trading.md, "Exercises"): a learner steps the demo's replay,
// places a buy with a stop and a target and reads the result the server worked out; marks a level
// and reads the explanation; answers offline and has the answer sent when back online. An
// administrator uploads a MetaTrader 5 file and publishes a replay exercise on it.
import { expect, test, type Page } from "@playwright/test";
import { newSignedInContext, signedInAccount, uniqueEmail } from "./support/accounts.ts";
import { expectNoAxeViolations } from "./support/axe.ts";
import { everythingLoadedIsKept, workerInControl } from "./support/offline.ts";
import { setPlanWithCli } from "./support/operator.ts";
import { screens } from "./support/screens.ts";

test.use({ viewport: { width: 360, height: 800 }, reducedMotion: "reduce" });

const REPLAY = "Practice: trade the breakout";
const LEVEL = "Practice: mark the support";

/** Opens a lesson of the Intermediate program by its title, from the curriculum. */
async function openLesson(page: Page, title: string) {
  await page.goto("/program/intermediate");
  const curriculum = page.getByRole("navigation", { name: "Course content" });
  await curriculum.getByText(/^Course content \(/).click();
  await curriculum.getByRole("link", { name: new RegExp(title) }).click();
  await expect(page.getByRole("heading", { level: 2, name: new RegExp(title) })).toBeVisible();
}

test("a learner steps the replay, places a buy with a stop and a target, and reads the result", async ({ page, request }, testInfo) => {
  const email = uniqueEmail(testInfo);
  await signedInAccount(page.context(), request, { email });
  await setPlanWithCli(email, "intermediate");
  await openLesson(page, REPLAY);

  const chart = page.getByRole("img", { name: /EURUSD H1 candlestick chart, 121 bars to 23 Jan 2024 20:00 UTC; last close 1.09416/ });
  await expect(chart).toBeVisible();
  await expect(page.getByText("Illustrative data, not real prices")).toBeVisible();
  await expect(page.getByText("Practice balance: 1,000 USD. Pass: a result of at least 0 R, risking at most 2%.")).toBeVisible();
  await expectNoAxeViolations(page, "a replay exercise");
  await screens(page, "exercise-replay-before");

  // One bar on, then back to the decision: the chart moves, and no bar past it was ever sent.
  await page.getByRole("button", { name: "Next bar" }).click();
  await expect(page.getByRole("img", { name: /121 bars to 23 Jan 2024 21:00 UTC/ })).toBeVisible();

  // A stop above a buy's entry is refused at its field, and nothing is scored.
  const trade = page.getByRole("form", { name: "Your trade" });
  await trade.getByRole("radio", { name: "Buy" }).check();
  await trade.getByLabel("Stop-loss").fill("1.0990");
  await trade.getByLabel("Take-profit").fill("1.0990");
  await trade.getByRole("button", { name: "Place Trade" }).click();
  await expect(trade.getByLabel("Stop-loss")).toHaveAccessibleDescription(/A buy's stop-loss must be below the entry./);
  await expect(trade.getByLabel("Stop-loss")).toHaveAttribute("aria-invalid", "true");

  await trade.getByLabel("Stop-loss").fill("1.0880");
  await trade.getByRole("button", { name: "Place Trade" }).click();
  await expect(page.getByRole("heading", { name: "Target hit" })).toBeVisible();
  await expect(page.getByText("Passed", { exact: true })).toBeVisible();
  await expect(page.getByText(/After a breakout, old resistance often becomes support/)).toBeVisible();
  await expectNoAxeViolations(page, "a replay exercise, scored");
  await screens(page, "exercise-replay-after");
});

test("a learner marks a level, misses, reads the explanation, and is told when to try again", async ({ page, request }, testInfo) => {
  const email = uniqueEmail(testInfo);
  await signedInAccount(page.context(), request, { email });
  await setPlanWithCli(email, "intermediate");
  await openLesson(page, LEVEL);
  const form = page.getByRole("form", { name: "Your level" });
  await form.getByLabel("Price").fill("1.0850");
  await form.getByRole("button", { name: "Check My Answer" }).click();
  await expect(page.getByRole("heading", { name: "Your answer" })).toBeVisible();
  await expect(page.getByText("Not passed", { exact: true })).toBeVisible();
  await expect(page.getByText("40.0 pips")).toBeVisible();
  await expect(page.getByText(/Support is the zone from 1.0795 to 1.0810/)).toBeVisible();
  await expect(page.getByText(/You can try again at/)).toBeVisible();
  await expectNoAxeViolations(page, "a marked level, scored");
  await screens(page, "exercise-level-after");
});

test("a level opened once is marked offline, said to be kept, and sent once when back online", async ({ browser }, testInfo) => {
  const email = uniqueEmail(testInfo);
  const context = await newSignedInContext(browser, { email }, { serviceWorkers: "allow", viewport: { width: 360, height: 800 } });
  await setPlanWithCli(email, "intermediate");
  const page = await context.newPage();
  await openLesson(page, LEVEL);
  await expect(page.getByRole("img", { name: /EURUSD H1 candlestick chart/ })).toBeVisible();
  await workerInControl(page);
  await page.waitForLoadState("networkidle");
  await everythingLoadedIsKept(page);

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole("status").filter({ hasText: "You are offline. Pages you opened before show what you last saw." })).toBeVisible();
  await expect(page.getByRole("img", { name: /EURUSD H1 candlestick chart/ })).toBeVisible();
  const form = page.getByRole("form", { name: "Your level" });
  await form.getByLabel("Price").fill("1.0800");
  await form.getByRole("button", { name: "Check My Answer" }).click();
  await expect(page.getByText("You are offline: your answer is kept on this phone and will be sent when you are back online.")).toBeVisible();
  await expectNoAxeViolations(page, "a marked level kept offline");
  await page.screenshot({ path: testInfo.outputPath("exercise-kept-offline.png"), fullPage: true });

  // Back online: sent once, scored by the server, and the lesson is done.
  // Answered by the server: the kept answer's sends while offline failed before reaching it.
  const sent: string[] = [];
  page.on("requestfinished", (request) => {
    if (request.method() === "POST" && request.url().endsWith("/exercise/submissions")) sent.push(request.url());
  });
  await context.setOffline(false);
  await expect(page.getByRole("heading", { name: "Your answer" })).toBeVisible();
  await expect(page.getByText("Passed", { exact: true })).toBeVisible();
  await expect(page.getByText("0.0 pips (inside the zone)")).toBeVisible();
  expect(sent).toHaveLength(1);
  await page.reload();
  await expect(page.getByText("You have passed this exercise.")).toBeVisible();
  expect(sent).toHaveLength(1);
  await context.close();
});

/** Ten hours of EURUSD as MetaTrader 5 exports them: a rise, then a fall. */
const MT5_FILE = [
  "<DATE>\t<TIME>\t<OPEN>\t<HIGH>\t<LOW>\t<CLOSE>\t<TICKVOL>\t<VOL>\t<SPREAD>",
  ...[
    ["1.08420", "1.08510", "1.08390", "1.08470"],
    ["1.08470", "1.08600", "1.08450", "1.08580"],
    ["1.08580", "1.08690", "1.08560", "1.08650"],
    ["1.08650", "1.08720", "1.08600", "1.08700"],
    ["1.08700", "1.08790", "1.08680", "1.08760"],
    ["1.08760", "1.08800", "1.08640", "1.08660"],
    ["1.08660", "1.08680", "1.08510", "1.08530"],
    ["1.08530", "1.08560", "1.08400", "1.08420"],
    ["1.08420", "1.08450", "1.08300", "1.08320"],
    ["1.08320", "1.08380", "1.08250", "1.08280"],
  ].map(([open, high, low, close], hour) => `2024.03.01\t${String(8 + hour).padStart(2, "0")}:00:00\t${open}\t${high}\t${low}\t${close}\t1500\t0\t2`),
].join("\r\n");

test("an admin uploads a MetaTrader 5 file and publishes a replay exercise on it, which a learner then opens", async ({ page, browser, request }, testInfo) => {
  const email = uniqueEmail(testInfo);
  await signedInAccount(page.context(), request, { email, name: "Kofi Admin" });
  await setPlanWithCli(email, "admin");

  await page.goto("/admin?tab=price-data");
  await page.getByLabel("CSV file").setInputFiles({ name: "EURUSD_H1.csv", mimeType: "text/csv", buffer: Buffer.from(MT5_FILE) });
  await page.getByLabel("Name").fill("EURUSD, 1 March 2024");
  await page.getByLabel("Instrument").fill("EURUSD");
  await page.getByLabel("Instrument").blur();
  await page.getByLabel("Timeframe").selectOption("H1");
  await page.getByRole("button", { name: "Upload Data Set" }).click();
  await expect(page.getByRole("status")).toHaveText("EURUSD, 1 March 2024: 10 bars kept.");

  await page.goto("/admin?tab=programs");
  const form = page.getByRole("region", { name: "Add New Program" });
  await form.getByLabel("Program ID").fill("practice-lab");
  await form.getByLabel("Level").selectOption("Beginner (free)");
  await form.getByLabel("Title", { exact: true }).fill("Practice Lab");
  await form.getByLabel("Duration", { exact: true }).fill("1 week");
  await form.getByLabel("Module Title", { exact: true }).fill("Sell the turn");
  await form.getByRole("radio", { name: "Chart exercise" }).check();
  await form.getByLabel("Price data").selectOption({ label: "EURUSD, 1 March 2024 (EURUSD H1, 10 bars)" });
  await form.getByLabel("Start bar", { exact: true }).fill("5");
  await expect(form.getByText("The learner sees 6 bars, up to 1 Mar 2024 13:00 UTC (bar 5 of 10). 4 bars are left to play out the trade.")).toBeVisible();
  await expect(form.getByRole("img", { name: /^Chart of EURUSD, 1 March 2024, the start bar marked/ })).toBeVisible();
  await form.getByLabel("Explanation").fill("The rise stalled under 1.0880: a sell there risked little.");
  await expectNoAxeViolations(page, "the lesson form, a replay exercise with its preview");
  await screens(page, "admin-exercise-editor");
  await form.getByRole("button", { name: "Add Module" }).click();
  await expect(form.getByText("Exercise: replay trade")).toBeVisible();
  await form.getByRole("button", { name: "Save Program" }).click();
  await expect(page.getByText("Program saved successfully!")).toBeVisible();

  const row = page.getByRole("row").filter({ hasText: "Practice Lab" });
  await row.getByRole("button", { name: "Publish" }).click();
  await page.getByRole("dialog", { name: "Publish Practice Lab?" }).getByRole("button", { name: "Publish" }).click();
  await expect(row).not.toContainText("Draft");

  // A learner on the free plan opens it (a Beginner program), the chart ending at the start bar.
  const learnerContext = await newSignedInContext(browser, { email: uniqueEmail(`${testInfo.title}-learner`) }, { viewport: { width: 360, height: 800 } });
  const learner = await learnerContext.newPage();
  await learner.goto("/program/practice-lab");
  await expect(learner.getByRole("heading", { level: 2, name: /Sell the turn/ })).toBeVisible();
  await expect(learner.getByRole("img", { name: "EURUSD H1 candlestick chart, 6 bars to 1 Mar 2024 13:00 UTC; last close 1.08660" })).toBeVisible();
  await learnerContext.close();

  // The program goes again, so that the catalogue the other suites read is the demo's.
  await row.getByRole("button", { name: "Delete" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
  await expect(page.getByText("Program and all related data deleted successfully!")).toBeVisible();
});
