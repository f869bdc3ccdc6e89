// Where a visitor goes once signed in, and what is remembered on the way there.

/** The program a logged-out visitor chose on the home page, kept through login or registration. */
export const PENDING_PROGRAM_KEY = "pendingProgram";

export function rememberPendingProgram(programId: string) {
  sessionStorage.setItem(PENDING_PROGRAM_KEY, programId);
}

/**
 * The page a visitor who registered was on the way to: the mailed verification link cannot carry
 * it, so it is kept until they log in.
 */
export const PENDING_REDIRECT_KEY = "pendingRedirect";

export function rememberPendingRedirect(redirect: string | null) {
  const target = safeRedirectPath(redirect);
  if (target) sessionStorage.setItem(PENDING_REDIRECT_KEY, target);
}

/** Once a sign-in has used (or carried along) what was remembered. */
export function forgetPendingTargets() {
  sessionStorage.removeItem(PENDING_PROGRAM_KEY);
  sessionStorage.removeItem(PENDING_REDIRECT_KEY);
}

export function programPath(programId: string): string {
  return `/program?${new URLSearchParams({ program: programId })}`;
}

/**
 * A redirect target is followed only when it stays on this site: "/program?x" yes, but never
 * "//evil.example" or "/\evil.example", which browsers read as another host.
 */
export function safeRedirectPath(value: string | null): string | null {
  if (!value?.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return null;
  // Browsers drop tabs and newlines from URLs, so "/\t/evil.example" must be checked once resolved.
  const url = new URL(value, window.location.origin);
  if (url.origin !== window.location.origin) return null;
  const path = `${url.pathname}${url.search}${url.hash}`;
  // "/..//evil.example" resolves to the path "//evil.example": on this site, but read again by
  // the router it would name another host.
  return path.startsWith("//") || path.startsWith("/\\") ? null : path;
}

/** The path with the same-site `?redirect=` kept, so that Sign Up and Log in links pass it along. */
export function withRedirect(path: string, redirect: string | null): string {
  const target = safeRedirectPath(redirect);
  return target ? `${path}?${new URLSearchParams({ redirect: target })}` : path;
}

/** The page the visitor asked for before logging in (or registering), else the program they chose, else home. */
export function signInTarget(redirect: string | null): string {
  const pendingProgram = sessionStorage.getItem(PENDING_PROGRAM_KEY);
  return (
    safeRedirectPath(redirect) ??
    safeRedirectPath(sessionStorage.getItem(PENDING_REDIRECT_KEY)) ??
    (pendingProgram ? programPath(pendingProgram) : "/")
  );
}
