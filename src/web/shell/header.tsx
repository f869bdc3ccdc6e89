import { useState } from "react";
import { Link, NavLink, useLocation } from "react-router";
import { AccountMenu } from "../features/accounts/account-menu.tsx";
import { useSignedInUser, useSignOut } from "../session/session.ts";

const NAV_LINKS = [
  { to: "/", label: "Home" },
  { to: "/about", label: "About" },
  { to: "/program", label: "Program" },
  { to: "/join-waitlist", label: "Waitlist" },
  { to: "/contact", label: "Contact" },
] as const;

export function Header() {
  const { user, isPending } = useSignedInUser();
  const signOut = useSignOut();
  const [menuOpen, setMenuOpen] = useState(false);
  const location = useLocation();
  const [menuPath, setMenuPath] = useState(location.pathname);
  // Close the mobile menu whenever the page changes.
  if (menuPath !== location.pathname) {
    setMenuPath(location.pathname);
    setMenuOpen(false);
  }

  return (
    <header className="site-header">
      <div className="container header-inner">
        {/* index.html draws this brand before the scripts run: keep the two alike. */}
        <Link to="/" className="brand" aria-label="Trading Academy home">
          <svg aria-hidden="true" viewBox="0 0 32 32" width="28" height="28">
            <rect width="32" height="32" rx="6" fill="currentColor" />
            <path d="M6 22l6-7 5 4 9-11" fill="none" stroke="#f2b632" strokeWidth="3" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
          <span>Trading Academy</span>
        </Link>
        <button
          type="button"
          className="menu-toggle"
          aria-expanded={menuOpen}
          aria-controls="site-nav"
          onClick={() => setMenuOpen((open) => !open)}
        >
          <span className="visually-hidden">{menuOpen ? "Close menu" : "Open menu"}</span>
          <svg aria-hidden="true" viewBox="0 0 24 24" width="24" height="24">
            <path d="M4 7h16M4 12h16M4 17h16" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
          </svg>
        </button>
        <nav id="site-nav" aria-label="Main" className={menuOpen ? "site-nav open" : "site-nav"}>
          <ul className="nav-links">
            {NAV_LINKS.map((link) => (
              <li key={link.to}>
                <NavLink to={link.to} end={link.to === "/"}>
                  {link.label}
                </NavLink>
              </li>
            ))}
            {user?.isAdmin && (
              <li>
                <NavLink to="/admin">Admin</NavLink>
              </li>
            )}
          </ul>
          {/* Until the session is known, show neither set of actions rather than the wrong one. */}
          {!isPending && (
            <ul className="nav-actions">
              {user ? (
                <>
                  {/* Wide screens reach it through the avatar menu. */}
                  <li className="nav-narrow-only">
                    <NavLink to="/account">Your Account</NavLink>
                  </li>
                  {/* Between 801 and 1023 px the row is short: these two are in the avatar menu only. */}
                  <li className="nav-roomy-only">
                    <NavLink to="/subscription">Subscription</NavLink>
                  </li>
                  <li className="nav-roomy-only">
                    <button
                      type="button"
                      className="button button-small button-ghost"
                      disabled={signOut.isPending}
                      onClick={() => signOut.mutate()}
                    >
                      {signOut.isPending ? "Logging out..." : "Logout"}
                    </button>
                  </li>
                </>
              ) : (
                <>
                  <li>
                    <NavLink to="/login">Login</NavLink>
                  </li>
                  <li>
                    <Link to="/register" className="button button-small">
                      Sign Up
                    </Link>
                  </li>
                </>
              )}
            </ul>
          )}
        </nav>
        {user && <AccountMenu user={user} signingOut={signOut.isPending} onSignOut={() => signOut.mutate()} />}
      </div>
    </header>
  );
}
