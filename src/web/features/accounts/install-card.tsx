// "Install the app" on /account (docs/product.md, "Account"): shown only where the browser offers
// the install (Chrome on Android, and desktop Chromium), and once installed, says so.
import { useId, useState } from "react";
import { install, useInstallState } from "../../lib/install-prompt.ts";
import "./data-saver-section.css";

export function InstallCard() {
  const state = useInstallState();
  const [declined, setDeclined] = useState(false);
  const headingId = useId();
  if (state === "unavailable" && !declined) return null;
  return (
    <section className="card stack account-card" aria-labelledby={headingId}>
      <h2 id={headingId}>Install the app</h2>
      {state === "installed" ? (
        <p role="status" className="data-saver-hint">
          Trading Academy is installed on this device. Open it from your home screen.
        </p>
      ) : (
        <>
          <p className="data-saver-hint">
            Add Trading Academy to your home screen: it opens like an app, and the lessons you have read open without a
            connection.
          </p>
          {declined ? (
            <p role="status" className="data-saver-hint">
              Not installed. Your browser can install it later from its menu (Add to Home screen).
            </p>
          ) : (
            <p>
              <button type="button" className="button" onClick={() => void install().then((accepted) => setDeclined(!accepted))}>
                Install
              </button>
            </p>
          )}
        </>
      )}
    </section>
  );
}
