// The browser's table of contents: every page and where it lives. Pages other than the home
// page load on demand, so the first visit downloads only what it shows.
import { createBrowserRouter } from "react-router";
import { RequireAdmin, RequireUser } from "./features/accounts/guards.tsx";
import { HomePage } from "./features/site/home-page.tsx";
import { Layout } from "./features/site/layout.tsx";
import { NotFoundPage } from "./features/site/not-found-page.tsx";

export const router = createBrowserRouter([
  {
    element: <Layout />,
    children: [
      { path: "/", element: <HomePage /> },
      {
        path: "/about",
        lazy: async () => ({ Component: (await import("./features/site/about-page.tsx")).AboutPage }),
      },
      {
        path: "/terms",
        lazy: async () => ({ Component: (await import("./features/site/terms-page.tsx")).TermsPage }),
      },
      {
        path: "/privacy",
        lazy: async () => ({ Component: (await import("./features/site/privacy-page.tsx")).PrivacyPage }),
      },
      {
        path: "/contact",
        lazy: async () => ({ Component: (await import("./features/contact/contact-page.tsx")).ContactPage }),
      },
      {
        path: "/chat",
        lazy: async () => ({ Component: (await import("./features/chat/chat-page.tsx")).ChatPage }),
      },
      {
        path: "/login",
        lazy: async () => ({ Component: (await import("./features/accounts/login-page.tsx")).LoginPage }),
      },
      {
        path: "/register",
        lazy: async () => ({ Component: (await import("./features/accounts/register-page.tsx")).RegisterPage }),
      },
      {
        path: "/forgot-password",
        lazy: async () => ({
          Component: (await import("./features/accounts/forgot-password-page.tsx")).ForgotPasswordPage,
        }),
      },
      {
        path: "/reset-password",
        lazy: async () => ({
          Component: (await import("./features/accounts/reset-password-page.tsx")).ResetPasswordPage,
        }),
      },
      {
        path: "/verify-email",
        lazy: async () => ({
          Component: (await import("./features/accounts/verify-email-page.tsx")).VerifyEmailPage,
        }),
      },
      {
        path: "/join-waitlist",
        lazy: async () => ({ Component: (await import("./features/billing/waitlist-page.tsx")).WaitlistPage }),
      },
      {
        path: "/join-waitlist/success",
        lazy: async () => ({
          Component: (await import("./features/billing/waitlist-success-page.tsx")).WaitlistSuccessPage,
        }),
      },
      {
        element: <RequireUser />,
        children: [
          {
            path: "/program",
            lazy: async () => ({
              Component: (await import("./features/catalog/program-list-page.tsx")).ProgramListPage,
            }),
          },
          {
            path: "/program/:track",
            lazy: async () => ({ Component: (await import("./features/learning/track-page.tsx")).TrackPage }),
          },
          {
            path: "/subscription",
            lazy: async () => ({
              Component: (await import("./features/billing/subscription-page.tsx")).SubscriptionPage,
            }),
          },
        ],
      },
      {
        element: <RequireAdmin />,
        children: [
          {
            path: "/admin",
            lazy: async () => ({ Component: (await import("./features/admin/admin-page.tsx")).AdminPage }),
          },
        ],
      },
      { path: "*", element: <NotFoundPage /> },
    ],
  },
]);
