// Installable, and useful offline (docs/product.md, "Offline"; docs/decisions/020): the manifest
// and the service worker, a lesson opened before shown again with the network cut, the offline
// page with Retry for a page never opened, nothing of an account left after its sign-out, after a
// sign-out from another device or for another learner signing in, and the built files kept
// trimmed to 150.
// Chromium at 360 px, as a phone.
import { expect, test, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { DEFAULT_PASSWORD, logIn, newSignedInContext, signedInAccount, uniqueEmail } from "./support/accounts.ts";
import { expectNoAxeViolations } from "./support/axe.ts";
import { playButton } from "./support/youtube.ts";
import { ANSWER_FOR, API_READS_CACHE } from "../src/shared/offline.ts";
import { everythingLoadedIsKept, keptReads, workerInControl } from "./support/offline.ts";

test.use({ serviceWorkers: "allow", viewport: { width: 360, height: 740 } });

const OFFLINE_NOTICE = "You are offline. Pages you opened before show what you last saw.";
const LESSON = "Welcome to the markets";
const LESSON_NOTES = "What a market is, who takes part, and how a price is made.";

/** Opens the first Beginner lesson and waits for its worker to have kept what it loaded. */
async function openLesson(page: Page) {
  await page.goto("/program/beginner");
  await expect(playButton(page, LESSON)).toBeVisible();
  await expect(page.getByText(LESSON_NOTES)).toBeVisible();
  await workerInControl(page);
  await page.waitForLoadState("networkidle");
  // The first visit's reads, handed to the worker once it controls the page, are in its cache.
  await expect
    .poll(() => keptReads(page), { timeout: 10_000 })
    .toEqual(expect.arrayContaining(["/api/me", "/api/programs/beginner"]));
  await everythingLoadedIsKept(page);
}

async function cutNetwork(context: BrowserContext) {
  await context.setOffline(true);
}

test("the app meets the install criteria: a manifest with Android's icons, and a service worker in control", async ({ browser }, testInfo) => {
  const context = await browser.newContext({ serviceWorkers: "allow", viewport: { width: 360, height: 740 } });
  const page = await context.newPage();
  await page.goto("/");
  const manifestHref = await page.locator('link[rel="manifest"]').getAttribute("href");
  expect(manifestHref).toBe("/manifest.webmanifest");
  const response = await page.request.get(manifestHref ?? "");
  expect(response.headers()["content-type"]).toContain("manifest+json");
  const manifest = (await response.json()) as {
    name: string;
    short_name: string;
    start_url: string;
    display: string;
    theme_color: string;
    icons: { src: string; sizes: string; type: string; purpose: string }[];
  };
  expect(manifest).toMatchObject({ name: "Trading Academy", start_url: "/program", display: "standalone", theme_color: "#0b1f3a" });
  expect(manifest.icons).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ sizes: "192x192", type: "image/png" }),
      expect.objectContaining({ sizes: "512x512", type: "image/png", purpose: "any" }),
      expect.objectContaining({ sizes: "512x512", type: "image/png", purpose: "maskable" }),
    ]),
  );
  for (const icon of manifest.icons) {
    const image = await page.request.get(icon.src);
    expect(image.status(), icon.src).toBe(200);
    expect(image.headers()["content-type"], icon.src).toBe("image/png");
  }
  // The worker answers fetches (its scope covers start_url), is checked for updates on each visit.
  await workerInControl(page);
  const worker = await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.getRegistration("/");
    return { scope: registration?.scope, script: registration?.active?.scriptURL };
  });
  expect(worker.scope).toBe(new URL("/", page.url()).href);
  expect(worker.script).toMatch(/\/service-worker\.js$/);
  const script = await page.request.get("/service-worker.js");
  expect(script.headers()["cache-control"]).toBe("no-cache");
  // Its start page opens offline (Chrome's installability asks for a page that does).
  await cutNetwork(context);
  await page.goto("/");
  await expect(page.getByRole("status").filter({ hasText: OFFLINE_NOTICE })).toBeVisible();
  await expect(page.getByRole("link", { name: "Trading Academy home" })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("installable-offline-home.png") });
  await context.close();
});

