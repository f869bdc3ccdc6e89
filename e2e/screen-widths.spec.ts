// Every page at a phone's 360 px and a desktop's 1440 px, as a visitor, a learner and an admin:
// the page never scrolls sideways (wide tables scroll inside their own box). Each page is
// photographed to test-results/screens/ for a look by eye. The header is checked at every width
// from a small phone to a wide desktop: one row, nothing overlapping. Every page has a title of
// its own (docs/product.md, "Page titles").
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { routeAt, SITE_NAME } from "../src/shared/routes.ts";
import { newSignedInContext, uniqueEmail } from "./support/accounts.ts";
import { setPlanWithCli } from "./support/operator.ts";
import { ADMIN_TABS, LEARNER_PAGES, VISITOR_PAGES } from "./support/routes.ts";

const WIDTHS = [
  { width: 360, height: 740 },
  { width: 1440, height: 900 },
];

/** Checks, without stopping the test, that the page is no wider than the window. */
async function expectNoSideways(page: Page, name: string) {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect.soft(scrollWidth, `${name} is ${scrollWidth} px wide in a ${clientWidth} px window`).toBeLessThanOrEqual(clientWidth);
  const file = name.replace(/^\//, "").replace(/[^a-z0-9]+/gi, "-").replace(/^-|-$/g, "") || "home";
  await page.screenshot({ path: `test-results/screens/${file}-${clientWidth}.png`, fullPage: true });
}

async function visit(page: Page, path: string) {
  await page.goto(path);
  await expect(page.locator("main h1").first()).toBeVisible();
  await expect(page.getByRole("main").getByText(/^Loading/)).toHaveCount(0);
}

/** The titles of the pages visited, by the route that shows them ("*" for a page not in the table). */
class TitlesSeen {
  readonly #byRoute = new Map<string, Set<string>>();

  async record(page: Page, path: string) {
    const route = routeAt(new URL(path, "http://x").pathname)?.id ?? "*";
    const title = await page.title();
    expect.soft(title, `the title of ${path}`).toMatch(new RegExp(` · ${SITE_NAME}$`));
    this.#byRoute.set(route, (this.#byRoute.get(route) ?? new Set()).add(title));
  }

  /** No two routes share a title. */
  expectDistinct() {
    const owners = new Map<string, string>();
    for (const [route, titles] of this.#byRoute) {
      for (const title of titles) {
        expect.soft(owners.get(title), `"${title}" is the title of ${route} and of ${owners.get(title)}`).toBeUndefined();
        owners.set(title, route);
      }
    }
  }
}

type Box = { name: string; left: number; right: number; top: number; bottom: number };

/** The header's visible controls (brand, menu button, links, buttons, avatar) and its height. */
async function headerLayout(page: Page): Promise<{ height: number; items: Box[] }> {
  return page.evaluate(() => {
    const header = document.querySelector(".site-header");
    if (!header) throw new Error("no header");
    const controls = header.querySelectorAll<HTMLElement>(".brand, .menu-toggle, .site-nav a, .site-nav button, .avatar-button");
    const items = Array.from(controls)
      .filter((element) => element.getClientRects().length > 0)
      .map((element) => {
        const { left, right, top, bottom } = element.getBoundingClientRect();
        const name = (element.getAttribute("aria-label") ?? element.textContent ?? "").trim();
        return { name, left, right, top, bottom };
      });
    return { height: header.getBoundingClientRect().height, items };
  });
}

/** One row (no taller than the 64 px bar), inside the window, no control over another. */
async function expectHeaderFits(page: Page, who: string, expected: readonly string[]) {
  const width = page.viewportSize()?.width ?? 0;
  const { height, items } = await headerLayout(page);
  const where = `${who} at ${width} px`;
  expect(items.map((item) => item.name), where).toEqual(expected);
  expect(height, `${where}: the header is one row`).toBeLessThanOrEqual(72);
  for (const item of items) {
    expect(item.left, `${where}: ${item.name} starts inside the window`).toBeGreaterThanOrEqual(0);
    expect(item.right, `${where}: ${item.name} ends inside the window`).toBeLessThanOrEqual(width);
    expect(item.bottom, `${where}: ${item.name} is in the header's row`).toBeLessThanOrEqual(height);
  }
  for (const [index, a] of items.entries()) {
    for (const b of items.slice(index + 1)) {
      const overlap = Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
      expect(overlap, `${where}: ${a.name} and ${b.name} overlap`).toBe(false);
    }
  }
  await page.screenshot({ path: `test-results/screens/header-${who}-${width}.png`, clip: { x: 0, y: 0, width, height: 160 } });
}

const HEADER_WIDTHS = [320, 360, 800, 801, 900, 990, 1024, 1280, 1920];
const BRAND = "Trading Academy home";
const LINKS = ["Home", "About", "Program", "Waitlist", "Contact"];

for (const viewport of WIDTHS) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test("every visitor page fits, each with a title of its own", async ({ page }) => {
      const titles = new TitlesSeen();
      for (const path of VISITOR_PAGES) {
        await visit(page, path);
        await expectNoSideways(page, path);
        await titles.record(page, path);
      }
      titles.expectDistinct();
    });
  });
}

