// Installing the app from /account (docs/product.md, "Account"; decision 020): Chromium offers the
// install once the page meets its criteria, with a `beforeinstallprompt` event that can ask again
// later. The event is kept from the start, as it comes only once a page, and the browser's own
// offer (the mini-infobar on Android) is left as it is.
import { useSyncExternalStore } from "react";

/** Chromium's event (not yet in TypeScript's DOM types). */
type InstallPromptEvent = Event & {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: "accepted" | "dismissed" }>;
};

export type InstallState = "unavailable" | "available" | "installed";

let offer: InstallPromptEvent | null = null;
let installed = false;
const listeners = new Set<() => void>();
const changed = () => listeners.forEach((listener) => listener());

export function keepInstallOffer(): void {
  window.addEventListener("beforeinstallprompt", (event) => {
    offer = event as InstallPromptEvent;
    changed();
  });
  window.addEventListener("appinstalled", () => {
    offer = null;
    installed = true;
    changed();
  });
}

function state(): InstallState {
  if (installed) return "installed";
  return offer ? "available" : "unavailable";
}

export function useInstallState(): InstallState {
  return useSyncExternalStore((listener) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  }, state);
}

/** Shows the browser's install dialog; whether the learner accepted. The offer is used up either way. */
export async function install(): Promise<boolean> {
  const shown = offer;
  if (!shown) return false;
  offer = null;
  await shown.prompt();
  const { outcome } = await shown.userChoice;
  if (outcome === "accepted") installed = true;
  changed();
  return outcome === "accepted";
}
