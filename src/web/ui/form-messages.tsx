// The live region under a form. It stays in the page while empty, so that screen readers
// announce what appears in it: the form's one error, or what a submission achieved.
import type { ReactNode } from "react";

type FormMessagesProps = {
  /** Shown as an alert (`.form-error`). */
  error?: string;
  /** Shown as a status (`.form-success`). */
  success?: string;
  /** Shown as a status (`.form-info`). */
  info?: string;
  className?: string;
  /** Anything else the region announces, after the messages. */
  children?: ReactNode;
};

export function FormMessages({ error, success, info, className, children }: FormMessagesProps) {
  return (
    <div aria-live="polite" className={className}>
      {error && (
        <p role="alert" className="form-error">
          {error}
        </p>
      )}
      {success && (
        <p role="status" className="form-success">
          {success}
        </p>
      )}
      {info && (
        <p role="status" className="form-info">
          {info}
        </p>
      )}
      {children}
    </div>
  );
}
