// The buttons every editable list has (see editable-list.ts): under its draft form, and on each row.
import type { FormEventHandler, MouseEventHandler, Ref } from "react";
import type { FieldValues, UseFormReturn } from "react-hook-form";

/** What an editable list's draft form is given by the editor that holds the list. */
export type DraftFormProps<Draft extends FieldValues> = {
  draft: UseFormReturn<Draft>;
  editing: boolean;
  onSubmit: FormEventHandler<HTMLFormElement>;
  onCancel: () => void;
};

type DraftButtonsProps = {
  /** What a row holds, as the button says it: "Module", "Question". */
  noun: string;
  editing: boolean;
  /** Set while the draft lacks what it needs: the submit button says it waits. */
  waiting?: boolean;
  onCancel: () => void;
};

/** Add (or Update, while a row is edited) and Cancel Edit. */
export function DraftButtons({ noun, editing, waiting = false, onCancel }: DraftButtonsProps) {
  return (
    <div className="editor-buttons">
      <button
        type="submit"
        className="button button-secondary"
        // aria-disabled rather than disabled: the button stays reachable and says why it waits.
        aria-disabled={waiting || undefined}
      >
        {editing ? `Update ${noun}` : `Add ${noun}`}
      </button>
      {editing && (
        <button type="button" className="button button-secondary" onClick={onCancel}>
          Cancel Edit
        </button>
      )}
    </div>
  );
}

/** The mark after the text of the row being edited. */
export function EditingMark() {
  return <span className="admin-module-editing"> (editing)</span>;
}

type RowEditButtonsProps = {
  /** The row as the buttons' labels name it: "Edit <name>", "Delete <name>". */
  name: string;
  editRef?: Ref<HTMLButtonElement>;
  onEdit: MouseEventHandler<HTMLButtonElement>;
  onDelete: MouseEventHandler<HTMLButtonElement>;
};

/** A row's Edit and Delete buttons (the programs table's too). */
export function RowEditButtons({ name, editRef, onEdit, onDelete }: RowEditButtonsProps) {
  return (
    <>
      <button
        type="button"
        ref={editRef}
        className="button button-secondary button-small"
        onClick={onEdit}
        aria-label={`Edit ${name}`}
      >
        Edit
      </button>
      <button
        type="button"
        className="button button-secondary-danger button-small"
        onClick={onDelete}
        aria-label={`Delete ${name}`}
      >
        Delete
      </button>
    </>
  );
}
