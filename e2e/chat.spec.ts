import { expect, test } from "@playwright/test";

test("the support chat loads the configured widget", async ({ page }) => {
  await page.goto("/chat");
  await expect(page.getByRole("heading", { name: "Support Chat" })).toBeVisible();
  await expect(page.getByText("Allow pop-ups for this site.")).toBeVisible();
  await expect(page.getByText(/The chat is ready/)).toBeVisible();
  await expect(page.locator("#fake-chat-widget")).toBeVisible();
});

test("a blocked widget shows what to do, and Reload Chat Widget tries again", async ({ page }) => {
  await page.route("**/dev/fakes/chat-widget.js", (route) => route.abort("blockedbyclient"));
  await page.goto("/chat");
  await expect(page.getByRole("alert")).toContainText("The chat could not load.");
  await page.unroute("**/dev/fakes/chat-widget.js");
  await page.getByRole("button", { name: "Reload Chat Widget" }).click();
  await expect(page.getByText(/The chat is ready/)).toBeVisible();
  await expect(page.locator("#fake-chat-widget")).toHaveCount(1);
});
