// The one toast system (sonner), with the durations of docs/product.md, "Timings and limits".
// Sonner loads after the first paint: no page needs a toast before the visitor has done something.
import { lazy, Suspense, useEffect, useRef, useSyncExternalStore } from "react";

export const TOAST_DURATION_MS = 5_000;
export const PAYMENT_ISSUE_TOAST_DURATION_MS = 10_000;

const loadSonner = () => import("sonner");

const LazyToaster = lazy(async () => ({ default: (await loadSonner()).Toaster }));

/** Sonner's own phone layout starts below 600 px: toasts full width, at the position's edge. */
const PHONE = "(max-width: 600px)";

function useIsPhone(): boolean {
  return useSyncExternalStore(
    (changed) => {
      const query = window.matchMedia(PHONE);
      query.addEventListener("change", changed);
      return () => query.removeEventListener("change", changed);
    },
    () => window.matchMedia(PHONE).matches,
  );
}

export function Toasts() {
  const region = useRef<HTMLDivElement>(null);
  const phone = useIsPhone();
  // Sonner sends the focus back to where it came from whenever it leaves the toasts. Toasts come
  // last in the page, so Tab from them lands again on the footer's last link, without a focus
  // ring, and the keyboard cannot leave the page while a toast is up. Kept from sonner's
  // handlers, these two events leave the Tab order to the browser.
  useEffect(() => {
    const element = region.current;
    if (!element) return;
    const keepFromSonner = (event: FocusEvent) => event.stopPropagation();
    element.addEventListener("focusin", keepFromSonner);
    element.addEventListener("focusout", keepFromSonner);
    return () => {
      element.removeEventListener("focusin", keepFromSonner);
      element.removeEventListener("focusout", keepFromSonner);
    };
  }, []);
  return (
    <div ref={region}>
      <Suspense fallback={null}>
        {/* On a wide screen, top right below the sticky header (64 px high), so a toast never
            covers the avatar or the menu button, and beside the page's heading rather than on it.
            On a phone a toast is as wide as the screen: at the bottom, it never covers the heading. */}
        <LazyToaster
          position={phone ? "bottom-center" : "top-right"}
          offset={{ top: 80 }}
          mobileOffset={{ bottom: 16 }}
          duration={TOAST_DURATION_MS}
          closeButton
          richColors
        />
      </Suspense>
    </div>
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
