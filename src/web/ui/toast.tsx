// The one toast system (sonner), with the durations of docs/product.md, "Timings and limits".
// Sonner loads after the first paint: no page needs a toast before the visitor has done something.
import { lazy, Suspense, useEffect, useRef } from "react";

export const TOAST_DURATION_MS = 5_000;
export const PAYMENT_ISSUE_TOAST_DURATION_MS = 10_000;

const loadSonner = () => import("sonner");

const LazyToaster = lazy(async () => ({ default: (await loadSonner()).Toaster }));

export function Toasts() {
  const region = useRef<HTMLDivElement>(null);
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
