// @vitest-environment jsdom
import { cleanup, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { MeUser } from "../../shared/contracts/session.ts";
import { renderRoutes, testQueryClient } from "../testing/render.tsx";
import { RequireAdmin, RequireUser } from "./guards.tsx";
import { meQuery } from "./session.ts";

const learner: MeUser = {
  id: "u1",
  email: "ama@example.com",
  name: "Ama",
  emailVerified: true,
  provider: "email",
  plan: "legacyFree",
  accessLevel: "Free",
  tracks: ["beginner"],
  isAdmin: false,
  subscriptionEnd: null,
};

/** The guards as the app mounts them, with the session already known (no request is made). */
function visit(path: string, user: MeUser | null) {
  return renderRoutes(
    [
      { path: "/", element: <p>home page</p> },
      { path: "/login", element: <p>login page</p> },
      { path: "/verify-email", element: <p>verify page</p> },
      { element: <RequireUser />, children: [{ path: "/program", element: <p>program page</p> }] },
      { element: <RequireAdmin />, children: [{ path: "/admin", element: <p>admin page</p> }] },
    ],
    path,
    testQueryClient([[meQuery.queryKey, { user }]], { neverStale: true }),
  );
}

describe("route guards (docs/product.md, Routes and guards)", () => {
  afterEach(cleanup);

  it("sends a visitor to /login, remembering where they came from", async () => {
    const router = visit("/program?program=beginner", null);
    expect(await screen.findByText("login page")).toBeTruthy();
    expect(router.state.location.search).toBe(`?redirect=${encodeURIComponent("/program?program=beginner")}`);
  });

  it("sends a signed-in user whose email is unverified to /verify-email", async () => {
    const router = visit("/program", { ...learner, emailVerified: false });
    expect(await screen.findByText("verify page")).toBeTruthy();
    expect(router.state.location.pathname).toBe("/verify-email");
  });

  it("lets a verified user in", async () => {
    visit("/program", learner);
    expect(await screen.findByText("program page")).toBeTruthy();
  });

  it("sends a non-admin on an admin route to /", async () => {
    const router = visit("/admin", learner);
    expect(await screen.findByText("home page")).toBeTruthy();
    expect(router.state.location.pathname).toBe("/");
  });

  it("lets an admin in", async () => {
    visit("/admin", { ...learner, plan: "admin", isAdmin: true, accessLevel: "Admin" });
    expect(await screen.findByText("admin page")).toBeTruthy();
  });
});
