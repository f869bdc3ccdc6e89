import { expect, test } from "@playwright/test";

test.describe("contact form", () => {
  test.beforeEach(async ({ page }) => {
    await page.goto("/contact");
  });

  test("blank fields are refused with the spec's message", async ({ page }) => {
    await page.getByLabel("Name").fill("Ama Mensah");
    await page.getByLabel("Message").fill("   ");
    await page.getByRole("button", { name: "Send Message" }).click();
    await expect(page.getByRole("alert")).toHaveText("All fields are required.");
  });

  test("an invalid email is refused", async ({ page }) => {
    await page.getByLabel("Name").fill("Ama Mensah");
    await page.getByLabel("Email").fill("ama@");
    await page.getByLabel("Message").fill("When does the next cohort start?");
    await page.getByRole("button", { name: "Send Message" }).click();
    await expect(page.getByRole("alert")).toHaveText("Please enter a valid email address.");
  });

  test("a valid message is sent, the form clears and the success text goes after 4 seconds", async ({ page }) => {
    await page.getByLabel("Name").fill("Ama Mensah");
    await page.getByLabel("Email").fill("ama@example.com");
    await page.getByLabel("Message").fill("When does the next cohort start?");
    await page.getByRole("button", { name: "Send Message" }).click();
    const success = page.getByText("Message sent! We'll get back to you soon.");
    await expect(success).toBeVisible();
    await expect(page.getByLabel("Name")).toHaveValue("");
    await expect(page.getByLabel("Email")).toHaveValue("");
    await expect(page.getByLabel("Message")).toHaveValue("");
    await expect(success).toBeHidden({ timeout: 6_000 });
  });

  test("a server failure shows the spec's error and keeps what was typed", async ({ page }) => {
    await page.route("**/api/contact", (route) =>
      route.fulfill({
        status: 500,
        contentType: "application/json",
        body: JSON.stringify({ error: { code: "INTERNAL", message: "boom" } }),
      }),
    );
    await page.getByLabel("Name").fill("Ama Mensah");
    await page.getByLabel("Email").fill("ama@example.com");
    await page.getByLabel("Message").fill("Hello");
    await page.getByRole("button", { name: "Send Message" }).click();
    await expect(page.getByRole("alert")).toHaveText("Failed to send. Please try again later.");
    await expect(page.getByLabel("Message")).toHaveValue("Hello");
  });
});
