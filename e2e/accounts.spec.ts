// The account journeys of docs/product.md ("Routes and guards", "Accounts"), walked in the browser
// as a person would: registration, the mailed links (read from the development mailbox), login,
// password reset, Google and MQL5 sign-in through their local stand-ins, and the signed-in header.
//
// Tests share one database per run, so each makes its own account with a unique email.
// The order matters a little: MQL5 comes first and Google later, so that the five provider
// sign-ins never reach the social sign-in limit (3 until 10 seconds pass without one).
import { expect, test, type Page } from "@playwright/test";
import {
  DEFAULT_PASSWORD,
  expectSignedInHeader,
  expectSignedOutHeader,
  fillRegistration,
  horizontalOverflow,
  logIn,
  mailCount,
  mainNav,
  readLinkFromMail,
  registerAndVerify,
  registerByApi,
  signedInAccount,
  startProviderSignIn,
  uniqueEmail,
} from "./support/accounts.ts";

const NEW_PASSWORD = "Brand-New-Secret-42";

const alert = (page: Page) => page.getByRole("main").getByRole("alert");
const status = (page: Page) => page.getByRole("main").getByRole("status");

test.describe("MQL5 sign-in through the stand-in", () => {
  test("Continue returns through /login?code=... and lands on / signed in", async ({ page }, testInfo) => {
    const visited: string[] = [];
    page.on("framenavigated", (frame) => {
      if (frame === page.mainFrame()) visited.push(frame.url());
    });
    await page.goto("/login");
    await startProviderSignIn(page, "Sign in with MQL5", testInfo);

    await expect(page).toHaveURL(/\/dev\/fakes\/mql5\/en\/oauth\/login\?/);
    await expect(page.getByRole("heading", { name: "Sign in with MQL5 (development stand-in)" })).toBeVisible();
    const login = `trader${Date.now()}`;
    await page.getByLabel("MQL5 login").fill(login);
    await page.getByLabel("Email", { exact: true }).fill(`${login}@mql5.test`);
    await page.getByRole("button", { name: "Continue" }).click();

    await expect(page).toHaveURL((url) => url.pathname === "/" && url.search === "");
    await expectSignedInHeader(page);
    expect(visited.some((url) => /\/login\?(.*&)?code=/.test(url)), visited.join("\n")).toBe(true);
    // The MQL5 login is the account's name: its first letter is the avatar.
    await expect(page.getByRole("button", { name: /account menu/ })).toHaveText(/^T/);
  });

  test("Cancel comes back to /login saying so in words, and MQL5 can be tried again", async ({ page }, testInfo) => {
    await page.goto("/login");
    await startProviderSignIn(page, "Sign in with MQL5", testInfo);
    await expect(page).toHaveURL(/\/dev\/fakes\/mql5\//);
    await page.getByRole("button", { name: "Cancel" }).click();

    await expect(page).toHaveURL(/\/login\?/);
    await expect(alert(page)).toHaveText("Sign in was cancelled");
    await expectSignedOutHeader(page);
    await startProviderSignIn(page, "Sign in with MQL5", testInfo);
    await expect(page).toHaveURL(/\/dev\/fakes\/mql5\//);
  });

  test("an email that already has a password account is refused in words, not a code", async ({ page, request }, testInfo) => {
    const email = uniqueEmail(testInfo);
    await registerAndVerify(page, request, { email });

    await page.goto("/login");
    await startProviderSignIn(page, "Sign in with MQL5", testInfo);
    await page.getByLabel("MQL5 login").fill(`trader${Date.now()}`);
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByRole("button", { name: "Continue" }).click();

    await expect(page).toHaveURL(/\/login\?/);
    await expect(alert(page)).toHaveText("An account already exists with the same email but different sign-in credentials.");
    await expect(page.getByRole("main")).not.toContainText("account_not_linked");
    await expectSignedOutHeader(page);
  });
});

test.describe("registration, verification and login", () => {
  test("register from a redirect, verify by email, log in and land on the remembered page", async ({
    page,
    request,
  }, testInfo) => {
    const email = uniqueEmail(testInfo);

    // A visitor was sent to the login page on the way to /about, and has no account yet.
    await page.goto("/login?redirect=/about");
    const signUp = page.getByRole("main").getByRole("link", { name: "Sign Up" });
    await expect(signUp).toHaveAttribute("href", "/register?redirect=%2Fabout");
    await signUp.click();
    await expect(page).toHaveURL("/register?redirect=%2Fabout");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Create your account");

    await fillRegistration(page, { name: "Kofi Boateng", email, password: DEFAULT_PASSWORD, confirm: DEFAULT_PASSWORD });
    await expect(page).toHaveURL("/login?redirect=%2Fabout");
    await expect(status(page)).toHaveText("Registration successful! Please check your email to verify your account. It may take a few minutes to arrive.");

    // The mailed link verifies the email, then the page moves on to /login by itself after 3 s.
    const link = await readLinkFromMail(request, email, "/verify-email");
    expect(new URL(link).searchParams.get("oobCode")).toBeTruthy();
    await page.goto(link);
    await expect(status(page)).toHaveText("Email verified successfully!");
    const verifiedAt = Date.now();
    await expect(page).toHaveURL(/\/login/, { timeout: 6_000 });
    expect(Date.now() - verifiedAt).toBeGreaterThanOrEqual(2_500);
    await expect(status(page)).toHaveText("Email verified successfully!");

    // The verified step's words go when the next step starts: a wrong password shows alone.
    await logIn(page, email, "not my password");
    await expect(alert(page)).toHaveText("Incorrect email or password. Please try again.");
    await expect(page.getByText("Email verified successfully!")).toHaveCount(0);

    await logIn(page, email, DEFAULT_PASSWORD);
    await expect(page).toHaveURL("/about");
    await expect(page.getByText("Login successful!")).toBeVisible();
    await expectSignedInHeader(page);
    await expect(mainNav(page).getByRole("link", { name: "Admin" })).toHaveCount(0);
  });

  test("the registration form shows the spec's validation messages", async ({ page }, testInfo) => {
    const email = uniqueEmail(testInfo);
    await page.goto("/register");
    await fillRegistration(page, {});
    await expect(alert(page)).toHaveText("Please fill in all fields");

    await fillRegistration(page, { name: "Ama Mensah", email, password: "password-one", confirm: "password-two" });
    await expect(alert(page)).toHaveText("Passwords do not match");

    await fillRegistration(page, { name: "Ama Mensah", email, password: "short", confirm: "short" });
    await expect(alert(page)).toHaveText("Password should be at least 8 characters");
    await expect(page).toHaveURL("/register");
  });

  test("registering a verified email again says to log in", async ({ page, request }, testInfo) => {
    const email = uniqueEmail(testInfo);
    await registerAndVerify(page, request, { email });

    await page.goto("/register");
    await fillRegistration(page, { name: "Ama Mensah", email, password: DEFAULT_PASSWORD, confirm: DEFAULT_PASSWORD });
    await expect(alert(page)).toHaveText("Your email is already verified. Please log in.");
    await expect(page).toHaveURL("/register");
  });

  test("registering an unverified email again sends a new link and says so", async ({ page, request }, testInfo) => {
    const email = uniqueEmail(testInfo);
    await registerByApi({ email });
    await expect.poll(() => mailCount(request, email)).toBe(1);

    await page.goto("/register");
    await fillRegistration(page, { name: "Ama Mensah", email, password: DEFAULT_PASSWORD, confirm: DEFAULT_PASSWORD });
    await expect(status(page)).toHaveText(
      "This email is already registered but not verified. We sent you a new verification link. It may take a few minutes to arrive.",
    );
    await expect.poll(() => mailCount(request, email)).toBe(2);
    await expect(page).toHaveURL("/register");
  });
});

test.describe("login", () => {
  test("a wrong password is refused with the spec's message", async ({ page, request }, testInfo) => {
    const email = uniqueEmail(testInfo);
    await registerAndVerify(page, request, { email });

    await logIn(page, email, "not-the-password");
    await expect(alert(page)).toHaveText("Incorrect email or password. Please try again.");
    await expect(page).toHaveURL("/login");
    await expectSignedOutHeader(page);
  });

  test("empty fields name what is missing, without asking the server", async ({ page }) => {
    let signInCalls = 0;
    page.on("request", (r) => {
      if (r.url().includes("/api/auth/sign-in")) signInCalls++;
    });
    await page.goto("/login");
    const main = page.getByRole("main");
    const signIn = main.getByRole("button", { name: "Sign In", exact: true });

    await signIn.click();
    await expect(alert(page)).toHaveText("Please enter your email and password");

    await main.getByLabel("Password").fill("some-password");
    await signIn.click();
    await expect(alert(page)).toHaveText("Please enter your email");

    await main.getByLabel("Password").fill("");
    await main.getByLabel("Email").fill("someone@example.com");
    await signIn.click();
    await expect(alert(page)).toHaveText("Please enter your password");
    expect(signInCalls).toBe(0);
  });

  test("an unverified email gets the verify prompt, and Resend sends another email", async ({
    page,
    request,
  }, testInfo) => {
    const email = uniqueEmail(testInfo);
    await registerByApi({ email });
    await expect.poll(() => mailCount(request, email)).toBe(1);

    await logIn(page, email, DEFAULT_PASSWORD);
    await expect(alert(page)).toHaveText(
      "Please verify your email before logging in. We sent you a new verification link.",
    );
    // Logging in with an unverified email mails a fresh link.
    await expect.poll(() => mailCount(request, email)).toBe(2);
    await expectSignedOutHeader(page);

    await page.getByRole("button", { name: "Resend verification email" }).click();
    await expect(status(page)).toHaveText("Verification email sent. Please check your inbox. It may take a few minutes to arrive.");
    await expect.poll(() => mailCount(request, email)).toBe(3);
    await expectSignedOutHeader(page);
  });
});

test.describe("forgot password", () => {
  test("the mailed link sets a new password: the old one fails, the new one works", async ({
    page,
    request,
  }, testInfo) => {
    const email = uniqueEmail(testInfo);
    await registerAndVerify(page, request, { email });

    await page.goto("/login");
    await page.getByRole("link", { name: "Forgot Password?" }).click();
    await expect(page).toHaveURL("/forgot-password");
    // The address changes before the page does: the login page's own Email field is still there
    // until the forgot-password page has loaded.
    await expect(page.getByRole("heading", { level: 1, name: "Forgot your password?" })).toBeVisible();
    await page.getByRole("main").getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Send Reset Link" }).click();
    await expect(status(page)).toHaveText("Password reset email sent! It may take a few minutes to arrive.");

    await page.goto(await readLinkFromMail(request, email, "/reset-password"));
    await expect(page.getByRole("heading", { name: "Reset Password" })).toBeVisible();
    const newPassword = page.getByLabel("New Password", { exact: true });
    const confirm = page.getByLabel("Confirm New Password");
    const reset = page.getByRole("button", { name: "Reset Password" });

    await newPassword.fill(NEW_PASSWORD);
    await confirm.fill(`${NEW_PASSWORD}-typo`);
    await reset.click();
    await expect(alert(page)).toHaveText("Passwords do not match");

    await newPassword.fill("short");
    await confirm.fill("short");
    await reset.click();
    await expect(alert(page)).toHaveText("Password should be at least 8 characters");

    await newPassword.fill(NEW_PASSWORD);
    await confirm.fill(NEW_PASSWORD);
    await reset.click();
    await expect(page).toHaveURL("/login");
    await expect(status(page)).toHaveText("Your password has been reset. Please log in.");

    await logIn(page, email, DEFAULT_PASSWORD);
    await expect(alert(page)).toHaveText("Incorrect email or password. Please try again.");

    await logIn(page, email, NEW_PASSWORD);
    await expect(page).toHaveURL("/");
    await expect(page.getByText("Login successful!")).toBeVisible();
    await expectSignedInHeader(page);
  });

  test("an unknown email is refused", async ({ page }, testInfo) => {
    await page.goto("/forgot-password");
    await page.getByRole("main").getByLabel("Email").fill(uniqueEmail(testInfo));
    await page.getByRole("button", { name: "Send Reset Link" }).click();
    await expect(alert(page)).toHaveText("No user found with this email.");
    await page.getByRole("link", { name: "Back to Login" }).click();
    await expect(page).toHaveURL("/login");
  });
});

test.describe("email verification page", () => {
  test("without a code the link is invalid", async ({ page }) => {
    await page.goto("/verify-email");
    await expect(alert(page)).toHaveText("Invalid verification link.");
    await page.getByRole("link", { name: "Back to Login" }).click();
    await expect(page).toHaveURL("/login");
  });

  test("a bad code offers a resend form and a way back to login", async ({ page }) => {
    await page.goto("/verify-email?oobCode=not-a-real-code");
    await expect(alert(page)).toHaveText("Invalid or expired verification link.");
    const main = page.getByRole("main");
    await expect(main.getByLabel("Email")).toBeVisible();
    await expect(main.getByLabel("Password")).toBeVisible();
    await expect(main.getByRole("button", { name: "Resend verification email" })).toBeVisible();
    await main.getByRole("link", { name: "Back to Login" }).click();
    await expect(page).toHaveURL("/login");
  });
});

test.describe("Google sign-in through the stand-in", () => {
  test("Continue with a fresh email comes back signed in", async ({ page }, testInfo) => {
    const email = uniqueEmail(testInfo);
    await page.goto("/login");
    await startProviderSignIn(page, "Sign in with Google", testInfo);

    await expect(page).toHaveURL(/\/dev\/fakes\/google\/authorize\?/);
    await expect(page.getByRole("heading", { name: "Sign in with Google (development stand-in)" })).toBeVisible();
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByLabel("Name").fill("Gifty Owusu");
    await expect(page.getByLabel("Email verified")).toBeChecked();
    await page.getByRole("button", { name: "Continue" }).click();

    await expect(page).toHaveURL("/");
    await expectSignedInHeader(page);
    const avatar = page.getByRole("button", { name: /account menu/ });
    await expect(avatar).toHaveText(/^GO/);
    await avatar.click();
    await expect(page.locator(".account-panel")).toContainText(email);
  });

  test("Cancel comes back to /login with Sign in was cancelled", async ({ page }, testInfo) => {
    await page.goto("/login");
    await startProviderSignIn(page, "Sign in with Google", testInfo);
    await expect(page).toHaveURL(/\/dev\/fakes\/google\//);
    await page.getByRole("button", { name: "Cancel" }).click();

    await expect(page).toHaveURL(/\/login\?/);
    await expect(alert(page)).toHaveText("Sign in was cancelled");
    await expectSignedOutHeader(page);
  });

  test("an email that already has a password account is refused", async ({ page, request }, testInfo) => {
    const email = uniqueEmail(testInfo);
    await registerAndVerify(page, request, { email });

    await page.goto("/login");
    await startProviderSignIn(page, "Sign in with Google", testInfo);
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByRole("button", { name: "Continue" }).click();

    await expect(page).toHaveURL(/\/login\?/);
    await expect(alert(page)).toHaveText(
      "An account already exists with the same email but different sign-in credentials.",
    );
    await expectSignedOutHeader(page);
  });
});

test.describe("a provider's return that matches no sign-in", () => {
  test("two tabs: the older one comes back to /login saying to try again, and trying again works", async ({ page, context }, testInfo) => {
    const email = uniqueEmail(testInfo);
    await page.goto("/login");
    await startProviderSignIn(page, "Sign in with Google", testInfo);
    await expect(page).toHaveURL(/\/dev\/fakes\/google\/authorize\?/);
    // A second tab starts another sign-in: the browser now remembers that one.
    const second = await context.newPage();
    await second.goto("/login");
    await startProviderSignIn(second, "Sign in with Google", testInfo);
    await expect(second).toHaveURL(/\/dev\/fakes\/google\/authorize\?/);
    await second.close();

    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page).toHaveURL(/\/login\?/);
    await expect(alert(page)).toHaveText("That sign-in had expired or was started again in another tab. Please try again.");
    await expectSignedOutHeader(page);

    await startProviderSignIn(page, "Sign in with Google", testInfo);
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page).toHaveURL("/");
    await expectSignedInHeader(page);
  });

  test("a stale return and the auth library's error page both land on the branded login page", async ({ page }) => {
    await page.goto("/api/auth/callback/google?state=from-last-week&code=stale");
    await expect(page).toHaveURL(/\/login\?error=state_mismatch$/);
    await expect(page.getByRole("heading", { level: 1, name: "Login" })).toBeVisible();
    await expect(alert(page)).toHaveText("That sign-in had expired or was started again in another tab. Please try again.");
    await expect(page.getByRole("button", { name: "Sign in with Google" })).toBeEnabled();

    await page.goto("/api/auth/error?error=unable_to_get_user_info");
    await expect(page).toHaveURL(/\/login\?error=unable_to_get_user_info$/);
    await expect(alert(page)).toHaveText("Authentication failed. Please try again.");
  });
});

test.describe("a Google account whose email Google has not verified", () => {
  test("is told to verify it, gets the link by mail, and is signed in once it is verified", async ({ page, request }, testInfo) => {
    const email = uniqueEmail(testInfo);
    const signInUnverified = async () => {
      await startProviderSignIn(page, "Sign in with Google", testInfo);
      await page.getByLabel("Email", { exact: true }).fill(email);
      await page.getByLabel("Name").fill("Abena Ofori");
      await page.getByLabel("Email verified").uncheck();
      await page.getByRole("button", { name: "Continue" }).click();
    };
    await page.goto("/login");
    await signInUnverified();

    await expect(page).toHaveURL(/\/login\?/);
    await expect(alert(page)).toHaveText(
      "Your Google account's email address is not verified yet. We sent a verification link to it: open the link, then sign in with Google again.",
    );
    await expectSignedOutHeader(page);
    const link = await readLinkFromMail(request, email, "/verify-email");
    await page.goto(link);
    await expect(status(page)).toHaveText("Email verified successfully!");
    await page.getByRole("link", { name: "Go to Login now" }).click();

    await signInUnverified();
    await expect(page).toHaveURL("/");
    await expectSignedInHeader(page);
  });
});

test.describe("signed-in visitors to /login and /register", () => {
  test("go where they were headed, or home", async ({ page, context, request }, testInfo) => {
    await signedInAccount(context, request, { email: uniqueEmail(testInfo) });
    await page.goto("/login?redirect=%2Fabout");
    await expect(page).toHaveURL("/about");
    await page.goto("/register?redirect=%2Fcontact");
    await expect(page).toHaveURL("/contact");
    await page.goto("/login");
    await expect(page).toHaveURL("/");
    await page.goto("/register");
    await expect(page).toHaveURL("/");
    await expectSignedInHeader(page);
  });
});

test.describe("password fields", () => {
  test("show and hide the password from the keyboard, on login, sign-up and reset", async ({ page }) => {
    for (const [path, label] of [
      ["/login", "Password"],
      ["/register", "Confirm Password"],
      ["/reset-password?token=x", "New Password"],
    ] as const) {
      await page.goto(path);
      const input = page.getByRole("main").getByLabel(label, { exact: true });
      await input.fill("Secret-Words-9");
      await expect(input).toHaveAttribute("type", "password");
      await input.focus();
      await page.keyboard.press("Tab");
      const toggle = page.getByRole("main").getByRole("button", { name: "Show password" }).and(page.locator(":focus"));
      await expect(toggle).toHaveAttribute("aria-pressed", "false");
      await page.keyboard.press("Space");
      await expect(input).toHaveAttribute("type", "text");
      await expect(toggle).toHaveAttribute("aria-pressed", "true");
      await expect(input).toHaveValue("Secret-Words-9");
      await page.keyboard.press("Enter");
      await expect(input).toHaveAttribute("type", "password");
    }
  });
});

test.describe("toasts", () => {
  test("say nothing the page already says after registering", async ({ page }, testInfo) => {
    await page.goto("/register");
    await fillRegistration(page, { name: "Kwame Mensah", email: uniqueEmail(testInfo), password: DEFAULT_PASSWORD, confirm: DEFAULT_PASSWORD });
    await expect(status(page)).toHaveText("Registration successful! Please check your email to verify your account. It may take a few minutes to arrive.");
    await page.waitForTimeout(500);
    await expect(page.locator("[data-sonner-toast]")).toHaveCount(0);
  });

  test.describe("at 360 px", () => {
    test.use({ viewport: { width: 360, height: 740 } });

    test("a toast does not cover the page's heading", async ({ page, request }, testInfo) => {
      const email = uniqueEmail(testInfo);
      await registerAndVerify(page, request, { email });
      await page.goto("/login?redirect=%2Fabout");
      await logIn(page, email, DEFAULT_PASSWORD);
      await expect(page).toHaveURL("/about");
      const toast = page.locator("[data-sonner-toast]").filter({ hasText: "Login successful!" });
      await expect(toast).toBeVisible();
      // Sonner's entrance animation: measure where the toast comes to rest.
      await page.waitForTimeout(600);
      const heading = await page.getByRole("heading", { level: 1 }).boundingBox();
      const box = await toast.boundingBox();
      expect(heading && box).toBeTruthy();
      if (heading && box) expect(box.y >= heading.y + heading.height || box.y + box.height <= heading.y).toBe(true);
      await page.screenshot({ path: "test-results/screens/toast-360.png" });
    });
  });
});

test.describe("the avatar menu", () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test("opens from the keyboard with the account's details, and its Logout signs out for good", async ({
    page,
    request,
  }, testInfo) => {
    const email = uniqueEmail(testInfo);
    await registerAndVerify(page, request, { email, name: "Ama Mensah" });
    await logIn(page, email, DEFAULT_PASSWORD);
    await expect(page).toHaveURL("/");

    const avatar = page.getByRole("button", { name: "AM account menu" });
    await expect(avatar).toHaveAttribute("aria-expanded", "false");
    // The "Login successful!" toast shows below the header: the avatar can be clicked meanwhile.
    await expect(page.getByText("Login successful!")).toBeVisible();
    await avatar.click({ trial: true, timeout: 1_000 });
    await avatar.focus();
    await page.keyboard.press("Enter");
    await expect(avatar).toHaveAttribute("aria-expanded", "true");

    const panel = page.locator(".account-panel");
    await expect(panel).toContainText(email);
    await expect(panel).toContainText("Access Level: Free");
    // The programs the free plan opens, by title: the Beginner level's.
    await expect(panel.getByRole("listitem").filter({ hasText: /^Beginner Program$/ })).toHaveCount(1);
    await expect(panel.getByRole("listitem").filter({ hasText: /^(Intermediate|Advanced) Program$/ })).toHaveCount(0);
    const menu = page.getByRole("menu");
    await expect(menu.getByRole("menuitem", { name: "Manage Subscription" })).toHaveAttribute("href", "/subscription");
    await expect(menu.getByRole("menuitem", { name: "Admin Panel" })).toHaveCount(0);
    // The first item has the focus, so the keyboard can go on from there.
    await expect(menu.getByRole("menuitem", { name: "Manage Subscription" })).toBeFocused();

    await page.keyboard.press("Escape");
    await expect(menu).toHaveCount(0);
    await expect(avatar).toHaveAttribute("aria-expanded", "false");
    await expect(avatar).toBeFocused();

    await avatar.click();
    await menu.getByRole("menuitem", { name: "Logout" }).click();
    await expect(page).toHaveURL("/");
    await expectSignedOutHeader(page);
    await page.reload();
    await expect(mainNav(page).getByRole("link", { name: "Login" })).toBeVisible();
    await expectSignedOutHeader(page);
  });

  test.describe("at 360 px", () => {
    test.use({ viewport: { width: 360, height: 740 } });

    test("the avatar is hidden and Logout is in the mobile menu", async ({ page, context, request }, testInfo) => {
      await signedInAccount(context, request, { email: uniqueEmail(testInfo), name: "Yaw Asante" });
      await page.goto("/about");
      const nav = mainNav(page);
      const toggle = page.getByRole("button", { name: "Open menu" });
      await expect(toggle).toBeVisible();
      await expect(page.getByRole("button", { name: "YA account menu" })).toBeHidden();
      await expect(nav.getByRole("button", { name: "Logout" })).toBeHidden();

      await toggle.click();
      await expect(nav.getByRole("link", { name: "Subscription" })).toBeVisible();
      await nav.getByRole("button", { name: "Logout" }).click();
      // Signing out goes home, which closes the menu; opened again, it offers Login and Sign Up.
      await expect(page).toHaveURL("/");
      await page.getByRole("button", { name: "Open menu" }).click();
      await expect(nav.getByRole("link", { name: "Login" })).toBeVisible();
      await expect(nav.getByRole("link", { name: "Sign Up" })).toBeVisible();
      await expect(nav.getByRole("button", { name: "Logout" })).toHaveCount(0);
    });
  });
});

