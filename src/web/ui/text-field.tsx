// A labelled form control. The ids that tie the label and the hint to the control are generated,
// so no page keeps them in step by hand; people and browser tests find the field by its label.
import { useId, type ComponentProps, type ReactNode } from "react";

export type FieldProps = {
  label: string;
  /** A short help text under the control, read out with it (aria-describedby). */
  hint?: string;
};

export type ControlIds = { id: string; "aria-describedby": string | undefined };

/** A label and an optional hint around a control, tied to it by generated ids. */
export function Field({ label, hint, control }: FieldProps & { control: (ids: ControlIds) => ReactNode }) {
  const id = useId();
  const hintId = `${id}-hint`;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {control({ id, "aria-describedby": hint ? hintId : undefined })}
      {hint && (
        <small id={hintId} className="muted">
          {hint}
        </small>
      )}
    </div>
  );
}

export type OwnedByField = keyof ControlIds;

/** An `<input>` with its label; the other props (react-hook-form's `register` too) go to the input. */
export function TextField({ label, hint, ...input }: FieldProps & Omit<ComponentProps<"input">, OwnedByField>) {
  return <Field label={label} hint={hint} control={(ids) => <input {...input} {...ids} />} />;
}

/** A `<textarea>` with its label, as `TextField`. */
export function TextAreaField({ label, hint, ...textarea }: FieldProps & Omit<ComponentProps<"textarea">, OwnedByField>) {
  return <Field label={label} hint={hint} control={(ids) => <textarea {...textarea} {...ids} />} />;
}

/** A `<select>` with its label, as `TextField`. */
export function SelectField({ label, hint, ...select }: FieldProps & Omit<ComponentProps<"select">, OwnedByField>) {
  return <Field label={label} hint={hint} control={(ids) => <select {...select} {...ids} />} />;
}
