// The module section of the program form. Modules are kept here only until Save Program sends
// the whole list; an existing module keeps its id so that learners' progress on it survives.
import { useId, useRef, type ReactNode } from "react";
import { useWatch } from "react-hook-form";
import { ADMIN_MESSAGES, moduleProblem, type AdminModule } from "../../../../shared/contracts/admin.ts";
import type { ExerciseInput } from "../../../../shared/contracts/exercises.ts";
import {
  ATTACHMENT_KINDS,
  ATTACHMENT_MAX_BYTES,
  ATTACHMENT_MESSAGES,
  attachmentKindLabel,
  fileSizeLabel,
  NOTES_MAX_LENGTH,
  type Attachment,
} from "../../../../shared/contracts/learning.ts";
import { youtubeVideoId } from "../../../../shared/youtube.ts";
import { FormMessages } from "../../../ui/form-messages.tsx";
import { notify } from "../../../ui/toast.tsx";
import { useExerciseDataSets } from "../exercises/price-data-api.ts";
import { useAddAttachment, useRemoveAttachment } from "./admin-content-api.ts";
import {
  EMPTY_EXERCISE_DRAFT,
  EXERCISE_KIND_LABELS,
  ExerciseFields,
  exerciseDraft,
  exerciseFromDraft,
  type ExerciseDraft,
  type LessonKind,
} from "./exercise-fields.tsx";
import "../users.css";
import { TextAreaField, TextField } from "../../../ui/text-field.tsx";
import { keyedRow, useEditableList, type Row, type RowButton } from "../editable-list.ts";
import { DraftButtons, EditingMark, RowEditButtons, type DraftFormProps } from "../editable-list-buttons.tsx";

/**
 * A module in the form: a new one has no id until Save Program gives it one. `youtubeId` is ""
 * for a lesson of notes only, or a chart exercise (`exercise`, docs/trading.md "Exercises"); the
 * attachments are the server's, changed on their own (not by Save Program), so a module gets them
 * once it is saved.
 */
export type ModuleItem = Row<{
  id?: string;
  title: string;
  description: string;
  youtubeId: string;
  notes: string;
  freePreview: boolean;
  /** Null for a lesson to watch or read. */
  exercise: ExerciseInput | null;
  /** Saved and not published yet; a module not saved yet will be one too (docs/data.md, "Drafts"). */
  draft?: boolean;
  attachments?: Attachment[];
}>;

export function moduleItem(module: AdminModule): ModuleItem {
  return keyedRow({ ...module, youtubeId: module.youtubeId ?? "" });
}

export function youtubeWatchUrl(youtubeId: string) {
  return `https://www.youtube.com/watch?v=${encodeURIComponent(youtubeId)}`;
}

export type ModuleDraft = {
  title: string;
  description: string;
  lessonKind: LessonKind;
  youtubeId: string;
  notes: string;
  freePreview: boolean;
  exercise: ExerciseDraft;
};
const EMPTY_DRAFT: ModuleDraft = {
  title: "",
  description: "",
  lessonKind: "video",
  youtubeId: "",
  notes: "",
  freePreview: false,
  exercise: EMPTY_EXERCISE_DRAFT,
};

function moduleDraft(module: ModuleItem): ModuleDraft {
  const { title, description, youtubeId, notes, freePreview, exercise } = module;
  return { title, description, lessonKind: exercise ? "exercise" : "video", youtubeId, notes, freePreview, exercise: exerciseDraft(exercise) };
}

type ModulesEditorProps = {
  modules: ModuleItem[];
  onChange: (modules: ModuleItem[]) => void;
  /** The saved program the modules belong to; null while it is a new one. */
  programId: string | null;
  /** A saved module's attachments, as the server now holds them. */
  onAttachmentsChange: (moduleId: string, attachments: Attachment[]) => void;
};

