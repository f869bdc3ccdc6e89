// @vitest-environment jsdom
import { act, cleanup, render } from "@testing-library/react";
import { createMemoryRouter, Outlet, RouterProvider } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import { ROUTES } from "../../shared/routes.ts";
import { usePageTitle, useRouteHead } from "./page-title.ts";

function RouteHead() {
  useRouteHead();
  return null;
}

function TrackPage({ name }: { name: string | undefined }) {
  usePageTitle(name);
  return <p>track</p>;
}

/** The layout's order: the route's head first, then the page. */
function open(path: string, trackName?: string) {
  const router = createMemoryRouter(
    [
      {
        element: (
          <>
            <RouteHead />
            <Outlet />
          </>
        ),
        children: [
          { path: "/about", element: <p>about</p> },
          { path: "/program", element: <p>programs</p> },
          { path: "/program/:track", element: <TrackPage name={trackName} /> },
          { path: "*", element: <p>not found</p> },
        ],
      },
    ],
    { initialEntries: [path] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

const description = () => document.head.querySelector<HTMLMetaElement>('meta[name="description"]')?.content;

describe("page titles (docs/product.md, Page titles)", () => {
  afterEach(cleanup);

  it("sets the route's title and, on a public page, its description", () => {
    open("/about");
    expect(document.title).toBe("About · Trading Academy");
    const about = ROUTES.find(({ id }) => id === "about");
    expect(description()).toBe(about && "description" in about ? about.description : "missing");
  });

  it("keeps the title in step with the address", async () => {
    const router = open("/about");
    await act(() => router.navigate("/program"));
    expect(document.title).toBe("Programs · Trading Academy");
    await act(() => router.navigate("/no-such-page"));
    expect(document.title).toBe("Page not found · Trading Academy");
  });

  it("lets a page name itself once its data has loaded, and keeps the route's title until then", () => {
    open("/program/beginner");
    expect(document.title).toBe("Program · Trading Academy");
    cleanup();
    open("/program/beginner", "Beginner Program");
    expect(document.title).toBe("Beginner Program · Trading Academy");
  });
});
