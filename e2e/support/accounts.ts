// Helpers for the account journeys: mailed links from the development mailbox, accounts made
// ready for a test, and the login form as a person fills it.
//
// About rate limits: the browser always reaches the app from 127.0.0.1, and the app rightly
// limits per address (docs/product.md, "Limits": 60 new accounts an hour; email sign-in 100 in 5
// minutes; social sign-in 60 in 5 minutes). The journeys under test stay within those limits on
// their own. Accounts that a test only needs as a starting point
// are made through the API from another loopback address (127.x.y.z, all of which reach the app
// on Linux), so that setting up never spends the browser's allowance.
import {
  expect,
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Page,
  type TestInfo,
} from "@playwright/test";
import { E2E_BASE_URL } from "../../playwright.config.ts";
import { loopbackCall, type LoopbackAnswer } from "../../src/server/testing/loopback-http.ts";

export const DEFAULT_PASSWORD = "Trading-Academy-2025";

type MailMessage = { to: string; subject: string; text: string; html: string; createdAt: string };

/** A fresh address for this test: its title, made safe, then the time and a random part. */
export function uniqueEmail(testInfo: TestInfo | string): string {
  const title = typeof testInfo === "string" ? testInfo : testInfo.title;
  const slug = title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 32)
    .replace(/-+$/, "");
  return `${slug || "user"}-${Date.now()}-${Math.floor(Math.random() * 1e4)}@example.com`;
}

/** Everything the development mailbox holds for `email`, newest first. */
export async function mailFor(request: APIRequestContext, email: string): Promise<MailMessage[]> {
  const response = await request.get(`/dev/mail/messages?${new URLSearchParams({ to: email })}`);
  expect(response.ok(), `GET /dev/mail/messages answered ${response.status()}`).toBe(true);
  const body = (await response.json()) as { messages: MailMessage[] };
  return body.messages;
}

export async function mailCount(request: APIRequestContext, email: string): Promise<number> {
  return (await mailFor(request, email)).length;
}

function linksIn(message: MailMessage): URL[] {
  const found = `${message.text}\n${message.html}`.match(/https?:\/\/[^\s"'<>]+/g) ?? [];
  return found.flatMap((href) => (URL.canParse(href) ? [new URL(href.replace(/&amp;/g, "&"))] : []));
}

/**
 * The newest mailed link to `email` whose path starts with `pathPrefix` (e.g. "/verify-email"),
 * waiting up to `timeout` for the mail to arrive. Returns the full address, as the email shows it.
 */
export async function readLinkFromMail(
  request: APIRequestContext,
  email: string,
  pathPrefix: string,
  { timeout = 5_000 }: { timeout?: number } = {},
): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        for (const message of await mailFor(request, email)) {
          const match = linksIn(message).find((url) => url.pathname.startsWith(pathPrefix));
          if (match) {
            link = match.href;
            return true;
          }
        }
        return false;
      },
      { message: `a mail to ${email} with a ${pathPrefix} link`, timeout, intervals: [100, 200, 250, 500] },
    )
    .toBe(true);
  if (!link) throw new Error(`no ${pathPrefix} link mailed to ${email}`);
  return link;
}

// ---------------------------------------------------------------------------------------------
// Setup through the API, from a loopback address of its own (see the note at the top).

function setupAddress(): string {
  const byte = (min: number) => min + Math.floor(Math.random() * (255 - min));
  return `127.${byte(1)}.${byte(0)}.${byte(1)}`;
}

function setupCall(method: "GET" | "POST", path: string, body?: unknown): Promise<LoopbackAnswer> {
  return loopbackCall(E2E_BASE_URL, setupAddress(), method, path, body);
}

function expectStatus(answer: LoopbackAnswer, expected: number, what: string) {
  expect(answer.status, `${what}: ${JSON.stringify(answer.body)}`).toBe(expected);
}

export type AccountDetails = { email: string; password?: string; name?: string };

/** Registers an account through the API (the verification mail goes to the dev mailbox). */
export async function registerByApi({ email, password = DEFAULT_PASSWORD, name = "Ama Mensah" }: AccountDetails) {
  const answer = await setupCall("POST", "/api/accounts/register", {
    fullName: name,
    email,
    password,
    confirmPassword: password,
  });
  expectStatus(answer, 201, `registering ${email}`);
}

/**
 * An account whose email is verified: registered through the API, then verified the way its
 * owner would, by opening the mailed link in the browser.
 */
export async function registerAndVerify(page: Page, request: APIRequestContext, details: AccountDetails) {
  await registerByApi(details);
  const link = await readLinkFromMail(request, details.email, "/verify-email");
  await page.goto(link);
  await expect(page.getByText("Email verified successfully!")).toBeVisible();
}

/**
 * A verified account already signed in in `context`, for tests about what a signed-in person
 * sees: registered, verified and signed in through the API, the session cookie then handed to
 * the browser.
 */
