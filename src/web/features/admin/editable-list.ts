// A list edited through one draft form above it, as the module and quiz question editors are:
// the form adds a row or updates the one being edited, and each row can be edited, removed or
// moved. Everything goes back whole with the owner's save, so rows are told apart by a key of
// their own, not by anything the server gave them.
import { useRef, useState } from "react";
import { flushSync } from "react-dom";
import { useForm, type DefaultValues, type FieldValues, type Path } from "react-hook-form";

/** A row of the list: its fields and the key that tells it apart from the other rows. */
export type Row<Fields> = Fields & { key: string };

let lastKey = 0;

/** A row for `fields`, under a key no other row has. */
export function keyedRow<Fields extends object>(fields: Fields): Row<Fields> {
  lastKey += 1;
  return { ...fields, key: `row-${lastKey}` };
}

/** The row buttons that can take the focus after a change to the list. */
export type RowButton = "edit" | "up" | "down";

type EditableListOptions<Fields, Draft extends FieldValues> = {
  items: readonly Row<Fields>[];
  onChange: (items: Row<Fields>[]) => void;
  emptyDraft: DefaultValues<Draft>;
  /** The draft field that takes the focus when the form starts afresh. */
  firstField: Path<Draft>;
  toDraft: (item: Row<Fields>) => DefaultValues<Draft>;
};

// A reset keeps hold of the inputs, so that setFocus can reach them at once.
const KEEP_FIELDS = { keepFieldsRef: true };

export function useEditableList<Fields extends object, Draft extends FieldValues>({
  items,
  onChange,
  emptyDraft,
  firstField,
  toDraft,
}: EditableListOptions<Fields, Draft>) {
  const [editingKey, setEditingKey] = useState<string | null>(null);
  const draft = useForm<Draft>({ defaultValues: emptyDraft });
  // The row buttons, so that focus can follow a row that moves or land next to one removed.
  const rowButtons = useRef(new Map<string, HTMLButtonElement>());

  function rowButtonRef(key: string, button: RowButton) {
    return (element: HTMLButtonElement | null) => {
      if (element) rowButtons.current.set(`${key}:${button}`, element);
      else rowButtons.current.delete(`${key}:${button}`);
    };
  }

  function focusRowButton(key: string, button: RowButton) {
    rowButtons.current.get(`${key}:${button}`)?.focus();
  }

  function changeNow(next: Row<Fields>[]) {
    // Rendered at once, so that the buttons to focus next are in the page.
    flushSync(() => onChange(next));
  }

  function stopEditing() {
    setEditingKey(null);
    draft.reset(emptyDraft, KEEP_FIELDS);
  }

  /** Adds the draft's fields as a new row, or puts them in the row being edited. */
  function save(fields: Fields) {
    onChange(
      editingKey === null
        ? [...items, keyedRow(fields)]
        : items.map((item) => (item.key === editingKey ? { ...item, ...fields } : item)),
    );
    stopEditing();
    draft.setFocus(firstField);
  }

  function edit(item: Row<Fields>) {
    setEditingKey(item.key);
    draft.reset(toDraft(item), KEEP_FIELDS);
    draft.setFocus(firstField);
  }

  function cancelEdit() {
    stopEditing();
    draft.setFocus(firstField);
  }

  function remove(index: number) {
    const item = items[index];
    if (!item) return;
    if (item.key === editingKey) stopEditing();
    changeNow(items.filter((other) => other.key !== item.key));
    const neighbour = items[index + 1] ?? items[index - 1];
    if (neighbour) focusRowButton(neighbour.key, "edit");
    else draft.setFocus(firstField);
  }

  function move(index: number, step: -1 | 1) {
    const item = items[index];
    const target = index + step;
    if (!item || target < 0 || target >= items.length) return;
    const next = items.filter((other) => other.key !== item.key);
    next.splice(target, 0, item);
    changeNow(next);
    // At the top or the bottom the pressed button is disabled: the other direction takes the focus.
    const direction = step === -1 ? (target === 0 ? "down" : "up") : target === items.length - 1 ? "up" : "down";
    focusRowButton(item.key, direction);
  }

  return { draft, editingKey, rowButtonRef, save, edit, cancelEdit, remove, move };
}
