// Layout routes for the guard rules of docs/product.md, "Routes and guards": wrap the pages that
// need a verified user (RequireUser) or an admin (RequireAdmin).
import { Navigate, Outlet, useLocation } from "react-router";
import { useMe } from "./session.ts";

function Guard({ adminOnly }: { adminOnly: boolean }) {
  const me = useMe();
  const { pathname, search } = useLocation();
  const loading = <p className="container page-loading">Loading...</p>;
  // The placeholder stays while a redirect happens: without it the footer would rise into view
  // for a moment before the next page pushes it down again.
  const redirect = (to: string) => (
    <>
      <Navigate to={to} replace />
      {loading}
    </>
  );

  // A failed refresh keeps the last known session, so only a first load can end here.
  if (me.isPending) return loading;
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
  if (!user) return redirect(`/login?redirect=${encodeURIComponent(pathname + search)}`);
  if (!user.emailVerified) return redirect("/verify-email");
  if (adminOnly && !user.isAdmin) return redirect("/");
  return <Outlet />;
}

export function RequireUser() {
  return <Guard adminOnly={false} />;
}

export function RequireAdmin() {
  return <Guard adminOnly />;
}