test("a lesson opened before opens again with the network cut: its notes, and the offline notice", async ({ browser }, testInfo) => {
  const context = await newSignedInContext(browser, { email: uniqueEmail(testInfo) }, { serviceWorkers: "allow", viewport: { width: 360, height: 740 } });
  const page = await context.newPage();
  await openLesson(page);
  await expect(page.getByRole("status").filter({ hasText: OFFLINE_NOTICE })).toHaveCount(0);

  await cutNetwork(context);
  await page.reload();
  await expect(page.getByRole("status").filter({ hasText: OFFLINE_NOTICE })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: new RegExp(LESSON) })).toBeVisible();
  await expect(page.getByText(LESSON_NOTES)).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("offline-lesson.png"), fullPage: true });
  await expectNoAxeViolations(page, "a lesson offline, with the offline notice");

  // Mark as Watched offline is refused in words, not lost.
  await page.getByRole("button", { name: "Mark as Watched" }).click();
  await expect(page.getByRole("alert")).toHaveText("You are offline: your progress was not saved. Try again when you are back online.");
  await page.screenshot({ path: testInfo.outputPath("offline-mark-watched.png") });
  await expectNoAxeViolations(page, "Mark as Watched refused offline");

  // A page never opened on this device: the offline page and its Retry, never the browser's error.
  await page.goto("/subscription");
  await expect(page.getByRole("heading", { level: 1, name: "You are offline" })).toBeVisible();
  const retry = page.getByRole("button", { name: "Retry" });
  await expect(retry).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("offline-page.png") });
  await expectNoAxeViolations(page, "the offline page");
  // Retry while still offline: the offline page again, never the browser's error.
  await retry.click();
  await expect(page.getByRole("heading", { level: 1, name: "You are offline" })).toBeVisible();
  // With the network back, Retry shows the page.
  await context.setOffline(false);
  await retry.click();
  await expect(page.getByRole("heading", { level: 1, name: "You are offline" })).toHaveCount(0);
  await expect(page.getByRole("heading", { level: 1, name: "Subscription" })).toBeVisible();
  await context.close();
});

test("the account and subscription pages opened before open again with the network cut", async ({ browser }, testInfo) => {
  const context = await newSignedInContext(browser, { email: uniqueEmail(testInfo), name: "Esi Owusu" }, { serviceWorkers: "allow", viewport: { width: 360, height: 740 } });
  const page = await context.newPage();
  const currentFreePlan = () => page.getByRole("button", { name: "Current Plan" });
  await page.goto("/account");
  await expect(page.getByRole("heading", { level: 1, name: "Your Account" })).toBeVisible();
  await workerInControl(page);
  await page.goto("/subscription");
  await expect(currentFreePlan()).toBeDisabled();
  await expect
    .poll(() => keptReads(page), { timeout: 10_000 })
    .toEqual(expect.arrayContaining(["/api/subscription", "/api/accounts/sessions"]));
  await everythingLoadedIsKept(page);

  await cutNetwork(context);
  await page.reload();
  await expect(page.getByRole("status").filter({ hasText: OFFLINE_NOTICE })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Subscription Plans" })).toBeVisible();
  await expect(currentFreePlan()).toBeDisabled();
  await page.screenshot({ path: testInfo.outputPath("offline-subscription.png"), fullPage: true });
  await page.goto("/account");
  await expect(page.getByRole("status").filter({ hasText: OFFLINE_NOTICE })).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: "Your Account" })).toBeVisible();
  await expect(page.getByLabel("Full Name")).toHaveValue("Esi Owusu");
  await page.screenshot({ path: testInfo.outputPath("offline-account.png"), fullPage: true });
  await context.close();
});

test("after sign-out, nothing of the account is shown offline", async ({ browser }, testInfo) => {
  const context = await newSignedInContext(browser, { email: uniqueEmail(testInfo), name: "Kofi Boateng" }, { serviceWorkers: "allow", viewport: { width: 360, height: 740 } });
  const page = await context.newPage();
  await openLesson(page);

  await page.getByRole("button", { name: "Open menu" }).click();
  await page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL("/");
  await expect
    .poll(() => keptReads(page))
    .not.toContain("/api/programs/beginner");

  await cutNetwork(context);
  await page.goto("/program/beginner");
  await expect(page.getByRole("status").filter({ hasText: OFFLINE_NOTICE })).toBeVisible();
  // Signed out, or the offline page: never the lesson, nor the name.
  await expect(page.getByRole("main")).toBeVisible();
  await expect(page.getByText(LESSON_NOTES)).toHaveCount(0);
  await expect(page.getByText("Kofi Boateng")).toHaveCount(0);
  await expect(page.getByText("Welcome to the markets")).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath("offline-after-sign-out.png") });
  await context.close();
});

/** Reads the worker keeps that are the same for everyone. */
const PUBLIC_READS = ["/api/site", "/api/programs", "/api/prices"];

/**
 * Asks for each read from the page, as the app would, and says whose answer came back (the user
 * id the server named it for, ANSWER_FOR, or "no one's"), or "no answer" when the worker had none
 * to give (offline: the network fails, and nothing kept is served).
 */
