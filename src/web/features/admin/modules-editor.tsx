// The module section of the program form. Modules are kept here only until Save Program sends
// the whole list; an existing module keeps its id so that learners' progress on it survives.
import { useId } from "react";
import { useWatch } from "react-hook-form";
import { ADMIN_MESSAGES, type AdminModule } from "../../../shared/contracts/admin.ts";
import { youtubeVideoId } from "../../../shared/youtube.ts";
import { FormMessages } from "../../ui/form-messages.tsx";
import { TextAreaField, TextField } from "../../ui/text-field.tsx";
import { keyedRow, useEditableList, type Row, type RowButton } from "./editable-list.ts";
import { DraftButtons, EditingMark, RowEditButtons, type DraftFormProps } from "./editable-list-buttons.tsx";

/** A module in the form: a new one has no id until Save Program gives it one. */
export type ModuleItem = Row<{ id?: string; title: string; description: string; youtubeId: string }>;

export function moduleItem(module: AdminModule): ModuleItem {
  return keyedRow(module);
}

export function youtubeWatchUrl(youtubeId: string) {
  return `https://www.youtube.com/watch?v=${encodeURIComponent(youtubeId)}`;
}

type ModuleDraft = { title: string; description: string; youtubeId: string };
const EMPTY_DRAFT: ModuleDraft = { title: "", description: "", youtubeId: "" };

function moduleDraft(module: ModuleItem): ModuleDraft {
  return { title: module.title, description: module.description, youtubeId: module.youtubeId };
}

type ModulesEditorProps = {
  modules: ModuleItem[];
  onChange: (modules: ModuleItem[]) => void;
};

export function ModulesEditor({ modules, onChange }: ModulesEditorProps) {
  const headingId = useId();
  const list = useEditableList({
    items: modules,
    onChange,
    emptyDraft: EMPTY_DRAFT,
    firstField: "title",
    toDraft: moduleDraft,
  });
  const { draft, editingKey } = list;

  const submit = draft.handleSubmit((values) => {
    if (values.title.trim() === "" || values.youtubeId.trim() === "") {
      draft.setError("root", { message: ADMIN_MESSAGES.moduleRequired });
      return;
    }
    const videoId = youtubeVideoId(values.youtubeId);
    if (videoId === null) {
      draft.setError("youtubeId", { message: ADMIN_MESSAGES.youtubeIdInvalid });
      draft.setFocus("youtubeId");
      return;
    }
    list.save({ title: values.title.trim(), description: values.description.trim(), youtubeId: videoId });
  });

  return (
    <section className="modules-editor" aria-labelledby={headingId}>
      <h3 id={headingId}>Modules</h3>
      <p className="muted modules-note">Modules are saved with the program: press Save Program to keep changes.</p>

      <ModuleForm
        draft={draft}
        editing={editingKey !== null}
        onSubmit={(event) => void submit(event)}
        onCancel={list.cancelEdit}
      />

      {modules.length === 0 ? (
        <p className="muted admin-modules-empty">No modules yet.</p>
      ) : (
        <ol className="admin-modules" aria-label="Modules in this program">
          {modules.map((module, index) => (
            <ModuleRow
              key={module.key}
              module={module}
              position={index + 1}
              last={index === modules.length - 1}
              editing={module.key === editingKey}
              buttonRef={(button) => list.rowButtonRef(module.key, button)}
              onMove={(step) => list.move(index, step)}
              onEdit={() => list.edit(module)}
              onDelete={() => list.remove(index)}
            />
          ))}
        </ol>
      )}
    </section>
  );
}

/** Add module, or Edit module while a row is being edited. */
function ModuleForm({ draft, editing, onSubmit, onCancel }: DraftFormProps<ModuleDraft>) {
  const [title, youtubeId] = useWatch({ control: draft.control, name: ["title", "youtubeId"] });
  const ready = title.trim() !== "" && youtubeId.trim() !== "";
  const invalidVideo = draft.formState.errors.youtubeId !== undefined;
  const youtubeField = draft.register("youtubeId", { onChange: () => draft.clearErrors("youtubeId") });

  return (
    <form className="form" noValidate onSubmit={onSubmit} aria-label={editing ? "Edit module" : "Add module"}>
      <TextField
        label="Module Title"
        hint={'Learners see it numbered by its place in the list, e.g. "Section 1: Welcome to the markets": leave the number out.'}
        autoComplete="off"
        maxLength={200}
        {...draft.register("title")}
      />
      <TextAreaField label="Module Description" rows={2} maxLength={2000} {...draft.register("description")} />
      <TextField
        label="YouTube Video ID"
        hint="The 11-character ID, or paste the video's link."
        autoComplete="off"
        spellCheck={false}
        maxLength={200}
        aria-invalid={invalidVideo || undefined}
        {...youtubeField}
      />
      <FormMessages error={draft.formState.errors.youtubeId?.message ?? draft.formState.errors.root?.message} />
      <DraftButtons noun="Module" editing={editing} waiting={!ready} onCancel={onCancel} />
    </form>
  );
}

type ModuleRowProps = {
  module: ModuleItem;
  /** From 1. */
  position: number;
  last: boolean;
  editing: boolean;
  buttonRef: (button: RowButton) => (element: HTMLButtonElement | null) => void;
  onMove: (step: -1 | 1) => void;
  onEdit: () => void;
  onDelete: () => void;
};

function ModuleRow({ module, position, last, editing, buttonRef, onMove, onEdit, onDelete }: ModuleRowProps) {
  return (
    <li className={editing ? "admin-module is-editing" : "admin-module"}>
      <span className="admin-module-position" aria-hidden="true">
        {position}
      </span>
      <div className="admin-module-body">
        <p className="admin-module-title">
          {module.title}
          {editing && <EditingMark />}
        </p>
        {module.description && <p className="admin-module-description">{module.description}</p>}
        <a
          href={youtubeWatchUrl(module.youtubeId)}
          target="_blank"
          rel="noopener noreferrer"
          aria-label={`Watch on YouTube: ${module.title} (opens in a new tab)`}
        >
          Watch on YouTube
        </a>
      </div>
      <div className="admin-module-actions">
        <button
          type="button"
          ref={buttonRef("up")}
          className="button button-secondary button-small button-icon"
          aria-label={`Move ${module.title} up`}
          disabled={position === 1}
          onClick={() => onMove(-1)}
        >
          ↑
        </button>
        <button
          type="button"
          ref={buttonRef("down")}
          className="button button-secondary button-small button-icon"
          aria-label={`Move ${module.title} down`}
          disabled={last}
          onClick={() => onMove(1)}
        >
          ↓
        </button>
        <RowEditButtons name={module.title} editRef={buttonRef("edit")} onEdit={onEdit} onDelete={onDelete} />
      </div>
    </li>
  );
}
