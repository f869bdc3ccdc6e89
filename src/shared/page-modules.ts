// Which source file holds each page's code (src/web/router.tsx loads them on demand), by the name the
// build's manifest gives it. The server names a page's own built files in its Link header, so a
// phone fetches them beside the shared libraries instead of after them (docs/performance.md, "Data").
// src/web/router.test.tsx checks that the router imports exactly these.
import type { RouteId } from "./routes.ts";

/** Relative to src/web; null for the home page, which is part of the app's first script. */
export const PAGE_MODULES: Record<RouteId, string | null> = {
  home: null,
  about: "features/site/about-page.tsx",
  terms: "features/site/terms-page.tsx",
  privacy: "features/site/privacy-page.tsx",
  contact: "features/contact/contact-page.tsx",
  chat: "features/chat/chat-page.tsx",
  login: "features/accounts/login-page.tsx",
  register: "features/accounts/register-page.tsx",
  forgotPassword: "features/accounts/forgot-password-page.tsx",
  resetPassword: "features/accounts/reset-password-page.tsx",
  verifyEmail: "features/accounts/verify-email-page.tsx",
  waitlist: "features/billing/waitlist-page.tsx",
  waitlistSuccess: "features/billing/waitlist-success-page.tsx",
  programList: "features/learning/program-list-page.tsx",
  track: "features/learning/track-page.tsx",
  lesson: "features/learning/track-page.tsx",
  subscription: "features/billing/subscription-page.tsx",
  receipt: "features/billing/receipt-page.tsx",
  mentorship: "features/support/mentorship-page.tsx",
  account: "features/accounts/account-page.tsx",
  certificate: "features/learning/certificate-page.tsx",
  unsubscribe: "features/announcements/unsubscribe-page.tsx",
  admin: "features/admin/admin-page.tsx",
  adminUser: "features/admin/learner-page.tsx",
};
