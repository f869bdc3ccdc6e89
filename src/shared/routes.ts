// The app's pages, who may open them and which code shows them (docs/product.md, "Routes and
// guards"). This is the one list: the browser's router builds its routes, guards and pages from
// it, the server answers 404 for any page not in it and names each page's built files in its Link
// header, and the browser suites walk it, so a page added here is picked up by all of them.

export const ROUTE_ACCESS = ["public", "user", "admin"] as const;

/**
 * Who may open a page: anyone ("public"), a signed-in user whose email is verified ("user"), or
 * such a user on the admin plan ("admin"). Login and registration are "public": a signed-in
 * visitor may still open them.
 */
export type RouteAccess = (typeof ROUTE_ACCESS)[number];

export const SITE_NAME = "Trading Academy";

/** What the site is, in one sentence: the home page's description (index.html has it too). */
export const SITE_DESCRIPTION =
  "Trading Academy: learn to trade in three 4-week programs of videos and quizzes, from your first chart to professional strategies.";

/**
 * The code that shows a page: the file (relative to src/web) and the component it exports. A page
 * comes with the app's first script (`withTheApp`: the home page, which a first visit opens) or is
 * loaded on demand, a file of its own that the server names in the page's Link header so a phone
 * fetches it beside the shared libraries instead of after them (docs/performance.md, "Data").
 */
type PageCode = { readonly module: `features/${string}-page.tsx`; readonly component: string; readonly withTheApp?: true };

/**
 * A page of the table. `title` names the page in the browser's tab, history and bookmarks
 * (`documentTitle` adds the site's name); a public page also has a `description`, the meta
 * description search engines and link previews show. A page may name itself more precisely once
 * its data has loaded (`usePageTitle` in the browser: the program's name, the lesson's title).
 */
type RouteSpec = { readonly id: string; readonly path: `/${string}`; readonly title: string; readonly page: PageCode } & (
  | { readonly access: "public"; readonly description: string }
  | { readonly access: "user" | "admin" }
);

