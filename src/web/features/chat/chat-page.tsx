import { useEffect, useState } from "react";
import { Link } from "react-router";
import { useSiteConfig } from "../../lib/site-config.ts";
import { loadChatWidget } from "./chat-widget.ts";

type ChatState = "loading" | "ready" | "failed";

function ChatStatus({ state }: { state: ChatState }) {
  if (state === "loading") return <p>Loading the chat...</p>;
  if (state === "ready") {
    return <p className="form-success">The chat is ready: open it with the chat button at the bottom right of the page.</p>;
  }
  return (
    <p role="alert" className="form-error">
      The chat could not load. Check the tips below, then press Reload Chat Widget.
    </p>
  );
}

function ChatWidget({ url }: { url: string }) {
  const [state, setState] = useState<ChatState>("loading");
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const widget = loadChatWidget(url, {
      onReady: () => setState("ready"),
      onFail: () => setState("failed"),
    });
    return () => widget.remove();
  }, [url, attempt]);

  return (
    <>
      <div aria-live="polite">
        <ChatStatus state={state} />
      </div>
      <button
        type="button"
        className="button"
        onClick={() => {
          setState("loading");
          setAttempt((n) => n + 1);
        }}
      >
        Reload Chat Widget
      </button>
    </>
  );
}

export function ChatPage() {
  const site = useSiteConfig();
  return (
    <section className="container section narrow">
      <h1>Support Chat</h1>
      <p className="section-lead">Talk to our support team live during opening hours.</p>
      <div className="card stack">
        {site.isPending && <p>Loading the chat...</p>}
        {site.isError && (
          <p role="alert" className="form-error">
            The chat settings could not be loaded. Please refresh the page.
          </p>
        )}
        {site.data &&
          (site.data.chatWidgetUrl ? (
            <ChatWidget url={site.data.chatWidgetUrl} />
          ) : (
            <p>
              Live chat is not available at the moment. Email us at{" "}
              <a href={`mailto:${site.data.supportEmail}`}>{site.data.supportEmail}</a> or use the{" "}
              <Link to="/contact">contact form</Link>.
            </p>
          ))}
      </div>
      <h2>If the chat does not appear</h2>
      <ul className="tips">
        <li>Allow pop-ups for this site.</li>
        <li>Turn off ad blockers or privacy extensions that may block the chat.</li>
        <li>Leave private (incognito) mode: the chat may not work there.</li>
      </ul>
    </section>
  );
}
