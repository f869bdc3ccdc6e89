// The browser's table of contents: every page and where it lives. Pages other than the home
// page load on demand (React.lazy), so the first visit downloads only what it shows; the layout's
// Suspense shows "Loading..." the first time a page's code is fetched.
//
// Declarative routes (<Routes>) rather than a data router: no page uses loaders or actions, and
// the declarative router is about 16 KB (gzipped) lighter on every first visit.
import { lazy, type ComponentType, type ReactElement } from "react";
import { matchPath, Route, Routes } from "react-router";
import { RequireAdmin, RequireUser } from "./features/accounts/guards.tsx";
import { HomePage } from "./features/site/home-page.tsx";
import { Layout } from "./features/site/layout.tsx";
import { NotFoundPage } from "./features/site/not-found-page.tsx";

/** A page whose code is fetched the first time it is shown, or earlier with `load`. */
type LazyPage = { path: string; element: ReactElement; load: () => Promise<unknown> };

function page<M>(path: string, load: () => Promise<M>, pick: (module: M) => ComponentType): LazyPage {
  const Page = lazy(async () => ({ default: pick(await load()) }));
  return { path, element: <Page />, load };
}

const PUBLIC_PAGES = [
  page("/about", () => import("./features/site/about-page.tsx"), (m) => m.AboutPage),
  page("/terms", () => import("./features/site/terms-page.tsx"), (m) => m.TermsPage),
  page("/privacy", () => import("./features/site/privacy-page.tsx"), (m) => m.PrivacyPage),
  page("/contact", () => import("./features/contact/contact-page.tsx"), (m) => m.ContactPage),
  page("/chat", () => import("./features/chat/chat-page.tsx"), (m) => m.ChatPage),
  page("/login", () => import("./features/accounts/login-page.tsx"), (m) => m.LoginPage),
  page("/register", () => import("./features/accounts/register-page.tsx"), (m) => m.RegisterPage),
  page("/forgot-password", () => import("./features/accounts/forgot-password-page.tsx"), (m) => m.ForgotPasswordPage),
  page("/reset-password", () => import("./features/accounts/reset-password-page.tsx"), (m) => m.ResetPasswordPage),
  page("/verify-email", () => import("./features/accounts/verify-email-page.tsx"), (m) => m.VerifyEmailPage),
  page("/join-waitlist", () => import("./features/billing/waitlist-page.tsx"), (m) => m.WaitlistPage),
  page("/join-waitlist/success", () => import("./features/billing/waitlist-success-page.tsx"), (m) => m.WaitlistSuccessPage),
];

/** Pages for a verified user. */
const USER_PAGES = [
  page("/program", () => import("./features/catalog/program-list-page.tsx"), (m) => m.ProgramListPage),
  page("/program/:track", () => import("./features/learning/track-page.tsx"), (m) => m.TrackPage),
  page("/subscription", () => import("./features/billing/subscription-page.tsx"), (m) => m.SubscriptionPage),
];

const ADMIN_PAGES = [page("/admin", () => import("./features/admin/admin-page.tsx"), (m) => m.AdminPage)];

const routeTo = ({ path, element }: LazyPage) => <Route key={path} path={path} element={element} />;

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<Layout />}>
        <Route path="/" element={<HomePage />} />
        {PUBLIC_PAGES.map(routeTo)}
        <Route element={<RequireUser />}>{USER_PAGES.map(routeTo)}</Route>
        <Route element={<RequireAdmin />}>{ADMIN_PAGES.map(routeTo)}</Route>
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}

/**
 * Starts fetching the code of the page at `pathname`, so that it downloads while the session is
 * read rather than after (the guards wait for the session before they render a page).
 */
export function preloadPage(pathname: string): void {
  const lazyPage = [...PUBLIC_PAGES, ...USER_PAGES, ...ADMIN_PAGES].find(({ path }) => matchPath(path, pathname));
  // A failed download is the page's to report when it renders (React.lazy asks again).
  lazyPage?.load().catch(() => undefined);
}
