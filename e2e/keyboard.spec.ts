// The learner's journey with the keyboard alone: Tab, Shift+Tab, Enter, Space and Escape, never a
// click. Opening the mailed verification link is the one address typed by hand (page.goto), as a
// person opens it from their mail. Every control that takes the focus on the way must show it:
// it matches :focus-visible and draws an outline or a box-shadow.
import { expect, test, type Locator, type Page, type TestInfo } from "@playwright/test";
import { DEFAULT_PASSWORD, readLinkFromMail, uniqueEmail } from "./support/accounts.ts";

type FocusState = {
  /** The focused element, as a person would name it (tag, then label or text). */
  name: string;
  /** Nothing but the page itself has the focus. */
  none: boolean;
  /** The focus is inside a frame of another site (a video), whose insides this page cannot see. */
  foreign: boolean;
  visible: boolean;
  style: string;
};

/** What has the keyboard focus, looking into same-site frames, and whether it is drawn. */
function focusState(page: Page): Promise<FocusState> {
  return page.evaluate(() => {
    let element: Element | null = document.activeElement;
    while (element instanceof HTMLIFrameElement && element.contentDocument) {
      element = element.contentDocument.activeElement;
    }
    const blank = { name: "", none: false, foreign: false, visible: false, style: "" };
    if (!element || element === element.ownerDocument.body) return { ...blank, name: "the page", none: true };
    if (element instanceof HTMLIFrameElement) return { ...blank, name: `a frame of ${element.src}`, foreign: true };
    const label =
      element.getAttribute("aria-label") ??
      (element instanceof HTMLInputElement ? element.labels?.[0]?.textContent : null) ??
      element.textContent ??
      "";
    const name = `${element.tagName.toLowerCase()} "${label.replace(/\s+/g, " ").trim().slice(0, 60)}"`;
    const view = element.ownerDocument.defaultView ?? window;
    const style = view.getComputedStyle(element);
    const outline = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0;
    const shadow = style.boxShadow !== "none";
    return {
      ...blank,
      name,
      visible: element.matches(":focus-visible") && (outline || shadow),
      style: `outline: ${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor}; box-shadow: ${style.boxShadow}`,
    };
  });
}

async function expectFocusVisible(page: Page, path: string[] = []): Promise<FocusState> {
  const state = await focusState(page);
  if (!state.none && !state.foreign) {
    const route = path.length ? `\nafter ${path.join(", ")}` : "";
    expect(state.visible, `the focus on ${state.name} should be visible (${state.style})${route}`).toBe(true);
  }
  return state;
}

function hasFocus(target: Locator): Promise<boolean> {
  return target.evaluate((element) => element === element.ownerDocument.activeElement);
}

/**
 * Presses `key` (Tab or Shift+Tab) until `target` has the focus, checking at every stop on the
 * way that the focus is visible. Fails when the target is not reached within `limit` presses.
 */
async function tabTo(page: Page, target: Locator, { key = "Tab", limit = 60 } = {}) {
  const path: string[] = [];
  for (let presses = 0; presses < limit; presses++) {
    await page.keyboard.press(key);
    path.push((await expectFocusVisible(page, path)).name);
    if (await hasFocus(target)) return;
  }
  throw new Error(`${key} ${limit} times did not reach ${target.toString()}; the focus went:\n${path.join("\n")}`);
}

/**
 * Presses Enter on a plan's buy button and waits for the server to create the transaction.
 * /api/subscription-management allows 20 calls a minute from one address, and every view of the
 * plans spends three: should the billing tests just before have spent this minute's allowance,
 * wait as long as the server says and press again (the focus stays on the button).
 */
async function pressToBuy(page: Page, testInfo: TestInfo) {
  for (let attempt = 1; ; attempt++) {
    const [created] = await Promise.all([
      page.waitForResponse(
        (r) =>
          r.url().endsWith("/api/subscription-management") &&
          (r.status() === 429 || r.request().postData()?.includes('"create_subscription"') === true),
      ),
      page.keyboard.press("Enter"),
    ]);
    if (created.status() !== 429 || attempt === 2) {
      expect(created.status(), "creating the transaction").toBe(200);
      return;
    }
    const seconds = Number(created.headers()["retry-after"] ?? "60");
    testInfo.annotations.push({ type: "rate-limit", description: `subscription management: waited ${seconds} s` });
    await page.waitForTimeout(seconds * 1_000 + 250);
  }
}

