// The module section of the program form. Modules are kept here only until Save Program sends
// the whole list; an existing module keeps its id so that learners' progress on it survives.
import { useId, useRef, useState } from "react";
import { flushSync } from "react-dom";
import { useForm, useWatch } from "react-hook-form";
import { ADMIN_MESSAGES, type AdminModule } from "../../../shared/contracts/admin.ts";
import { youtubeVideoId } from "../../../shared/youtube.ts";
import { FormMessages } from "../../ui/form-messages.tsx";
import { TextAreaField, TextField } from "../../ui/text-field.tsx";

/** A module in the form: `key` tells rows apart before a new module has an id of its own. */
export type ModuleItem = {
  key: string;
  id?: string;
  title: string;
  description: string;
  youtubeId: string;
};

let nextKey = 0;
function newKey() {
  nextKey += 1;
  return `new-${nextKey}`;
}

export function moduleItem(module: AdminModule): ModuleItem {
  return { key: module.id, ...module };
}

export function youtubeWatchUrl(youtubeId: string) {
  return `https://www.youtube.com/watch?v=${encodeURIComponent(youtubeId)}`;
}

type ModuleDraft = { title: string; description: string; youtubeId: string };
// A reset keeps hold of the inputs, so that setFocus can reach them at once.
const KEEP_FIELDS = { keepFieldsRef: true };
const EMPTY_DRAFT: ModuleDraft = { title: "", description: "", youtubeId: "" };

type ModulesEditorProps = {
  modules: ModuleItem[];
  onChange: (modules: ModuleItem[]) => void;
};

export function ModulesEditor({ modules, onChange }: ModulesEditorProps) {
  const headingId = useId();
  const [editingKey, setEditingKey] = useState<string | null>(null);
  const draft = useForm<ModuleDraft>({ defaultValues: EMPTY_DRAFT });
  const [title, youtubeId] = useWatch({ control: draft.control, name: ["title", "youtubeId"] });
  const ready = title.trim() !== "" && youtubeId.trim() !== "";
  const invalidVideo = draft.formState.errors.youtubeId !== undefined;
  // The row buttons, so that focus can follow a module that moves or land next to one removed.
  const rowButtons = useRef(new Map<string, HTMLButtonElement>());

  function rowButtonRef(name: string) {
    return (button: HTMLButtonElement | null) => {
      if (button) rowButtons.current.set(name, button);
      else rowButtons.current.delete(name);
    };
  }

  function change(next: ModuleItem[]) {
    // Rendered at once, so that the buttons to focus next are in the page.
    flushSync(() => onChange(next));
  }

  function stopEditing() {
    setEditingKey(null);
    draft.reset(EMPTY_DRAFT, KEEP_FIELDS);
  }

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
    const fields = { title: values.title.trim(), description: values.description.trim(), youtubeId: videoId };
    onChange(
      editingKey === null
        ? [...modules, { key: newKey(), ...fields }]
        : modules.map((module) => (module.key === editingKey ? { ...module, ...fields } : module)),
    );
    stopEditing();
    draft.setFocus("title");
  });

  function edit(module: ModuleItem) {
    setEditingKey(module.key);
    draft.reset({ title: module.title, description: module.description, youtubeId: module.youtubeId }, KEEP_FIELDS);
    draft.setFocus("title");
  }

  function cancelEdit() {
    stopEditing();
    draft.setFocus("title");
  }

  function remove(index: number) {
    const module = modules[index];
    if (!module) return;
    if (module.key === editingKey) stopEditing();
    change(modules.filter((other) => other.key !== module.key));
    const neighbour = modules[index + 1] ?? modules[index - 1];
    if (neighbour) rowButtons.current.get(`${neighbour.key}:edit`)?.focus();
    else draft.setFocus("title");
  }

  function move(index: number, step: -1 | 1) {
    const module = modules[index];
    const target = index + step;
    if (!module || target < 0 || target >= modules.length) return;
    const next = modules.filter((other) => other.key !== module.key);
    next.splice(target, 0, module);
    change(next);
    // At the top or the bottom the pressed button is disabled: the other direction takes the focus.
    const direction = step === -1 ? (target === 0 ? "down" : "up") : target === modules.length - 1 ? "up" : "down";
    rowButtons.current.get(`${module.key}:${direction}`)?.focus();
  }

  const youtubeField = draft.register("youtubeId", { onChange: () => draft.clearErrors("youtubeId") });

  return (
    <section className="modules-editor" aria-labelledby={headingId}>
      <h3 id={headingId}>Modules</h3>
      <p className="muted modules-note">Modules are saved with the program: press Save Program to keep changes.</p>

      <form className="form" noValidate onSubmit={submit} aria-label={editingKey ? "Edit module" : "Add module"}>
        <TextField label="Module Title" autoComplete="off" maxLength={200} {...draft.register("title")} />
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
        <div className="editor-buttons">
          <button
            type="submit"
            className="button button-secondary"
            // aria-disabled rather than disabled: the button stays reachable and says why it waits.
            aria-disabled={!ready || undefined}
          >
            {editingKey ? "Update Module" : "Add Module"}
          </button>
          {editingKey && (
            <button type="button" className="button button-secondary" onClick={cancelEdit}>
              Cancel Edit
            </button>
          )}
        </div>
      </form>

      {modules.length === 0 ? (
        <p className="muted admin-modules-empty">No modules yet.</p>
      ) : (
        <ol className="admin-modules" aria-label="Modules in this program">
          {modules.map((module, index) => (
            <li key={module.key} className={module.key === editingKey ? "admin-module is-editing" : "admin-module"}>
              <span className="admin-module-position" aria-hidden="true">
                {index + 1}
              </span>
              <div className="admin-module-body">
                <p className="admin-module-title">
                  {module.title}
                  {module.key === editingKey && <span className="admin-module-editing"> (editing)</span>}
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
                  ref={rowButtonRef(`${module.key}:up`)}
                  className="button button-secondary button-small button-icon"
                  aria-label={`Move ${module.title} up`}
                  disabled={index === 0}
                  onClick={() => move(index, -1)}
                >
                  ↑
                </button>
                <button
                  type="button"
                  ref={rowButtonRef(`${module.key}:down`)}
                  className="button button-secondary button-small button-icon"
                  aria-label={`Move ${module.title} down`}
                  disabled={index === modules.length - 1}
                  onClick={() => move(index, 1)}
                >
                  ↓
                </button>
                <button
                  type="button"
                  ref={rowButtonRef(`${module.key}:edit`)}
                  className="button button-secondary button-small"
                  onClick={() => edit(module)}
                  aria-label={`Edit ${module.title}`}
                >
                  Edit
                </button>
                <button
                  type="button"
                  className="button button-secondary-danger button-small"
                  onClick={() => remove(index)}
                  aria-label={`Delete ${module.title}`}
                >
                  Delete
                </button>
              </div>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
