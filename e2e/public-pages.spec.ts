import { expect, test } from "@playwright/test";

test.describe("home", () => {
  test("shows the three program cards, each 4 weeks with topics", async ({ page }) => {
    await page.goto("/");
    const cards = page.locator(".program-card");
    await expect(cards).toHaveCount(3);
    await expect(cards.locator("h3")).toHaveText(["Beginner Program", "Intermediate Program", "Advanced Program"]);
    for (const card of await cards.all()) {
      await expect(card).toContainText("4 weeks");
      expect(await card.locator(".topic-list li").count()).toBeGreaterThan(0);
    }
  });

  test("a logged-out card click goes to login, remembering the program", async ({ page }) => {
    await page.goto("/");
    await page.getByRole("button", { name: "Choose Intermediate Program" }).click();
    await expect(page).toHaveURL(/\/login\?/);
    const url = new URL(page.url());
    expect(url.pathname).toBe("/login");
    expect(url.searchParams.get("redirect")).toBe("/program?program=intermediate");
    expect(await page.evaluate(() => sessionStorage.getItem("pendingProgram"))).toBe("intermediate");
  });

  test("the header has the logged-out links of the spec", async ({ page }) => {
    await page.goto("/");
    const nav = page.getByRole("navigation", { name: "Main" });
    const links = nav.getByRole("link");
    await expect(links).toHaveText(["Home", "About", "Program", "Waitlist", "Contact", "Login", "Sign Up"]);
    const hrefs = await links.evaluateAll((elements) => elements.map((a) => a.getAttribute("href")));
    expect(hrefs).toEqual(["/", "/about", "/program", "/join-waitlist", "/contact", "/login", "/register"]);
    await expect(nav.getByRole("link", { name: "Admin" })).toHaveCount(0);
    await expect(nav.getByRole("link", { name: "Subscription" })).toHaveCount(0);
  });

  test("the footer has social links, Terms, Privacy, phone and support email", async ({ page }) => {
    await page.goto("/");
    const footer = page.locator("footer");
    await expect(footer.getByRole("navigation", { name: "Social media" }).getByRole("link")).not.toHaveCount(0);
    await expect(footer.getByRole("link", { name: "Terms" })).toHaveAttribute("href", "/terms");
    await expect(footer.getByRole("link", { name: "Privacy" })).toHaveAttribute("href", "/privacy");
    await expect(footer.locator('a[href^="tel:"]')).toHaveCount(1);
    await expect(footer.locator('a[href^="mailto:"]')).toHaveCount(1);
  });

  test("the introduction video loads only when asked, from the privacy-enhanced domain", async ({ page }) => {
    await page.goto("/");
    await expect(page.locator("iframe")).toHaveCount(0);
    await page.getByRole("button", { name: "Watch the introduction" }).click();
    await expect(page.locator("iframe")).toHaveAttribute("src", /^https:\/\/www\.youtube-nocookie\.com\/embed\//);
  });
});

test("terms and privacy show their last-updated dates", async ({ page }) => {
  await page.goto("/terms");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Terms of Service");
  await expect(page.getByText("Last updated: June 2025")).toBeVisible();
  await page.goto("/privacy");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Privacy Policy");
  await expect(page.getByText("Last updated: August 12, 2025")).toBeVisible();
});

test("an unknown page shows the 404 page with status 404", async ({ page }) => {
  const response = await page.goto("/no-such-page");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  await page.getByRole("link", { name: "Go to the home page" }).click();
  await expect(page).toHaveURL("/");
});

test("every route change scrolls to the top", async ({ page }) => {
  await page.goto("/");
  await page.locator("footer").scrollIntoViewIfNeeded();
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
  await page.locator("footer").getByRole("link", { name: "Terms" }).click();
  await expect(page.getByRole("heading", { name: "Terms of Service" })).toBeVisible();
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
});

test.describe("narrow screens", () => {
  test.use({ viewport: { width: 360, height: 740 } });

  // That every page fits 360 px (and 1440 px) is checked in screen-widths.spec.ts.
  test("the menu opens and closes from the keyboard", async ({ page }) => {
    await page.goto("/");
    const toggle = page.getByRole("button", { name: "Open menu" });
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link", { name: "About" })).toBeHidden();
    await toggle.focus();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("button", { name: "Close menu" })).toHaveAttribute("aria-expanded", "true");
    await nav.getByRole("link", { name: "About" }).click();
    await expect(page.getByRole("heading", { name: "About Trading Academy" })).toBeVisible();
    await expect(nav.getByRole("link", { name: "Contact" })).toBeHidden();
  });
});