test("a learner registers, logs in, studies, answers the quiz and opens the checkout, with the keyboard alone", async ({
  page,
  request,
}, testInfo) => {
  // A whole journey, with a Tab press and a style check at every stop, and perhaps a minute's
  // wait for the payment calls' rate limit (see pressToBuy).
  test.setTimeout(150_000);
  const email = uniqueEmail(testInfo);
  const main = page.getByRole("main");

  // Register: the skip link first, then the form, field by field; Enter sends it.
  await page.goto("/register");
  await expect(page.getByRole("heading", { level: 1, name: "Create your account" })).toBeVisible();
  await tabTo(page, page.getByRole("link", { name: "Skip to content" }));
  await page.keyboard.press("Enter");
  await tabTo(page, main.getByLabel("Full Name"));
  await page.keyboard.type("Esi Keyboard");
  await tabTo(page, main.getByLabel("Email"));
  await page.keyboard.type(email);
  await tabTo(page, main.getByLabel("Password", { exact: true }));
  await page.keyboard.type(DEFAULT_PASSWORD);
  await tabTo(page, main.getByLabel("Confirm Password"));
  await page.keyboard.type(DEFAULT_PASSWORD);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/login/);

  // Verify by the mailed link, which lands back on /login.
  await page.goto(await readLinkFromMail(request, email, "/verify-email"));
  await expect(page.getByText("Email verified successfully!")).toBeVisible();
  await expect(page).toHaveURL(/\/login/, { timeout: 10_000 });
  await expect(page.getByRole("heading", { level: 1, name: "Login" })).toBeVisible();

  // Log in.
  await tabTo(page, main.getByLabel("Email"));
  await page.keyboard.type(email);
  await tabTo(page, main.getByLabel("Password"));
  await page.keyboard.type(DEFAULT_PASSWORD);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("button", { name: /account menu/ })).toBeVisible();

  // To the Beginner program, through the header's Program link and the program's Start button.
  const nav = page.getByRole("navigation", { name: "Main" });
  await tabTo(page, nav.getByRole("link", { name: "Program" }));
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL("/program");
  const beginner = page.locator(".program-card").filter({ hasText: "Beginner Program" });
  await tabTo(page, beginner.getByRole("button", { name: "Start" }));
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/^[^?#]*\/program\/beginner\/[0-9a-f-]{36}$/);
  await expect(page.getByText("0 of 3 videos watched")).toBeVisible();

  // Mark the first video watched with Space; the quiz unlocks; answer its first question with Enter.
  const lesson = page.getByRole("article");
  await expect(lesson.getByRole("heading", { name: /^Section 1:/ })).toBeVisible();
  await tabTo(page, lesson.getByRole("button", { name: "Mark as Watched" }));
  await page.keyboard.press("Space");
  await expect(lesson.getByRole("button", { name: "Watched" })).toBeVisible();
  await expect(lesson.getByRole("button", { name: "Watched" })).toBeFocused();
  await expect(page.getByText("1 of 3 videos watched")).toBeVisible();
  const question = page.locator(".quiz-question").first();
  await tabTo(page, question.getByRole("button", { name: /^A\)/ }));
  await page.keyboard.press("Enter");
  await expect(question.getByRole("status")).toHaveText("Correct");
  await expect(question.getByRole("button", { name: /^A\)/ })).toHaveAttribute("aria-pressed", "true");

  // Back up to the curriculum, to the second lesson: it opens with the focus on its heading, and the
  // curriculum marks it as the current one.
  const curriculum = page.getByRole("navigation", { name: "Course content" });
  const second = curriculum.getByRole("link", { name: /^Section 2 / });
  await tabTo(page, second, { key: "Shift+Tab" });
  await page.keyboard.press("Enter");
  await expect(lesson.getByRole("heading", { name: /^Section 2:/ })).toBeFocused();
  await expect(second).toHaveAttribute("aria-current", "page");
  // On through the lesson to Next, and to the third lesson.
  await tabTo(page, page.getByRole("link", { name: /^Next / }));
  await page.keyboard.press("Enter");
  await expect(lesson.getByRole("heading", { name: /^Section 3:/ })).toBeFocused();

  // Back up to the header with Shift+Tab, to Subscription.
  await tabTo(page, nav.getByRole("link", { name: "Subscription" }), { key: "Shift+Tab" });
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { level: 1, name: "Subscription Plans" })).toBeVisible();

  // Open the checkout with Enter; it takes the focus; Escape closes it and the focus comes back.
  const intermediate = page
    .locator(".card")
    .filter({ has: page.getByRole("heading", { name: "Intermediate", exact: true }) });
  const upgrade = intermediate.getByRole("button", { name: "Upgrade" });
  await tabTo(page, upgrade);
  await pressToBuy(page, testInfo);
  const checkout = page.frameLocator('iframe[title="Paystack checkout (test mode)"]');
  const pay = checkout.getByRole("button", { name: "Pay" });
  await expect(pay).toBeVisible();
  await tabTo(page, pay);
  await page.keyboard.press("Escape");
  await expect(page.locator('iframe[title="Paystack checkout (test mode)"]')).toHaveCount(0);
  await expect(
    page.getByText("Payment window closed. If you completed payment, your transaction is being processed."),
  ).toBeVisible();
  await expect(upgrade).toBeFocused();
  await expectFocusVisible(page);
});