export async function signedInAccount(context: BrowserContext, request: APIRequestContext, details: AccountDetails) {
  const password = details.password ?? DEFAULT_PASSWORD;
  await registerByApi({ ...details, password });
  const link = new URL(await readLinkFromMail(request, details.email, "/verify-email"));
  const token = link.searchParams.get("oobCode") ?? "";
  expectStatus(
    await setupCall("GET", `/api/auth/verify-email?${new URLSearchParams({ token })}`),
    200,
    `verifying ${details.email}`,
  );
  const signIn = await setupCall("POST", "/api/auth/sign-in/email", { email: details.email, password });
  expectStatus(signIn, 200, `signing in ${details.email}`);
  const cookies = signIn.setCookies.map((header) => {
    const [pair = ""] = header.split(";");
    const separator = pair.indexOf("=");
    return {
      name: pair.slice(0, separator).trim(),
      value: pair.slice(separator + 1).trim(),
      url: E2E_BASE_URL,
      httpOnly: /;\s*httponly/i.test(header),
      sameSite: "Lax" as const,
    };
  });
  expect(cookies.map((cookie) => cookie.name)).toContain("ta.session_token");
  await context.addCookies(cookies);
}

/**
 * A new browser context holding a signed-in verified account (see signedInAccount), for a group of
 * tests that share one person; the caller closes it.
 */
export async function newSignedInContext(
  browser: Browser,
  details: AccountDetails,
  options: BrowserContextOptions = {},
): Promise<BrowserContext> {
  const context = await browser.newContext(options);
  await signedInAccount(context, context.request, details);
  return context;
}

// ---------------------------------------------------------------------------------------------
// The pages, as a person uses them.

/** Fills the login form and presses Sign In, waiting for the server's answer (not its outcome). */
export async function logIn(page: Page, email: string, password: string) {
  if (new URL(page.url()).pathname !== "/login") await page.goto("/login");
  const main = page.getByRole("main");
  await main.getByLabel("Email").fill(email);
  await main.getByLabel("Password").fill(password);
  await Promise.all([
    page.waitForResponse((r) => r.url().endsWith("/api/auth/sign-in/email") && r.request().method() === "POST"),
    main.getByRole("button", { name: "Sign In", exact: true }).click(),
  ]);
}

/** Fills the registration form and presses Sign Up. */
export async function fillRegistration(
  page: Page,
  fields: { name?: string; email?: string; password?: string; confirm?: string },
) {
  const main = page.getByRole("main");
  await main.getByLabel("Full Name").fill(fields.name ?? "");
  await main.getByLabel("Email").fill(fields.email ?? "");
  await main.getByLabel("Password", { exact: true }).fill(fields.password ?? "");
  await main.getByLabel("Confirm Password").fill(fields.confirm ?? "");
  await main.getByRole("button", { name: "Sign Up" }).click();
}

/**
 * Presses a "Sign in with ..." button and waits for the app's answer. Social sign-in is limited
 * to 60 starts in 5 minutes per address; should a run reach the limit anyway, wait as long as the
 * server says and press again.
 */
export async function startProviderSignIn(page: Page, label: string, testInfo?: TestInfo) {
  const button = page.getByRole("button", { name: label });
  for (let attempt = 1; ; attempt++) {
    await expect(button).toBeEnabled();
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith("/api/auth/sign-in/social") && r.request().method() === "POST"),
      button.click(),
    ]);
    if (response.status() !== 429 || attempt === 3) {
      expect(response.status(), `POST /api/auth/sign-in/social for "${label}"`).toBe(200);
      return;
    }
    const seconds = Number(response.headers()["x-retry-after"] ?? "10");
    testInfo?.annotations.push({ type: "rate-limit", description: `social sign-in: waited ${seconds} s` });
    await page.waitForTimeout(seconds * 1_000 + 250);
  }
}

/** The site's main navigation (header links and, when signed in, Subscription and Logout). */
export function mainNav(page: Page) {
  return page.getByRole("navigation", { name: "Main" });
}

/** Signed-in header at desktop width: Subscription and Logout, and neither Login nor Sign Up. */
export async function expectSignedInHeader(page: Page) {
  const nav = mainNav(page);
  await expect(nav.getByRole("button", { name: "Logout" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Subscription" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Login" })).toHaveCount(0);
  await expect(nav.getByRole("link", { name: "Sign Up" })).toHaveCount(0);
}

/** Signed-out header at desktop width: Login and Sign Up, no Subscription, Logout or avatar. */
export async function expectSignedOutHeader(page: Page) {
  const nav = mainNav(page);
  await expect(nav.getByRole("link", { name: "Login" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Sign Up" })).toBeVisible();
  await expect(nav.getByRole("button", { name: "Logout" })).toHaveCount(0);
  await expect(nav.getByRole("link", { name: "Subscription" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /account menu/ })).toHaveCount(0);
}

/** How far the page is wider than the window; 0 or less means no horizontal scrolling. */
export function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}