export const ROUTES = [
  {
    id: "home",
    path: "/",
    access: "public",
    title: "Learn to trade",
    description: SITE_DESCRIPTION,
    page: { module: "features/site/home-page.tsx", component: "HomePage", withTheApp: true },
  },
  {
    id: "about",
    path: "/about",
    access: "public",
    title: "About",
    description: "Who teaches at Trading Academy, how the programs are built, and what you will be able to do after each one.",
    page: { module: "features/site/about-page.tsx", component: "AboutPage" },
  },
  {
    id: "contact",
    path: "/contact",
    access: "public",
    title: "Contact",
    description: "Send Trading Academy a message, or find our phone number and email address.",
    page: { module: "features/contact/contact-page.tsx", component: "ContactPage" },
  },
  {
    id: "terms",
    path: "/terms",
    access: "public",
    title: "Terms of Service",
    description: "The terms for using Trading Academy and its programs.",
    page: { module: "features/site/terms-page.tsx", component: "TermsPage" },
  },
  {
    id: "privacy",
    path: "/privacy",
    access: "public",
    title: "Privacy Policy",
    description: "What Trading Academy keeps about you, why, and for how long.",
    page: { module: "features/site/privacy-page.tsx", component: "PrivacyPage" },
  },
  {
    id: "chat",
    path: "/chat",
    access: "public",
    title: "Support Chat",
    description: "Chat with the Trading Academy team.",
    page: { module: "features/chat/chat-page.tsx", component: "ChatPage" },
  },
  {
    id: "tools",
    path: "/tools",
    access: "public",
    title: "Trading calculators",
    description: "Free trading calculators: position size for a fixed risk, pip value, risk to reward and margin, in dollars and cedis.",
    page: { module: "features/tools/tools-page.tsx", component: "ToolsPage" },
  },
  {
    id: "login",
    path: "/login",
    access: "public",
    title: "Login",
    description: "Sign in to Trading Academy with your email, Google or MQL5 to continue your program.",
    page: { module: "features/accounts/login-page.tsx", component: "LoginPage" },
  },
  {
    id: "register",
    path: "/register",
    access: "public",
    title: "Create your account",
    description: "Create your Trading Academy account and start the free Beginner program.",
    page: { module: "features/accounts/register-page.tsx", component: "RegisterPage" },
  },
  {
    id: "forgotPassword",
    path: "/forgot-password",
    access: "public",
    title: "Forgot Password",
    description: "Get a link to reset your Trading Academy password.",
    page: { module: "features/accounts/forgot-password-page.tsx", component: "ForgotPasswordPage" },
  },
  {
    id: "resetPassword",
    path: "/reset-password",
    access: "public",
    title: "Reset Password",
    description: "Choose a new password for your Trading Academy account.",
    page: { module: "features/accounts/reset-password-page.tsx", component: "ResetPasswordPage" },
  },
  {
    id: "verifyEmail",
    path: "/verify-email",
    access: "public",
    title: "Email Verification",
    description: "Verify the email address of your Trading Academy account.",
    page: { module: "features/accounts/verify-email-page.tsx", component: "VerifyEmailPage" },
  },
  {
    id: "programList",
    path: "/program",
    access: "user",
    title: "Programs",
    page: { module: "features/learning/program-list-page.tsx", component: "ProgramListPage" },
  },
  // The spec's address of a track opens its course player at the first unwatched lesson, at the
  // lesson's own address (docs/product.md, "Lesson player").
  {
    id: "track",
    path: "/program/:track",
    access: "user",
    title: "Program",
    page: { module: "features/learning/track-page.tsx", component: "TrackPage" },
  },
  {
    id: "lesson",
    path: "/program/:track/:lesson",
    access: "user",
    title: "Lesson",
    page: { module: "features/learning/track-page.tsx", component: "LessonPage" },
  },
  {
    id: "subscription",
    path: "/subscription",
    access: "user",
    title: "Subscription Plans",
    page: { module: "features/billing/subscription-page.tsx", component: "SubscriptionPage" },
  },
  // The receipt of one of the learner's own paid payments (the server answers only the owner).
  {
    id: "receipt",
    path: "/subscription/receipts/:reference",
    access: "user",
    title: "Receipt",
    page: { module: "features/billing/receipt-page.tsx", component: "ReceiptPage" },
  },
  // The person's own name, email, password, devices, and deleting the account (docs/accounts.md).
  {
    id: "account",
    path: "/account",
    access: "user",
    title: "Your Account",
    page: { module: "features/accounts/account-page.tsx", component: "AccountPage" },
  },
  // Advanced learners ask for a 1-on-1 session; others see what the plan includes (docs/product.md).
  {
    id: "mentorship",
    path: "/mentorship",
    access: "user",
    title: "1-on-1 Mentorship",
    page: { module: "features/support/mentorship-page.tsx", component: "MentorshipPage" },
  },
  {
    id: "journal",
    path: "/journal",
    access: "user",
    title: "Trading journal",
    page: { module: "features/journal/journal-page.tsx", component: "JournalPage" },
  },
  // Public to view; paying asks for a login on the page itself (docs/product.md).
  {
    id: "waitlist",
    path: "/join-waitlist",
    access: "public",
    title: "Join the Waitlist",
    description: "Reserve your place in the next Intermediate or Advanced cohort of Trading Academy.",
    page: { module: "features/billing/waitlist-page.tsx", component: "WaitlistPage" },
  },
  {
    id: "waitlistSuccess",
    path: "/join-waitlist/success",
    access: "public",
    title: "You're on the Waitlist",
    description: "Your place on the Trading Academy waitlist is reserved.",
    page: { module: "features/billing/waitlist-success-page.tsx", component: "WaitlistSuccessPage" },
  },
  // Anyone with the link checks a certificate; the server answers 404 for a number never issued
  // (docs/product.md, "Completion and certificates").
  {
    id: "certificate",
    path: "/certificates/:id",
    access: "public",
    title: "Certificate",
    description: "Check that a Trading Academy certificate is genuine: who holds it, for which program, and when it was issued.",
    page: { module: "features/learning/certificate-page.tsx", component: "CertificatePage" },
  },
  // The link at the foot of every announcement; no sign-in, the link's token says who (docs/admin.md, "Announcements").
  {
    id: "unsubscribe",
    path: "/unsubscribe",
    access: "public",
    title: "Unsubscribe",
    description: "Stop receiving Trading Academy announcements. Receipts and account emails still reach you.",
    page: { module: "features/announcements/unsubscribe-page.tsx", component: "UnsubscribePage" },
  },
  {
    id: "admin",
    path: "/admin",
    access: "admin",
    title: "Admin Dashboard",
    page: { module: "features/admin/admin-page.tsx", component: "AdminPage" },
  },
  // One learner's page in the console (docs/admin.md, "Learner page"); titled by their name once loaded.
  {
    id: "adminUser",
    path: "/admin/users/:id",
    access: "admin",
    title: "Learner",
    page: { module: "features/admin/users/learner-page.tsx", component: "LearnerPage" },
  },
] as const satisfies readonly RouteSpec[];

export type AppRoute = (typeof ROUTES)[number];
export type RouteId = AppRoute["id"];

/** The ids of the routes whose path has a parameter, such as `/program/:track`. */
export type ParamRouteId = Extract<AppRoute, { path: `${string}:${string}` }>["id"];

/** The title of a page not in the table. */
export const NOT_FOUND_TITLE = "Page not found";

/** What the browser's tab shows for a page titled `title`: "Programs · Trading Academy". */
export function documentTitle(title: string): string {
  return `${title} · ${SITE_NAME}`;
}

/** The route of the table that shows `pathname`, if any. */
export function routeAt(pathname: string): AppRoute | undefined {
  return ROUTES.find((_route, index) => patterns[index]?.test(pathname));
}

/** The routes with the given access, in table order. */
export function routesFor(access: RouteAccess): AppRoute[] {
  return ROUTES.filter((route) => route.access === access);
}

const patterns = ROUTES.map(({ path }) => new RegExp(`^${path.replace(/:[A-Za-z]+/g, "[^/]+")}/?$`));
