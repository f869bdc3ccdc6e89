// The browser's table of contents: every page and where it lives. Pages other than the home
// page load on demand, so the first visit downloads only what it shows.
import { createBrowserRouter } from "react-router";
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
      { path: "*", element: <NotFoundPage /> },
    ],
  },
]);
