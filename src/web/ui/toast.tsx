// The one toast system (sonner), with the durations of docs/product.md, "Timings and limits".
// Sonner loads with the first toast, not with the page: most visits never show one, and a phone
// on paid data should not fetch it for nothing (docs/performance.md, "Data").
import { lazy, Suspense, useEffect, useRef, useSyncExternalStore } from "react";

export const TOAST_DURATION_MS = 5_000;
export const PAYMENT_ISSUE_TOAST_DURATION_MS = 10_000;

const loadSonner = () => import("sonner");

const LazyToaster = lazy(async () => ({ default: (await loadSonner()).Toaster }));

/** Whether a toast has been asked for yet: the toaster is mounted from then on. */
let wanted = false;
const wantedListeners = new Set<() => void>();
let toasterMounted: () => void = () => undefined;
/** Settles once the toaster listens: a toast sent before would be lost. */
const toasterReady = new Promise<void>((resolve) => {
  toasterMounted = resolve;
});

function wantToasts() {
  if (wanted) return;
  wanted = true;
  for (const listener of wantedListeners) listener();
}

function useToastsWanted(): boolean {
  return useSyncExternalStore(
    (changed) => {
      wantedListeners.add(changed);
      return () => wantedListeners.delete(changed);
    },
    () => wanted,
  );
}

/** Rendered after the toaster in the same boundary: its effect runs once the toaster's have. */
function ToasterReady() {
  useEffect(() => toasterMounted(), []);
  return null;
}

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
  const shown = useToastsWanted();
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
      {shown && (
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
          <ToasterReady />
        </Suspense>
      )}
    </div>
  );
}

type Kind = "success" | "error" | "info";

function show(kind: Kind, message: string, duration?: number) {
  wantToasts();
  void toasterReady.then(loadSonner).then(({ toast }) => toast[kind](message, duration ? { duration } : undefined));
}

export const notify = {
  success: (message: string) => show("success", message),
  error: (message: string) => show("error", message),
  info: (message: string) => show("info", message),
  paymentIssue: (message: string) => show("error", message, PAYMENT_ISSUE_TOAST_DURATION_MS),
};
