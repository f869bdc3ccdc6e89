// Where a visitor goes once signed in, and what is remembered on the way there.
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useState } from "react";
import { useNavigate, useSearchParams } from "react-router";
import * as z from "zod/mini";
import { AUTH_MESSAGES } from "../../../shared/contracts/accounts.ts";
import { forgetSignedInReads } from "../../lib/service-worker.ts";
import { notify } from "../../ui/toast.tsx";
import { forgetPendingTargets, signInTarget, withRedirect } from "../../session/redirects.ts";
import { meQuery, useSignedInUser } from "../../session/session.ts";

/** After a successful email sign-in: say so, load the new session, go where the visitor meant to go. */
export function useFinishSignIn() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  return async () => {
    const target = signInTarget(searchParams.get("redirect"));
    forgetPendingTargets();
    notify.success(AUTH_MESSAGES.loginSuccess);
    // Nothing another account left for offline use may show to this one (docs/product.md, "Offline").
    void forgetSignedInReads();
    // A guarded target must see the new session, not the cached "logged out".
    await queryClient.invalidateQueries({ queryKey: meQuery.queryKey, refetchType: "all" });
    await navigate(target, { replace: true });
  };
}

const loginNoticeSchema = z.object({ tone: z.enum(["success", "error", "info"]), message: z.string() });
/** A message another page hands the login page, e.g. the registration result. */
export type LoginNotice = z.infer<typeof loginNoticeSchema>;
const loginStateSchema = z.object({ notice: loginNoticeSchema });

/** Router state comes from history and may be anything: read it through the schema. */
export function readLoginNotice(state: unknown): LoginNotice | null {
  const parsed = loginStateSchema.safeParse(state);
  return parsed.success ? parsed.data.notice : null;
}

/** Goes to /login with a notice to show there, keeping the same-site `?redirect=` of this page. */
export function useGoToLogin() {
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  return useCallback(
    (notice: LoginNotice, options: { replace?: boolean } = {}) =>
      navigate(withRedirect("/login", searchParams.get("redirect")), { replace: options.replace, state: { notice } }),
    [navigate, searchParams],
  );
}

/** Where a signed-in visitor to the login or sign-up page goes: never back to one of them. */
function signedInTarget(redirect: string | null): string {
  const target = signInTarget(redirect);
  return /^\/(login|register)(?:[/?#]|$)/.test(target) ? "/" : target;
}

/**
 * /login and /register for a visitor who arrives signed in (docs/product.md, "Accounts"): they go
 * where they were headed, the `?redirect=` or else where a sign-in would take them. Decided once,
 * on arrival: a sign-in made on the page goes its own way (useFinishSignIn). "wait" while the
 * session loads, "leave" while on the way out, "stay" for everyone else.
 */
export function useLeaveWhenSignedIn(): "wait" | "leave" | "stay" {
  const { user, isPending } = useSignedInUser();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const [arrival, setArrival] = useState<"leave" | "stay">();
  if (arrival === undefined && !isPending) setArrival(user ? "leave" : "stay");
  useEffect(() => {
    if (arrival !== "leave") return;
    const target = signedInTarget(searchParams.get("redirect"));
    forgetPendingTargets();
    void navigate(target, { replace: true });
  }, [arrival, navigate, searchParams]);
  return arrival ?? "wait";
}
