// The trading calculators at /tools, as a learner on a phone uses them (docs/trading.md).
import { expect, test } from "@playwright/test";
import { expectNoAxeViolations } from "./support/axe.ts";
import { screens } from "./support/screens.ts";

test.use({ viewport: { width: 360, height: 800 } });

test.describe("trading calculators", () => {
  test("the position size of the worked example, signed out, kept in the address", async ({ page }) => {
    await page.goto("/tools");
    await expect(page.getByRole("heading", { level: 1, name: "Trading calculators" })).toBeVisible();
    await page.getByLabel("Instrument").selectOption("EURUSD");
    await page.getByLabel("Account balance").fill("1,000");
    await page.getByLabel("Balance currency").selectOption("USD");
    await page.getByLabel("Risk (% of balance)").fill("1");
    await page.getByLabel("Stop-loss (pips)").fill("20");
    await page.getByRole("button", { name: "Calculate" }).click();

    const size = page.getByRole("definition").filter({ hasText: "lots" });
    await expect(size).toHaveText("0.05 lots (5,000 units)");
    // The rate the development services answer: 10 USD is 154.50 cedis at 15.45.
    await expect(page.getByText("$10.00 (GH₵ 154.50)").first()).toBeVisible();
    await expect(page.getByText("Cedi amounts at GH₵ 15.45 to the dollar.")).toBeVisible();
    expect(new URL(page.url()).searchParams.get("stopPips")).toBe("20");
    await expectNoAxeViolations(page, "the position size calculator with its answer");
    await screens(page, "tools-position-size");
  });

  test("an address shared computes the same answer in a browser that typed nothing", async ({ page }) => {
    await page.goto("/tools?calc=position-size&instrument=EURUSD&balance=1%2C000&currency=USD&riskPercent=1&stopPips=20");
    await expect(page.getByRole("definition").filter({ hasText: "lots" })).toHaveText("0.05 lots (5,000 units)");
    await expect(page.getByLabel("Account balance")).toHaveValue("1,000");
    await expect(page.getByLabel("Stop-loss (pips)")).toHaveValue("20");
  });

  test("a value that makes no sense is marked at its field, and nothing is computed", async ({ page }) => {
    await page.goto("/tools?calc=position-size&instrument=EURUSD&balance=-5&currency=USD&riskPercent=150&stopPips=0");
    const balance = page.getByLabel("Account balance");
    await expect(balance).toHaveAttribute("aria-invalid", "true");
    await expect(balance).toHaveAccessibleDescription("Enter a balance above 0.");
    await expect(page.getByLabel("Risk (% of balance)")).toHaveAccessibleDescription("Enter a risk above 0% and at most 100%.");
    await expect(page.getByLabel("Stop-loss (pips)")).toHaveAccessibleDescription("Enter a stop of more than 0 pips.");
    await expect(page.getByRole("definition")).toHaveCount(0);
    await expectNoAxeViolations(page, "the position size calculator with its fields refused");
  });

  test("a yen pair asks for its price; risk to reward and margin answer in pips and money", async ({ page }) => {
    await page.goto("/tools?calc=pip-value");
    await page.getByLabel("Instrument").selectOption("USDJPY");
    await page.getByLabel("Size (lots)").fill("1");
    await page.getByLabel("Price of USDJPY").fill("150");
    await page.getByRole("button", { name: "Calculate" }).click();
    await expect(page.getByRole("definition").first()).toHaveText(/^\$6\.67/);

    await page.getByRole("link", { name: "Risk to reward" }).click();
    await page.getByLabel("Entry price").fill("1.1000");
    await page.getByLabel("Stop-loss price").fill("1.0980");
    await page.getByLabel("Take-profit price").fill("1.1050");
    await page.getByRole("button", { name: "Calculate" }).click();
    await expect(page.getByRole("definition").first()).toHaveText("1 : 2.50 (a buy)");
    await expect(page.getByText("28.6% of trades")).toBeVisible();

    await page.getByRole("link", { name: "Margin" }).click();
    await page.getByLabel("Size (lots)").fill("1");
    await page.getByLabel("Leverage (1:x)").fill("100");
    await page.getByLabel("Price of EURUSD").fill("1.1000");
    await page.getByRole("button", { name: "Calculate" }).click();
    await expect(page.getByRole("definition").first()).toHaveText(/^\$1,100\.00/);
    await screens(page, "tools-margin");
  });
});
