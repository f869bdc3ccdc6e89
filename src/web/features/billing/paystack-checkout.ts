// Paystack's inline checkout (v2): its script is loaded once, on the pages that sell, and the
// transaction the server created is resumed by its access code (INTEGRATIONS.md). The browser
// never chooses an amount.
import { useEffect, useState } from "react";

export type PaystackTransactionResult = {
  id?: number | string;
  reference?: string;
  message?: string;
  status?: string;
  trans?: string;
  trxref?: string;
};

export type CheckoutCallbacks = {
  onSuccess(transaction: PaystackTransactionResult): void;
  onCancel(): void;
  onLoad?(): void;
  onError(error: { message?: string }): void;
};

type PaystackPopInstance = {
  resumeTransaction(accessCode: string, callbacks: CheckoutCallbacks): void;
};

declare global {
  interface Window {
    /** Set by Paystack's inline script (or the simulator's, which speaks the same API). */
    PaystackPop?: new () => PaystackPopInstance;
  }
}

const loading = new Map<string, Promise<void>>();

/**
 * Loads the inline script at `url` once per page life; callers share the same promise. A failed
 * load is forgotten (and its tag removed), so a later attempt tries again.
 */
export function loadPaystackScript(url: string): Promise<void> {
  if (window.PaystackPop) return Promise.resolve();
  const pending = loading.get(url);
  if (pending) return pending;

  const promise = new Promise<void>((resolve, reject) => {
    const script = document.createElement("script");
    script.src = url;
    script.async = true;
    script.addEventListener("load", () => {
      if (window.PaystackPop) resolve();
      else reject(new Error("The payment script loaded without PaystackPop"));
    });
    script.addEventListener("error", () => {
      script.remove();
      reject(new Error(`The payment script could not be loaded from ${url}`));
    });
    document.head.appendChild(script);
  });
  loading.set(url, promise);
  promise.catch(() => loading.delete(url));
  return promise;
}

/** True once the script is loaded: the "payment script missing" block of SPEC section 5. */
export function isCheckoutReady(): boolean {
  return window.PaystackPop !== undefined;
}

/** Opens the checkout for a transaction the server initialized. */
export function openCheckout(accessCode: string, callbacks: CheckoutCallbacks): void {
  const PaystackPop = window.PaystackPop;
  if (!PaystackPop) throw new Error("The payment script is not loaded");
  new PaystackPop().resumeTransaction(accessCode, callbacks);
}

export type ScriptState = "none" | "loading" | "ready" | "failed";

/**
 * Starts loading the script as soon as a selling page knows its address, so that the checkout
 * opens at once on a click. `url` is null while prices load or when payments are disabled.
 */
export function usePaystackScript(url: string | null): ScriptState {
  const [settled, setSettled] = useState<{ url: string; ready: boolean } | null>(null);
  useEffect(() => {
    if (!url) return;
    let current = true;
    loadPaystackScript(url).then(
      () => current && setSettled({ url, ready: true }),
      () => current && setSettled({ url, ready: false }),
    );
    return () => {
      current = false;
    };
  }, [url]);
  if (!url) return "none";
  if (settled?.url !== url) return isCheckoutReady() ? "ready" : "loading";
  return settled.ready ? "ready" : "failed";
}
