// The data saver on /account (docs/performance.md, "Data"; docs/product.md, "Account"): a setting
// of this device, kept in the browser, on at first when the browser asks to save data.
import { useId } from "react";
import { setDataSaver, useDataSaver } from "../../lib/data-saver.ts";
import "../../ui/checkbox-field.css";
import "./data-saver-section.css";

export function DataSaverSection() {
  const on = useDataSaver();
  const headingId = useId();
  const hintId = useId();
  return (
    <section className="card stack account-card" aria-labelledby={headingId}>
      <h2 id={headingId}>Data saver</h2>
      <label className="checkbox-field">
        <input type="checkbox" checked={on} aria-describedby={hintId} onChange={(event) => setDataSaver(event.target.checked)} />
        Save data on this device
      </label>
      <p id={hintId} className="data-saver-hint">
        Lessons show the smallest video pictures, and nothing is downloaded ahead of you. Videos still load only when you press
        play. This setting is kept on this device only.
      </p>
    </section>
  );
}