function answersTo(page: Page, paths: string[]): Promise<Record<string, string>> {
  return page.evaluate(
    async ({ paths, header }) =>
      Object.fromEntries(
        await Promise.all(
          paths.map(async (path) => {
            const whose = await fetch(path, { credentials: "same-origin" }).then(
              (response) => response.headers.get(header) ?? "no one's",
              () => "no answer",
            );
            return [path, whose] as const;
          }),
        ),
      ),
    { paths, header: ANSWER_FOR },
  );
}

/** The same answer for every path. */
function each(paths: string[], whose: string): Record<string, string> {
  return Object.fromEntries(paths.map((path) => [path, whose]));
}

/**
 * A learner's phone that has watched a lesson and opened the programs, the account page and the
 * subscription page, and the learner's own reads its worker kept (all but PUBLIC_READS).
 */
async function phoneThatBrowsed(browser: Browser, email: string, name: string): Promise<{ context: BrowserContext; page: Page; personal: string[] }> {
  const context = await newSignedInContext(browser, { email, name }, { serviceWorkers: "allow", viewport: { width: 360, height: 740 } });
  const page = await context.newPage();
  await openLesson(page);
  await page.getByRole("button", { name: "Mark as Watched" }).click();
  await expect(page.getByText("1 of 3 videos watched")).toBeVisible();
  await Promise.all([page.waitForResponse((response) => response.url().endsWith("/api/progress")), page.goto("/program")]);
  await everythingLoadedIsKept(page);
  await page.goto("/program/beginner");
  await expect(page.getByText("1 of 3 videos watched")).toBeVisible();
  await everythingLoadedIsKept(page);
  await page.goto("/account");
  await expect(page.getByLabel("Full Name")).toHaveValue(name);
  await expect(page.getByText("This device", { exact: true })).toBeVisible();
  await page.waitForLoadState("networkidle");
  await everythingLoadedIsKept(page);
  await page.goto("/subscription");
  await expect(page.getByRole("button", { name: "Current Plan" })).toBeDisabled();
  await page.waitForLoadState("networkidle");
  await everythingLoadedIsKept(page);
  const personal = await page.evaluate(
    async ({ reads, everyones }) =>
      (await (await caches.open(reads)).keys()).map((request) => new URL(request.url)).filter((url) => !everyones.includes(url.pathname)).map((url) => url.pathname + url.search),
    { reads: API_READS_CACHE, everyones: PUBLIC_READS },
  );
  // The session, the track with the lesson watched, progress, the devices, SMS settings, the plan.
  expect(personal).toEqual(
    expect.arrayContaining(["/api/me", "/api/programs/beginner", "/api/progress", "/api/accounts/sessions", "/api/accounts/sms", "/api/subscription"]),
  );
  return { context, page, personal };
}

test("signed out from another device, the phone serves none of the learner's answers offline", async ({ browser }, testInfo) => {
  // Two devices and four pages opened before the network is cut.
  test.slow();
  const email = uniqueEmail(testInfo);
  const { page, context, personal } = await phoneThatBrowsed(browser, email, "Yaa Asantewaa");
  const reads = personal.filter((path) => path !== "/api/me");

  // From the laptop: Sign Out All Other Devices.
  const laptop = await browser.newContext();
  const laptopPage = await laptop.newPage();
  await logIn(laptopPage, email, DEFAULT_PASSWORD);
  await expect(laptopPage).toHaveURL(/\/$/);
  await laptopPage.goto("/account");
  await laptopPage.getByRole("button", { name: "Sign Out All Other Devices" }).click();
  await expect(laptopPage.getByText("Your other devices have been signed out.")).toBeVisible();
  await laptop.close();

  // The phone, back online, shows its learner signed out.
  await page.goto("/account");
  await expect(page.getByRole("main").getByRole("status")).toHaveText("You were signed out on this device from another session. Please log in again.");

  // Offline, whoever picks up the phone gets none of the learner's answers: asked for directly,
  // nor on the app's pages.
  await cutNetwork(context);
  // (The session's own answer is kept: it says no one is signed in.)
  expect(await answersTo(page, ["/api/me", ...reads])).toEqual({ ...each(reads, "no answer"), "/api/me": "no one's" });
  await page.goto("/program/beginner");
  await expect(page.getByRole("main")).toBeVisible();
  await expect(page.getByText(LESSON_NOTES)).toHaveCount(0);
  await expect(page.getByText("1 of 3 videos watched")).toHaveCount(0);
  await page.goto("/account");
  await expect(page.getByRole("main")).toBeVisible();
  await expect(page.getByText("Yaa Asantewaa")).toHaveCount(0);
  await expect(page.getByText(email)).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath("offline-after-signed-out-elsewhere.png") });
  await context.close();
});

