// @vitest-environment jsdom
// Attack suite (issue 7): open redirects in the browser. After signing in (and on the home page
// of a signed-in visitor) the app goes to `?redirect=`; only a path on this site may be followed.
// The server side (callbackURL, redirectTo) is in attacks-auth.api.test.ts.
import { afterEach, describe, expect, it } from "vitest";
// The browser's own function is the one under attack; the suite lives with the other attacks.
// eslint-disable-next-line no-restricted-imports
import { PENDING_REDIRECT_KEY, safeRedirectPath, signInTarget, withRedirect } from "../../web/session/redirects.ts";

const FOREIGN = [
  "https://evil.com",
  "http://evil.com/login",
  "//evil.com",
  "///evil.com",
  "//evil.com/%2F..",
  "/\\evil.com",
  "\\\\evil.com",
  "\\/evil.com",
  "/\t/evil.com",
  "/\n/evil.com",
  "/\r\n/evil.com",
  "javascript:alert(document.cookie)",
  "JaVaScRiPt:alert(1)",
  " javascript:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  "http://localhost:3000.evil.com",
  "http://localhost:3000@evil.com",
  "evil.com",
  " /program",
  "",
];

/** Paths the URL parser turns into "//host": same origin as text, another host once a browser follows them. */
const DOT_SEGMENTS_TO_ANOTHER_HOST = ["/..//evil.com", "/.//evil.com", "/a/..//evil.com", "/%2e%2e//evil.com"];

/** Whether a browser at this origin, following `target`, stays on this site. */
function staysOnSite(target: string): boolean {
  return !target.startsWith("//") && !target.startsWith("/\\") && new URL(target, window.location.origin).origin === window.location.origin;
}

describe("safeRedirectPath: only paths on this site are followed", () => {
  afterEach(() => sessionStorage.clear());

  it.each(FOREIGN)("refuses %j", (value) => {
    expect(safeRedirectPath(value)).toBeNull();
    expect(withRedirect("/login", value)).toBe("/login");
    expect(signInTarget(value)).toBe("/");
  });

  it("refuses nothing at all", () => {
    expect(safeRedirectPath(null)).toBeNull();
  });

  it.each(["/", "/program?program=beginner", "/admin#users", "/subscription?a=1&b=2", "/%2F%2Fevil.com", "/reset-password?next=https://evil.com"])(
    "follows the same-site path %j",
    (value) => {
      const target = safeRedirectPath(value);
      expect(target).toBe(value);
      expect(staysOnSite(target ?? "")).toBe(true);
    },
  );

  it("does not follow a foreign target remembered from registration either", () => {
    sessionStorage.setItem(PENDING_REDIRECT_KEY, "//evil.com");
    expect(signInTarget(null)).toBe("/");
  });

  // The check runs on the text, then returns the parsed path: dot segments can turn it into
  // "//evil.com", which navigate() and <Navigate> would read as another host.
  it.each(DOT_SEGMENTS_TO_ANOTHER_HOST)("never hands back a path a browser reads as another host, from %j", (value) => {
    const target = safeRedirectPath(value);
    expect(target === null || staysOnSite(target)).toBe(true);
  });
});
