// A labelled control whose value the server or a schema checks: its hint and, when refused, its
// message right under it, both read out with the control (aria-describedby), and the control
// marked invalid. Used where a form marks each field (the announcement composer, the calculators).
import { useId, type ReactNode } from "react";
import "./checked-field.css";

export type CheckedControlIds = { id: string; "aria-describedby": string | undefined; "aria-invalid": true | undefined };

export function CheckedField({ label, hint, error, children }: { label: string; hint?: string; error?: string; children: (ids: CheckedControlIds) => ReactNode }) {
  const id = useId();
  const described = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(" ");
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children({ id, "aria-describedby": described || undefined, "aria-invalid": error ? true : undefined })}
      {hint && (
        <small id={`${id}-hint`} className="muted">
          {hint}
        </small>
      )}
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}