export function ModulesEditor({ modules, onChange, programId, onAttachmentsChange }: ModulesEditorProps) {
  const headingId = useId();
  const list = useEditableList({
    items: modules,
    onChange,
    emptyDraft: EMPTY_DRAFT,
    firstField: "title",
    toDraft: moduleDraft,
  });
  const { draft, editingKey } = list;
  // The sets an exercise can use, the list the exercise fields show: the start bar's range.
  const lessonKind = useWatch({ control: draft.control, name: "lessonKind" });
  const exerciseDataSets = useExerciseDataSets(lessonKind === "exercise");

  const submit = draft.handleSubmit((values) => {
    const title = values.title.trim();
    const description = values.description.trim();
    const { freePreview } = values;
    // A chart exercise needs no video and no notes (docs/trading.md, "Exercises").
    if (values.lessonKind === "exercise") {
      const barCount = exerciseDataSets.data?.dataSets.find((set) => set.id === values.exercise.dataSetId)?.barCount;
      const built = exerciseFromDraft(values.exercise, barCount);
      if ("error" in built) {
        draft.setError("root", { message: built.error });
        return;
      }
      const problem = moduleProblem({ title, youtubeId: null, notes: "", exercise: built.exercise });
      if (problem) {
        draft.setError("root", { message: problem });
        return;
      }
      list.save({ title, description, youtubeId: "", notes: "", freePreview, exercise: built.exercise });
      return;
    }
    const problem = moduleProblem({ title, youtubeId: values.youtubeId, notes: values.notes });
    if (problem) {
      draft.setError("root", { message: problem });
      return;
    }
    const videoId = values.youtubeId.trim() === "" ? "" : youtubeVideoId(values.youtubeId);
    if (videoId === null) {
      draft.setError("youtubeId", { message: ADMIN_MESSAGES.youtubeIdInvalid });
      draft.setFocus("youtubeId");
      return;
    }
    const notes = values.notes.trim() === "" ? "" : values.notes;
    list.save({ title, description, youtubeId: videoId, notes, freePreview, exercise: null });
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
              attachments={
                programId !== null && module.id !== undefined ? (
                  <AttachmentsPanel
                    programId={programId}
                    moduleId={module.id}
                    moduleTitle={module.title}
                    attachments={module.attachments ?? []}
                    onChange={(attachments) => module.id !== undefined && onAttachmentsChange(module.id, attachments)}
                  />
                ) : (
                  <p className="muted admin-module-files-note">{ATTACHMENT_MESSAGES.saveModuleFirst}</p>
                )
              }
            />
          ))}
        </ol>
      )}
    </section>
  );
}

/** Add module, or Edit module while a row is being edited. */
function ModuleForm({ draft, editing, onSubmit, onCancel }: DraftFormProps<ModuleDraft>) {
  const [title, youtubeId, notes, lessonKind, dataSetId] = useWatch({
    control: draft.control,
    name: ["title", "youtubeId", "notes", "lessonKind", "exercise.dataSetId"],
  });
  const exercise = lessonKind === "exercise";
  const ready = exercise ? title.trim() !== "" && dataSetId !== "" : moduleProblem({ title, youtubeId, notes }) === null;
  const invalidVideo = draft.formState.errors.youtubeId !== undefined;
  const youtubeField = draft.register("youtubeId", { onChange: () => draft.clearErrors("youtubeId") });
  // What was wrong with the other kind's fields is no longer shown.
  const lessonKindField = draft.register("lessonKind", { onChange: () => draft.clearErrors() });

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
      <fieldset className="choice-group">
        <legend>Lesson kind</legend>
        <label className="choice">
          <input type="radio" value="video" {...lessonKindField} />
          Video or notes
        </label>
        <label className="choice">
          <input type="radio" value="exercise" {...lessonKindField} />
          Chart exercise
        </label>
      </fieldset>
      {exercise ? (
        <ExerciseFields form={draft} />
      ) : (
        <>
          <TextField
            label="YouTube Video ID"
            hint="The 11-character ID, or paste the video's link. Leave it empty for a lesson of notes only."
            autoComplete="off"
            spellCheck={false}
            maxLength={200}
            aria-invalid={invalidVideo || undefined}
            {...youtubeField}
          />
          <TextAreaField
            label="Lesson Notes"
            hint="Markdown: # for a heading, - for a list, **bold**, [a link](https://...), a table with | columns |. To show an image, attach it below once the program is saved and use ![what it shows](its link)."
            rows={8}
            maxLength={NOTES_MAX_LENGTH}
            spellCheck
            {...draft.register("notes")}
          />
        </>
      )}
      <label className="checkbox-field">
        <input type="checkbox" {...draft.register("freePreview")} />
        Free preview: anyone signed in can open this lesson
      </label>
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
  attachments: ReactNode;
};