test("another learner signing in on the same browser never gets the first one's answers", async ({ browser }, testInfo) => {
  // Two learners, and five pages opened before the network is cut.
  test.slow();
  const { page, context, personal } = await phoneThatBrowsed(browser, uniqueEmail(testInfo), "Kwame Asante");
  // The first learner's answer to the track, as it was kept.
  const firstLearners = await page.evaluate(async (reads) => {
    const kept = await (await caches.open(reads)).match("/api/programs/beginner");
    if (!kept) return null;
    const headers: [string, string][] = [];
    kept.headers.forEach((value, name) => headers.push([name, value]));
    return { body: await kept.text(), headers };
  }, API_READS_CACHE);
  expect(firstLearners?.body).toMatch(/"watched":\["/);

  // Another learner signs in on this browser without its page signing out (as a sign-in with
  // Google does, coming back to the app), and opens the account page.
  await signedInAccount(context, context.request, { email: uniqueEmail(`${testInfo.title} second`), name: "Adwoa Mensah" });
  await page.goto("/account");
  await expect(page.getByLabel("Full Name")).toHaveValue("Adwoa Mensah");
  const second = await page.evaluate(async () => ((await (await fetch("/api/me")).json()) as { user: { id: string } }).user.id);

  // An answer of the first learner's still kept (one that arrived late, say) is not served either.
  await page.evaluate(
    async ({ reads, kept }) => (await caches.open(reads)).put("/api/programs/beginner", new Response(kept.body, { headers: kept.headers })),
    { reads: API_READS_CACHE, kept: firstLearners ?? { body: "", headers: [] } },
  );

  await cutNetwork(context);
  // The lesson the first learner watched: the offline page for the second, never their progress.
  await page.goto("/program/beginner");
  await expect(page.getByRole("heading", { level: 1, name: "You are offline" })).toBeVisible();
  await expect(page.getByText("1 of 3 videos watched")).toHaveCount(0);
  // The account page the second learner opened shows theirs.
  await page.goto("/account");
  await expect(page.getByLabel("Full Name")).toHaveValue("Adwoa Mensah");
  await expect(page.getByText("Kwame Asante")).toHaveCount(0);
  // Asked for directly: only the second learner's own answers, or none.
  const answers = await answersTo(page, personal);
  expect(answers["/api/me"]).toBe(second);
  for (const [path, whose] of Object.entries(answers)) expect(["no answer", second], path).toContain(whose);
  await page.screenshot({ path: testInfo.outputPath("offline-second-learner.png") });
  await context.close();
});

test("the built files kept are trimmed to 150, the longest unused first, never a file in use", async ({ browser }) => {
  const context = await browser.newContext({ serviceWorkers: "allow", viewport: { width: 360, height: 740 } });
  const page = await context.newPage();
  await page.goto("/");
  await workerInControl(page);
  const kept = () => page.evaluate(async () => (await (await caches.open("assets")).keys()).map((request) => request.url));
  // The entry script the page runs, kept when the worker was installed.
  await expect.poll(async () => (await kept()).some((url) => /\/assets\/index-[^/?]+\.js$/.test(url)), { timeout: 10_000 }).toBe(true);
  const entry = (await kept()).find((url) => /\/assets\/index-[^/?]+\.js$/.test(url)) ?? "";
  // Files of releases gone by: the same bytes under other names, as the worker sees them.
  const keepOldFiles = (from: number, to: number) =>
    page.evaluate(
      async ({ entry, from, to }) => {
        for (let copy = from; copy < to; copy++) await (await fetch(`${entry}?release=${copy}`)).arrayBuffer();
      },
      { entry, from, to },
    );
  const copy = (n: number) => `${entry}?release=${n}`;

  await keepOldFiles(0, 100);
  // The entry script used again (a page opened) while among the oldest kept: it moves to the end.
  await page.evaluate(async (url) => (await fetch(url)).arrayBuffer(), entry);
  await expect.poll(async () => (await kept()).indexOf(entry), { timeout: 10_000 }).toBeGreaterThan(50);
  await keepOldFiles(100, 200);

  await expect.poll(async () => (await kept()).length, { timeout: 10_000 }).toBe(150);
  const urls = await kept();
  expect(urls).toContain(entry);
  expect(urls).toContain(copy(199));
  expect(urls).not.toContain(copy(0));
  await context.close();
});
