// Layout routes for the guard rules of SPEC section 2: wrap the pages that need a verified user
// (RequireUser) or an admin (RequireAdmin).
import { Navigate, Outlet, useLocation } from "react-router";
import { useMe } from "./session-api.ts";

function Guard({ adminOnly }: { adminOnly: boolean }) {
  const me = useMe();
  const { pathname, search } = useLocation();

  // A failed refresh keeps the last known session, so only a first load can end here.
  if (me.isPending) return <p className="container page-loading">Loading...</p>;
  if (me.isError && !me.data) {
    return (
      <div className="container section narrow">
        <p role="alert" className="form-error">
          {me.error.message}
        </p>
      </div>
    );
  }

  const user = me.data?.user;
  if (!user) return <Navigate to={`/login?redirect=${encodeURIComponent(pathname + search)}`} replace />;
  if (!user.emailVerified) return <Navigate to="/verify-email" replace />;
  if (adminOnly && !user.isAdmin) return <Navigate to="/" replace />;
  return <Outlet />;
}

export function RequireUser() {
  return <Guard adminOnly={false} />;
}

export function RequireAdmin() {
  return <Guard adminOnly />;
}
