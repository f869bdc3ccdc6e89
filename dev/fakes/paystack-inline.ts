// The Paystack simulator's browser side: the inline script (Paystack's v2 `PaystackPop` API)
// and the script of its checkout page. Both are separate files, never inline <script>, because
// the app's Content-Security-Policy forbids inline scripts. Plain ES2020, no template literals,
// so the text can live in a template string here.

/** Tells the parent page's inline script what happened in the checkout iframe. */
export const CHECKOUT_MESSAGE_SOURCE = "paystack-simulator";
export const CHECKOUT_TITLE = "Paystack checkout (test mode)";

/**
 * Served as `<prefix>/inline.js`. `new PaystackPop().resumeTransaction(accessCode, callbacks)`
 * opens the simulator's checkout page in an overlay, as Paystack's popup does. It finds the
 * checkout next to itself, so the script works under whatever prefix the simulator is mounted.
 * The checkout must share the page's origin: it posts its messages to its own origin only.
 */
export const PAYSTACK_INLINE_SCRIPT = `(() => {
  "use strict";
  const SOURCE = ${JSON.stringify(CHECKOUT_MESSAGE_SOURCE)};
  const TITLE = ${JSON.stringify(CHECKOUT_TITLE)};
  const script = document.currentScript;
  const base = script && script.src
    ? script.src.replace(/\\/inline\\.js(?:[?#].*)?$/, "")
    : location.origin + "/dev/fakes/paystack";

  let current = null;

  function call(callback, value) {
    if (typeof callback === "function") callback(value);
  }

  function closeCheckout() {
    if (!current) return;
    const closing = current;
    current = null;
    window.removeEventListener("message", closing.onMessage);
    closing.overlay.remove();
    document.documentElement.style.overflow = closing.overflow;
    if (closing.returnFocus && closing.returnFocus.isConnected) closing.returnFocus.focus();
  }

  function openCheckout(checkoutUrl, accessCode, transaction, callbacks) {
    closeCheckout();
    const overlay = document.createElement("div");
    overlay.setAttribute("data-paystack-simulator", "");
    overlay.setAttribute("role", "dialog");
    overlay.setAttribute("aria-modal", "true");
    overlay.setAttribute("aria-label", TITLE);
    overlay.style.cssText = "position:fixed;inset:0;z-index:2147483647;display:flex;align-items:center;" +
      "justify-content:center;background:rgba(11,31,58,.65)";
    const frame = document.createElement("iframe");
    frame.title = TITLE;
    frame.src = checkoutUrl;
    frame.style.cssText = "width:100%;max-width:30rem;height:100%;max-height:42rem;border:0;" +
      "border-radius:12px;background:#fff";
    overlay.appendChild(frame);

    let loaded = false;
    frame.addEventListener("load", () => {
      if (loaded) return;
      loaded = true;
      frame.focus();
      call(callbacks.onLoad, { id: transaction.id, customer: { email: transaction.email }, accessCode: accessCode });
    });

    const onMessage = (event) => {
      if (event.origin !== location.origin || event.source !== frame.contentWindow) return;
      const data = event.data;
      if (!data || typeof data !== "object" || data.source !== SOURCE || data.reference !== transaction.reference) return;
      if (data.event === "success") {
        closeCheckout();
        call(callbacks.onSuccess, {
          id: transaction.id,
          reference: transaction.reference,
          message: "Approved",
          status: "success",
          trans: String(transaction.id),
          trxref: transaction.reference,
        });
      } else if (data.event === "close") {
        closeCheckout();
        call(callbacks.onCancel);
      }
      // "failed": the checkout page shows the failure; the person may retry or close it.
    };
    window.addEventListener("message", onMessage);

    current = {
      overlay: overlay,
      onMessage: onMessage,
      overflow: document.documentElement.style.overflow,
      returnFocus: document.activeElement,
    };
    document.documentElement.style.overflow = "hidden";
    document.body.appendChild(overlay);
  }

  class PaystackPop {
    resumeTransaction(accessCode, callbacks) {
      const handlers = callbacks || {};
      const checkoutUrl = base + "/checkout/" + encodeURIComponent(String(accessCode));
      fetch(checkoutUrl + "/transaction", { headers: { accept: "application/json" }, cache: "no-store" })
        .then((response) => {
          if (response.ok) return response.json();
          throw new Error(response.status === 404 ? "Transaction not found" : "The checkout could not be opened");
        })
        .then(
          (transaction) => openCheckout(checkoutUrl, String(accessCode), transaction, handlers),
          (error) => call(handlers.onError, { message: error instanceof Error ? error.message : String(error) }),
        );
    }
  }

  window.PaystackPop = PaystackPop;
})();
`;

