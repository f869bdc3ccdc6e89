// A learner who opens Subscription, Program or Account has their pending payments verified with
// Paystack by the server there and then (docs/subscriptions.md, "Asking Paystack"): paying and
// coming back shows the plan paid for, even when the webhook is late and the tab was closed.
// A seam: the program and account pages use it too (eslint.config.js).
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { BILLING_ENDPOINTS } from "../../../shared/contracts/billing.ts";
import { call } from "../../lib/api.ts";
import { useSignedInUser } from "../../session/session.ts";

/** The server asks Paystack about a payment at most once a minute: no need to ask it more often. */
const ASK_EVERY_MS = 60_000;

export function useVerifyPendingPayments(): void {
  const { user } = useSignedInUser();
  const queryClient = useQueryClient();
  useQuery({
    queryKey: ["billing", "pending-verified", user?.id ?? null],
    queryFn: async () => {
      const answer = await call(BILLING_ENDPOINTS.verifyPending, {});
      // A payment settled while the learner was away changes their plan, and with it what every
      // page shows: everything is read afresh.
      if (answer.settled.length > 0) await queryClient.invalidateQueries({ predicate: (query) => query.queryKey[1] !== "pending-verified" });
      return answer;
    },
    enabled: user !== null,
    staleTime: ASK_EVERY_MS,
    retry: false,
    // Offline, the page shows without it (docs/product.md, "Offline").
    meta: { offline: "optional" },
  });
}

/** The same, as a component of its own: a page that rarely needs it loads it lazily (track-page.tsx). */
export function VerifyPendingPayments(): null {
  useVerifyPendingPayments();
  return null;
}