test.describe("signed-in home page", () => {
  test("a redirect query takes a signed-in visitor there", async ({ page, context, request }, testInfo) => {
    await signedInAccount(context, request, { email: uniqueEmail(testInfo) });
    await page.goto("/?redirect=/about");
    await expect(page).toHaveURL("/about");
    await expect(page.getByRole("heading", { name: "About Trading Academy" })).toBeVisible();
  });

  test("a program card goes straight to the program", async ({ page, context, request }, testInfo) => {
    await signedInAccount(context, request, { email: uniqueEmail(testInfo) });
    await page.goto("/");
    await expectSignedInHeader(page);
    await page.getByRole("button", { name: "Choose Intermediate Program" }).click();
    await expect(page).toHaveURL("/program?program=intermediate");
  });
});

test.describe("screens for a person to look at", () => {
  for (const width of [360, 1280]) {
    test.describe(`${width} px`, () => {
      test.use({ viewport: { width, height: width === 360 ? 740 : 800 } });

      for (const path of ["/login", "/register", "/forgot-password"]) {
        test(`${path} at ${width} px`, async ({ page }) => {
          await page.goto(path);
          await expect(page.getByRole("main").getByRole("heading", { level: 1 })).toBeVisible();
          if (path === "/login") {
            await expect(page.getByRole("button", { name: "Sign in with Google" })).toBeEnabled();
          }
          if (width === 360) expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
          await page.screenshot({ path: `test-results/screens/${path.slice(1)}-${width}.png`, fullPage: true });
        });
      }

      test(`the account menu open at ${width} px`, async ({ page, context, request }, testInfo) => {
        await signedInAccount(context, request, { email: uniqueEmail(testInfo), name: "Esi Darko" });
        await page.goto("/");
        if (width === 360) {
          // Narrow screens have no avatar: the account's actions are in the menu.
          await page.getByRole("button", { name: "Open menu" }).click();
          await expect(mainNav(page).getByRole("button", { name: "Logout" })).toBeVisible();
        } else {
          await page.getByRole("button", { name: "ED account menu" }).click();
          await expect(page.getByRole("menu")).toBeVisible();
        }
        if (width === 360) expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
        await page.screenshot({ path: `test-results/screens/account-menu-${width}.png` });
      });
    });
  }
});
