// The one toast system (sonner), with the durations of SPEC section 9. Sonner loads after the
// first paint: no page needs a toast before the visitor has done something.
import { lazy, Suspense } from "react";

export const TOAST_DURATION_MS = 5_000;
export const PAYMENT_ISSUE_TOAST_DURATION_MS = 10_000;

const loadSonner = () => import("sonner");

const LazyToaster = lazy(async () => ({ default: (await loadSonner()).Toaster }));

export function Toasts() {
  return (
    <Suspense fallback={null}>
      {/* Below the sticky header (64 px high), so a toast never covers the avatar or the menu button. */}
      <LazyToaster
        position="top-right"
        offset={{ top: 80 }}
        mobileOffset={{ top: 72 }}
        duration={TOAST_DURATION_MS}
        closeButton
        richColors
      />
    </Suspense>
  );
}

type Kind = "success" | "error" | "info";

function show(kind: Kind, message: string, duration?: number) {
  void loadSonner().then(({ toast }) => toast[kind](message, duration ? { duration } : undefined));
}

export const notify = {
  success: (message: string) => show("success", message),
  error: (message: string) => show("error", message),
  info: (message: string) => show("info", message),
  paymentIssue: (message: string) => show("error", message, PAYMENT_ISSUE_TOAST_DURATION_MS),
};
