// Loads a Tawk.to-style chat widget: inject its script, wait for its ready signal, and give up
// after a while (blocked by an extension, private mode) so the page can offer a reload.

export const CHAT_READY_TIMEOUT_MS = 10_000;

type TawkApi = { onLoad?: () => void };
declare global {
  interface Window {
    Tawk_API?: TawkApi;
    Tawk_LoadStart?: Date;
  }
}

export type ChatWidgetHandle = { remove(): void };

export function loadChatWidget(
  url: string,
  callbacks: { onReady(): void; onFail(): void },
): ChatWidgetHandle {
  const bodyChildrenBefore = new Set(Array.from(document.body.children));
  let settled = false;
  const settle = (ok: boolean) => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    if (ok) callbacks.onReady();
    else callbacks.onFail();
  };

  window.Tawk_API = { onLoad: () => settle(true) };
  window.Tawk_LoadStart = new Date();
  const script = document.createElement("script");
  script.async = true;
  script.src = url;
  script.charset = "UTF-8";
  script.dataset.chatWidget = "true";
  script.onerror = () => settle(false);
  document.body.appendChild(script);
  const timer = setTimeout(() => settle(false), CHAT_READY_TIMEOUT_MS);

  return {
    remove() {
      settled = true;
      clearTimeout(timer);
      // Take away everything the widget added, so a reload starts from nothing.
      for (const child of Array.from(document.body.children)) {
        if (!bodyChildrenBefore.has(child)) child.remove();
      }
      delete window.Tawk_API;
      delete window.Tawk_LoadStart;
    },
  };
}
