// A stand-in for a Tawk.to embed script, for development and browser tests: it shows a chat
// bubble and fires Tawk_API.onLoad, as the real widget does once it is ready.
export const FAKE_CHAT_WIDGET_SCRIPT = `(() => {
  const bubble = document.createElement("div");
  bubble.id = "fake-chat-widget";
  bubble.setAttribute("role", "complementary");
  bubble.setAttribute("aria-label", "Support chat (development stand-in)");
  bubble.textContent = "Chat with support";
  bubble.style.cssText = "position:fixed;right:16px;bottom:16px;padding:12px 16px;border-radius:24px;background:#0b1f3a;color:#fff;font:600 14px system-ui;z-index:1000";
  document.body.appendChild(bubble);
  setTimeout(() => window.Tawk_API && window.Tawk_API.onLoad && window.Tawk_API.onLoad(), 50);
})();
`;
