import type { ReactNode } from "react";
import { useLeaveWhenSignedIn } from "./sign-in-flow.ts";

/**
 * The login and sign-up forms, for a visitor who is not signed in; one who is goes where they
 * were headed instead (docs/product.md, "Accounts").
 */
export function SignedOutOnly({ children }: { children: ReactNode }) {
  const arrival = useLeaveWhenSignedIn();
  return arrival === "stay" ? children : <p className="container page-loading">Loading...</p>;
}
