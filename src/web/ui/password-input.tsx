// A password field whose text can be shown: a toggle button next to the input, reached by Tab
// after it. The button keeps one name, "Show password", and says by aria-pressed whether the
// password is shown, as a toggle button does (its name would otherwise contradict its state).
import { useState, type ComponentProps } from "react";
import { Field, type ControlIds, type FieldProps, type OwnedByField } from "./text-field.tsx";
import "./password-input.css";

type InputProps = Omit<ComponentProps<"input">, OwnedByField | "type">;

/** The input and its toggle, for a label of the caller's own (`ids` ties them together). */
export function PasswordInput({ ids, ...input }: InputProps & { ids: ControlIds }) {
  const [shown, setShown] = useState(false);
  return (
    <div className="password-input">
      <input {...input} {...ids} type={shown ? "text" : "password"} spellCheck={false} autoCapitalize="off" />
      <button
        type="button"
        className="password-toggle"
        aria-pressed={shown}
        aria-controls={ids.id}
        title={shown ? "Hide password" : "Show password"}
        onClick={() => setShown((value) => !value)}
      >
        <EyeIcon crossed={shown} />
        <span className="visually-hidden">Show password</span>
      </button>
    </div>
  );
}

/** A labelled password input with its show/hide toggle; the other props (react-hook-form's `register` too) go to the input. */
export function PasswordField({ label, hint, ...input }: FieldProps & InputProps) {
  return <Field label={label} hint={hint} control={(ids) => <PasswordInput ids={ids} {...input} />} />;
}

function EyeIcon({ crossed }: { crossed: boolean }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" width="22" height="22" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
      <path d="M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12z" />
      <circle cx="12" cy="12" r="3" />
      {crossed && <path d="M4 4l16 16" />}
    </svg>
  );
}
