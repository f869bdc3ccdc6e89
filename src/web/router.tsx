// The browser's table of contents: every page and where it lives. Pages other than the home
// page load on demand (React.lazy), so the first visit downloads only what it shows; the layout's
// Suspense shows "Loading..." the first time a page's code is fetched.
//
// Declarative routes (<Routes>) rather than a data router: no page uses loaders or actions, and
// the declarative router is about 16 KB (gzipped) lighter on every first visit.
import { lazy, type ComponentType } from "react";
import { Route, Routes } from "react-router";
import { RequireAdmin, RequireUser } from "./features/accounts/guards.tsx";
import { HomePage } from "./features/site/home-page.tsx";
import { Layout } from "./features/site/layout.tsx";
import { NotFoundPage } from "./features/site/not-found-page.tsx";

/** A page component fetched the first time it is shown. */
function page<M>(load: () => Promise<M>, pick: (module: M) => ComponentType) {
  const Page = lazy(async () => ({ default: pick(await load()) }));
  return <Page />;
}

const about = page(() => import("./features/site/about-page.tsx"), (m) => m.AboutPage);
const terms = page(() => import("./features/site/terms-page.tsx"), (m) => m.TermsPage);
const privacy = page(() => import("./features/site/privacy-page.tsx"), (m) => m.PrivacyPage);
const contact = page(() => import("./features/contact/contact-page.tsx"), (m) => m.ContactPage);
const chat = page(() => import("./features/chat/chat-page.tsx"), (m) => m.ChatPage);
const login = page(() => import("./features/accounts/login-page.tsx"), (m) => m.LoginPage);
const register = page(() => import("./features/accounts/register-page.tsx"), (m) => m.RegisterPage);
const forgotPassword = page(() => import("./features/accounts/forgot-password-page.tsx"), (m) => m.ForgotPasswordPage);
const resetPassword = page(() => import("./features/accounts/reset-password-page.tsx"), (m) => m.ResetPasswordPage);
const verifyEmail = page(() => import("./features/accounts/verify-email-page.tsx"), (m) => m.VerifyEmailPage);
const waitlist = page(() => import("./features/billing/waitlist-page.tsx"), (m) => m.WaitlistPage);
const waitlistSuccess = page(() => import("./features/billing/waitlist-success-page.tsx"), (m) => m.WaitlistSuccessPage);
const programList = page(() => import("./features/catalog/program-list-page.tsx"), (m) => m.ProgramListPage);
const track = page(() => import("./features/learning/track-page.tsx"), (m) => m.TrackPage);
const subscription = page(() => import("./features/billing/subscription-page.tsx"), (m) => m.SubscriptionPage);
const admin = page(() => import("./features/admin/admin-page.tsx"), (m) => m.AdminPage);

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<Layout />}>
        <Route path="/" element={<HomePage />} />
        <Route path="/about" element={about} />
        <Route path="/terms" element={terms} />
        <Route path="/privacy" element={privacy} />
        <Route path="/contact" element={contact} />
        <Route path="/chat" element={chat} />
        <Route path="/login" element={login} />
        <Route path="/register" element={register} />
        <Route path="/forgot-password" element={forgotPassword} />
        <Route path="/reset-password" element={resetPassword} />
        <Route path="/verify-email" element={verifyEmail} />
        <Route path="/join-waitlist" element={waitlist} />
        <Route path="/join-waitlist/success" element={waitlistSuccess} />
        <Route element={<RequireUser />}>
          <Route path="/program" element={programList} />
          <Route path="/program/:track" element={track} />
          <Route path="/subscription" element={subscription} />
        </Route>
        <Route element={<RequireAdmin />}>
          <Route path="/admin" element={admin} />
        </Route>
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