test.describe("the header at every width", () => {
  let learner: BrowserContext;
  let admin: BrowserContext;
  test.beforeAll(async ({ browser }) => {
    learner = await newSignedInContext(browser, { email: uniqueEmail("header learner"), name: "Ama Mensah" });
    const adminEmail = uniqueEmail("header admin");
    admin = await newSignedInContext(browser, { email: adminEmail, name: "Kofi Admin" });
    await setPlanWithCli(adminEmail, "admin");
  });
  test.afterAll(async () => {
    await learner.close();
    await admin.close();
  });

  /** What the header shows: the menu button up to 800 px, else the links, the session's actions, the avatar. */
  function expectedItems(width: number, who: "visitor" | "learner" | "admin"): string[] {
    if (width <= 800) return [BRAND, "Open menu"];
    if (who === "visitor") return [BRAND, ...LINKS, "Login", "Sign Up"];
    const links = who === "admin" ? [...LINKS, "Admin"] : LINKS;
    // Where the row is short, Subscription and Logout are in the avatar's menu only.
    const actions = width >= 1024 ? ["Subscription", "Logout"] : [];
    return [BRAND, ...links, ...actions, `${who === "admin" ? "KA" : "AM"} account menu`];
  }

  for (const who of ["visitor", "learner", "admin"] as const) {
    test(`one row without overlap from 320 to 1920 px, for a ${who}`, async ({ page: visitorPage }) => {
      const page = who === "visitor" ? visitorPage : await (who === "admin" ? admin : learner).newPage();
      await page.setViewportSize({ width: 1280, height: 800 });
      await visit(page, "/about");
      for (const width of HEADER_WIDTHS) {
        await page.setViewportSize({ width, height: 800 });
        await expectHeaderFits(page, who, expectedItems(width, who));
      }
      if (who !== "visitor") await page.close();
    });
  }

  test("the phone menu opens below the bar, every link in it, at 320 px", async () => {
    const page = await admin.newPage();
    await page.setViewportSize({ width: 320, height: 640 });
    await visit(page, "/about");
    await page.getByRole("button", { name: "Open menu" }).click();
    const nav = page.getByRole("navigation", { name: "Main" });
    for (const name of [...LINKS, "Admin", "Subscription"]) await expect(nav.getByRole("link", { name, exact: true })).toBeVisible();
    await expect(nav.getByRole("button", { name: "Logout" })).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: "test-results/screens/header-admin-menu-open-320.png" });
    await page.close();
  });
});

test.describe("signed in", () => {
  let learner: BrowserContext;
  let admin: BrowserContext;
  let adminEmail: string;
  test.beforeAll(async ({ browser }) => {
    learner = await newSignedInContext(browser, { email: uniqueEmail("widths learner") });
    adminEmail = uniqueEmail("widths admin");
    admin = await newSignedInContext(browser, { email: adminEmail, name: "Kofi Admin" });
    await setPlanWithCli(adminEmail, "admin");
  });
  test.afterAll(async () => {
    await learner.close();
    await admin.close();
  });

  for (const viewport of WIDTHS) {
    test(`every learner page fits ${viewport.width} px, with the menus open`, async () => {
      const page = await learner.newPage();
      await page.setViewportSize(viewport);
      const titles = new TitlesSeen();
      for (const path of LEARNER_PAGES) {
        await visit(page, path);
        await expectNoSideways(page, `learner ${path}`);
        await titles.record(page, path);
      }
      titles.expectDistinct();
      if (viewport.width > 800) {
        await page.getByRole("button", { name: /account menu/ }).click();
        await expect(page.getByRole("menu")).toBeVisible();
        await expectNoSideways(page, "learner account menu");
      } else {
        await page.getByRole("button", { name: "Open menu" }).click();
        await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "About" })).toBeVisible();
        await expectNoSideways(page, "learner mobile menu");
      }
      await page.close();
    });

    test(`every admin tab and dialog fits ${viewport.width} px`, async () => {
      const page = await admin.newPage();
      await page.setViewportSize(viewport);
      for (const tab of ADMIN_TABS) {
        await visit(page, `/admin?tab=${tab}`);
        await expect(page.getByRole("tabpanel").getByRole("status")).toHaveCount(0);
        await expectNoSideways(page, `admin ${tab}`);
      }

      await visit(page, "/admin?tab=programs");
      await page.getByRole("button", { name: "Edit Beginner Program" }).click();
      await expect(page.getByRole("region", { name: "Edit Program" })).toBeVisible();
      await expectNoSideways(page, "admin program form editing");

      await page.getByRole("button", { name: "Manage Quiz for Beginner Program" }).click();
      const quiz = page.getByRole("dialog", { name: "Manage Quiz for Beginner Program" });
      await expect(quiz.getByLabel("Quiz Title", { exact: true })).toBeVisible();
      await expectNoSideways(page, "admin quiz modal");
      await page.keyboard.press("Escape");
      await expect(quiz).toHaveCount(0);

      await visit(page, "/admin?tab=users");
      await page.getByLabel("Search by email").fill(adminEmail);
      await expect(page.getByRole("row").filter({ hasText: adminEmail })).toHaveCount(1);
      await page.getByRole("row").filter({ hasText: adminEmail }).getByRole("button", { name: "Edit Progress" }).click();
      const progress = page.getByRole("dialog", { name: `Edit Progress for ${adminEmail}` });
      await expect(progress.getByRole("checkbox").first()).toBeVisible();
      await expectNoSideways(page, "admin progress modal");
      await page.close();
    });
  }
});