function ModuleRow(props: ModuleRowProps) {
  const { module, position, last, editing, buttonRef, onMove, onEdit, onDelete, attachments } = props;
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
        <p className="admin-module-content">
          {module.exercise ? (
            <span>{`Exercise: ${EXERCISE_KIND_LABELS[module.exercise.kind].toLowerCase()}`}</span>
          ) : (
            <>
              {module.youtubeId !== "" ? (
                <a
                  href={youtubeWatchUrl(module.youtubeId)}
                  target="_blank"
                  rel="noopener noreferrer"
                  aria-label={`Watch on YouTube: ${module.title} (opens in a new tab)`}
                >
                  Watch on YouTube
                </a>
              ) : (
                <span>No video</span>
              )}
              <span className="muted">{module.notes === "" ? "No notes" : `Notes: ${module.notes.length.toLocaleString("en")} characters`}</span>
            </>
          )}
          {module.freePreview && <span className="admin-module-preview">Free preview</span>}
          {(module.draft || module.id === undefined) && <span className="admin-module-draft">Draft: not published</span>}
        </p>
        {attachments}
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

const ACCEPTED_FILES = ATTACHMENT_KINDS.flatMap((kind) => kind.extensions.map((extension) => `.${extension}`)).join(",");

type AttachmentsPanelProps = {
  programId: string;
  moduleId: string;
  moduleTitle: string;
  attachments: Attachment[];
  onChange: (attachments: Attachment[]) => void;
};

/**
 * A saved lesson's files (docs/product.md, "Attachments"): each upload or removal is saved at
 * once, on its own, unlike the rest of the form. A file over the limit is refused before a byte of
 * it is sent.
 */
function AttachmentsPanel({ programId, moduleId, moduleTitle, attachments, onChange }: AttachmentsPanelProps) {
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const add = useAddAttachment(programId);
  const remove = useRemoveAttachment(programId);
  const attachmentsOf = (program: { modules: AdminModule[] }) =>
    program.modules.find((module) => module.id === moduleId)?.attachments ?? [];

  function upload(file: File) {
    if (file.size > ATTACHMENT_MAX_BYTES) {
      notify.error(ATTACHMENT_MESSAGES.tooLarge);
      return;
    }
    add.mutate(
      { moduleId, file },
      {
        onSuccess: ({ program }) => {
          onChange(attachmentsOf(program));
          notify.success(ATTACHMENT_MESSAGES.uploaded(file.name));
        },
        onError: (error) => notify.error(error.message || ATTACHMENT_MESSAGES.uploadFailed),
        onSettled: () => {
          if (input.current) input.current.value = "";
        },
      },
    );
  }

  return (
    <div className="admin-module-files">
      {attachments.length > 0 && (
        <ul className="admin-module-file-list" aria-label={`Files of ${moduleTitle}`}>
          {attachments.map((file) => (
            <li key={file.id}>
              <a href={file.url} download={file.fileName}>
                {file.fileName}
              </a>{" "}
              <span className="muted">
                ({attachmentKindLabel(file.contentType)}, {fileSizeLabel(file.sizeBytes)})
              </span>{" "}
              <button
                type="button"
                className="button button-secondary button-small"
                aria-label={`Remove ${file.fileName}`}
                disabled={remove.isPending}
                onClick={() =>
                  remove.mutate(
                    { moduleId, attachmentId: file.id },
                    {
                      onSuccess: ({ program }) => {
                        onChange(attachmentsOf(program));
                        notify.success(ATTACHMENT_MESSAGES.removed(file.fileName));
                      },
                      onError: (error) => notify.error(error.message || ATTACHMENT_MESSAGES.removeFailed),
                    },
                  )
                }
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <label htmlFor={inputId} className="admin-module-file-label">
        Attach a file to {moduleTitle}
      </label>
      <input
        ref={input}
        id={inputId}
        type="file"
        accept={ACCEPTED_FILES}
        disabled={add.isPending}
        aria-describedby={`${inputId}-hint`}
        onChange={(event) => {
          const file = event.currentTarget.files?.[0];
          if (file) upload(file);
        }}
      />
      <p id={`${inputId}-hint`} className="muted admin-module-file-hint">
        {add.isPending ? "Uploading..." : "PDF, image or spreadsheet, up to 20 MB. Saved at once."}
      </p>
    </div>
  );
}
