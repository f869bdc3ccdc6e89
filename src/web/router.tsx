// The browser's table of contents: which component shows each page of the route table
// (src/shared/routes.ts) and which guard stands in front of it. Pages other than the home page
// load on demand (React.lazy), so the first visit downloads only what it shows; the layout's
// Suspense shows "Loading..." the first time a page's code is fetched.
//
// Declarative routes (useRoutes, what <Routes> runs) rather than a data router: no page uses
// loaders or actions, and the declarative router is about 16 KB (gzipped) lighter on every first
// visit.
import { lazy, type ComponentType, type ReactElement } from "react";
import { matchPath, useRoutes, type RouteObject } from "react-router";
import { ROUTE_ACCESS, ROUTES, routesFor, type RouteAccess, type RouteId } from "../shared/routes.ts";
import { RequireAdmin, RequireUser } from "./session/guards.tsx";
import { HomePage } from "./features/site/home-page.tsx";
import { Layout } from "./shell/layout.tsx";
import { NotFoundPage } from "./features/site/not-found-page.tsx";

/** What shows a page, and for a page loaded on demand, how to fetch its code early (`load`). */
type Page = { element: ReactElement; load?: () => Promise<unknown> };

function lazyPage<M>(load: () => Promise<M>, pick: (module: M) => ComponentType): Page {
  const Component = lazy(async () => ({ default: pick(await load()) }));
  return { element: <Component />, load };
}

/** One page for every route of the table, and none for a route it does not have (the type checks both). */
const PAGES: Record<RouteId, Page> = {
  home: { element: <HomePage /> },
  about: lazyPage(() => import("./features/site/about-page.tsx"), (m) => m.AboutPage),
  terms: lazyPage(() => import("./features/site/terms-page.tsx"), (m) => m.TermsPage),
  privacy: lazyPage(() => import("./features/site/privacy-page.tsx"), (m) => m.PrivacyPage),
  contact: lazyPage(() => import("./features/contact/contact-page.tsx"), (m) => m.ContactPage),
  chat: lazyPage(() => import("./features/chat/chat-page.tsx"), (m) => m.ChatPage),
  login: lazyPage(() => import("./features/accounts/login-page.tsx"), (m) => m.LoginPage),
  register: lazyPage(() => import("./features/accounts/register-page.tsx"), (m) => m.RegisterPage),
  forgotPassword: lazyPage(() => import("./features/accounts/forgot-password-page.tsx"), (m) => m.ForgotPasswordPage),
  resetPassword: lazyPage(() => import("./features/accounts/reset-password-page.tsx"), (m) => m.ResetPasswordPage),
  verifyEmail: lazyPage(() => import("./features/accounts/verify-email-page.tsx"), (m) => m.VerifyEmailPage),
  waitlist: lazyPage(() => import("./features/billing/waitlist-page.tsx"), (m) => m.WaitlistPage),
  waitlistSuccess: lazyPage(() => import("./features/billing/waitlist-success-page.tsx"), (m) => m.WaitlistSuccessPage),
  programList: lazyPage(() => import("./features/learning/program-list-page.tsx"), (m) => m.ProgramListPage),
  track: lazyPage(() => import("./features/learning/track-page.tsx"), (m) => m.TrackPage),
  lesson: lazyPage(() => import("./features/learning/track-page.tsx"), (m) => m.LessonPage),
  subscription: lazyPage(() => import("./features/billing/subscription-page.tsx"), (m) => m.SubscriptionPage),
  receipt: lazyPage(() => import("./features/billing/receipt-page.tsx"), (m) => m.ReceiptPage),
  mentorship: lazyPage(() => import("./features/support/mentorship-page.tsx"), (m) => m.MentorshipPage),
  account: lazyPage(() => import("./features/accounts/account-page.tsx"), (m) => m.AccountPage),
  certificate: lazyPage(() => import("./features/learning/certificate-page.tsx"), (m) => m.CertificatePage),
  unsubscribe: lazyPage(() => import("./features/announcements/unsubscribe-page.tsx"), (m) => m.UnsubscribePage),
  admin: lazyPage(() => import("./features/admin/admin-page.tsx"), (m) => m.AdminPage),
  adminUser: lazyPage(() => import("./features/admin/learner-page.tsx"), (m) => m.LearnerPage),
};

/**
 * The layout route each access puts around its pages (docs/product.md, "Routes and guards"):
 * public pages sit in the layout itself. One guard element per access, so moving between two
 * guarded pages keeps the guard mounted.
 */
const GUARDS: Record<RouteAccess, ReactElement | null> = {
  public: null,
  user: <RequireUser />,
  admin: <RequireAdmin />,
};

function pagesWith(access: RouteAccess): RouteObject[] {
  const pages = routesFor(access).map(({ id, path }) => ({ path, element: PAGES[id].element }));
  const guard = GUARDS[access];
  return guard ? [{ element: guard, children: pages }] : pages;
}

/** Every page inside the layout, behind the guard its access asks for; any other path is not found. */
export const APP_ROUTES: RouteObject[] = [
  { element: <Layout />, children: [...ROUTE_ACCESS.flatMap(pagesWith), { path: "*", element: <NotFoundPage /> }] },
];

export function AppRoutes() {
  return useRoutes(APP_ROUTES);
}

/**
 * Starts fetching the code of the page at `pathname`, so that it downloads while the session is
 * read rather than after (the guards wait for the session before they render a page).
 */
export function preloadPage(pathname: string): void {
  const route = ROUTES.find(({ path }) => matchPath(path, pathname));
  // A failed download is the page's to report when it renders (React.lazy asks again).
  if (route) PAGES[route.id].load?.().catch(() => undefined);
}