/**
 * Served as `<prefix>/checkout.js` for the checkout page: Pay, Fail and Close. The page carries
 * its transaction in data attributes, so this script holds no state of its own.
 */
export const PAYSTACK_CHECKOUT_SCRIPT = `(() => {
  "use strict";
  const SOURCE = ${JSON.stringify(CHECKOUT_MESSAGE_SOURCE)};
  const root = document.querySelector("[data-checkout]");
  if (!root) return;
  const reference = root.getAttribute("data-reference");
  const payUrl = root.getAttribute("data-pay-url");
  const failUrl = root.getAttribute("data-fail-url");
  const callbackUrl = root.getAttribute("data-callback-url");
  const statusBox = document.getElementById("checkout-status");
  const alertBox = document.getElementById("checkout-alert");
  const buttons = Array.prototype.slice.call(document.querySelectorAll("button[data-action]"));
  // Opened by authorization_url rather than by the inline script: no parent to tell.
  const embedded = window.parent !== window;
  let busy = false;
  let paid = false;

  function notify(event) {
    if (embedded) window.parent.postMessage({ source: SOURCE, event: event, reference: reference }, location.origin);
  }

  function setBusy(value, status) {
    busy = value;
    buttons.forEach((button) => {
      button.disabled = value || (paid && button.getAttribute("data-action") !== "close");
    });
    statusBox.textContent = status;
  }

  function returnToMerchant() {
    if (embedded || !callbackUrl) return;
    const url = new URL(callbackUrl);
    url.searchParams.set("trxref", reference);
    url.searchParams.set("reference", reference);
    location.assign(url.href);
  }

  function selectedChannel() {
    const checked = document.querySelector("input[name=channel]:checked");
    return checked ? checked.value : "card";
  }

  function send(url) {
    return fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ channel: selectedChannel() }),
    }).then((response) =>
      response.json().then((body) => {
        if (!response.ok || !body.status) throw new Error(body.message || "The payment could not be processed.");
        return body;
      }),
    );
  }

  function refuse(error) {
    setBusy(false, "");
    alertBox.textContent = error instanceof Error ? error.message : String(error);
  }

  function pay() {
    alertBox.textContent = "";
    setBusy(true, "Processing payment\\u2026");
    send(payUrl).then(() => {
      paid = true;
      setBusy(false, "Payment successful.");
      notify("success");
      returnToMerchant();
    }, refuse);
  }

  function fail() {
    alertBox.textContent = "";
    setBusy(true, "Processing payment\\u2026");
    send(failUrl).then(() => {
      setBusy(false, "");
      alertBox.textContent = "Payment failed. Declined.";
      notify("failed");
    }, refuse);
  }

  function close() {
    notify("close");
    if (!embedded && !callbackUrl) statusBox.textContent = "Checkout closed. You can close this page.";
    returnToMerchant();
  }

  const actions = { pay: pay, fail: fail, close: close };
  buttons.forEach((button) => {
    button.addEventListener("click", () => {
      const action = actions[button.getAttribute("data-action")];
      if (action && !busy) action();
    });
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && !busy) close();
  });
})();
`;
