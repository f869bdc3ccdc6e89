// The Programs tab: the program list, the Add / Edit Program form under it, the quiz of each
// program in a modal, archiving, and deletion behind a confirmation.
import { useId, useRef, useState, type MouseEvent } from "react";
import { flushSync } from "react-dom";
import { ADMIN_MESSAGES, publishMessage, type AdminProgram } from "../../../../shared/contracts/admin.ts";
import { ConfirmDialog } from "../../../ui/modal.tsx";
import { notify } from "../../../ui/toast.tsx";
import {
  useAdminPrograms,
  useArchiveProgram,
  useDeleteProgram,
  usePublishProgram,
  usePublishSummary,
  validationMessage,
} from "./admin-content-api.ts";
import { RowEditButtons } from "../editable-list-buttons.tsx";
import { LEVEL_LABELS, ProgramForm } from "./program-form.tsx";
import "./programs.css";
import { QuizModal } from "./quiz-modal.tsx";

/** "$35", "$12.50", or "N/A" for a program without a price. */
export function formatPriceUsd(price: number | null): string {
  if (price === null) return "N/A";
  return Number.isInteger(price) ? `$${price}` : `$${price.toFixed(2)}`;
}

export function ProgramsTab() {
  const listHeadingId = useId();
  const listHeading = useRef<HTMLHeadingElement>(null);
  const programs = useAdminPrograms();
  const deletion = useDeleteProgram();
  const [editingId, setEditingId] = useState<string | null>(null);
  // Bumped after a save or Cancel Edit, so that a fresh, empty form replaces the old one.
  const [formRound, setFormRound] = useState(0);
  const [modeChanged, setModeChanged] = useState(false);
  const [quizProgram, setQuizProgram] = useState<AdminProgram | null>(null);
  const [toDelete, setToDelete] = useState<AdminProgram | null>(null);
  const { openDialog, closeDialog } = useDialogFocus();

  const list = programs.data ?? [];
  const editing = list.find((program) => program.id === editingId) ?? null;

  function startEdit(program: AdminProgram) {
    setEditingId(program.id);
    setModeChanged(true);
  }

  function backToAdd() {
    setEditingId(null);
    setFormRound((round) => round + 1);
    setModeChanged(true);
  }

  async function confirmDelete(program: AdminProgram) {
    const deleted = await deletion.mutateAsync(program.id).then(
      () => true,
      () => false,
    );
    if (!deleted) {
      closeDialog(() => setToDelete(null), listHeading.current);
      notify.error(ADMIN_MESSAGES.programDeleteFailed);
      return;
    }
    notify.success(ADMIN_MESSAGES.programDeleted);
    // Its row, with the Delete button, is gone. The form heading takes the focus when the
    // program was the one being edited; otherwise the list's heading does.
    if (program.id === editingId) {
      flushSync(() => setToDelete(null));
      backToAdd();
    } else {
      closeDialog(() => setToDelete(null), listHeading.current);
    }
  }

  return (
    <div className="programs-tab">
      <section className="programs-list" aria-labelledby={listHeadingId}>
        <h2 id={listHeadingId} ref={listHeading} tabIndex={-1}>
          Programs
        </h2>
        <ProgramsList
          programs={programs}
          editingId={editingId}
          onEdit={startEdit}
          onDelete={(event, program) => openDialog(event, () => setToDelete(program))}
          onManageQuiz={(event, program) => openDialog(event, () => setQuizProgram(program))}
        />
      </section>

      {programs.data && (
        <ProgramForm
          key={editing ? editing.id : `new-${formRound}`}
          program={editing}
          focusOnMount={modeChanged}
          onDone={backToAdd}
        />
      )}

      {quizProgram && <QuizModal program={quizProgram} onClose={() => closeDialog(() => setQuizProgram(null))} />}
      {toDelete && (
        <ConfirmDialog
          title={`Delete ${toDelete.title}?`}
          message={ADMIN_MESSAGES.deleteConfirm}
          confirmLabel={deletion.isPending ? "Deleting..." : "Delete Program"}
          busy={deletion.isPending}
          onConfirm={() => void confirmDelete(toDelete)}
          onCancel={() => closeDialog(() => setToDelete(null))}
        />
      )}
    </div>
  );
}

/** Dialogs opened from a button give the focus back to it when they close. */
function useDialogFocus() {
  // The button that opened a dialog: it takes the focus back when the dialog closes.
  const opener = useRef<HTMLElement | null>(null);

  function openDialog(event: MouseEvent<HTMLElement>, open: () => void) {
    opener.current = event.currentTarget;
    open();
  }

  /** Closes a dialog, then gives the focus back to its opener (or to `fallback` when it is gone). */
  function closeDialog(close: () => void, fallback?: HTMLElement | null) {
    // The dialog leaves the page first: the page behind it cannot take the focus while it is open.
    flushSync(close);
    const target = opener.current?.isConnected ? opener.current : fallback;
    target?.focus();
  }

  return { openDialog, closeDialog };
}

type ProgramAction = (event: MouseEvent<HTMLElement>, program: AdminProgram) => void;

type ProgramsListProps = {
  programs: ReturnType<typeof useAdminPrograms>;
  editingId: string | null;
  onEdit: (program: AdminProgram) => void;
  onDelete: ProgramAction;
  onManageQuiz: ProgramAction;
};

/** The programs table, or what stands in for it while the list loads or when it failed to. */
function ProgramsList({ programs, editingId, onEdit, onDelete, onManageQuiz }: ProgramsListProps) {
  if (programs.isPending) return <p role="status">Loading programs...</p>;
  if (programs.isError) {
    return (
      <div className="programs-load-error">
        <p role="alert" className="form-error">
          {programs.error.message}
        </p>
        <button type="button" className="button button-secondary" onClick={() => void programs.refetch()}>
          Try again
        </button>
      </div>
    );
  }
  return (
    <div className="table-wrap">
      <table className="admin-table programs-table">
        <caption className="visually-hidden">Programs, by display order</caption>
        <thead>
          <tr>
            <th scope="col">Title</th>
            <th scope="col">Level</th>
            <th scope="col">Duration</th>
            <th scope="col">Price</th>
            <th scope="col">Modules</th>
            <th scope="col">Quiz</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {programs.data.length === 0 ? (
            <tr>
              <td colSpan={7} className="table-empty">
                No programs yet: add one with the form.
              </td>
            </tr>
          ) : (
            programs.data.map((program) => (
              <ProgramRow
                key={program.id}
                program={program}
                editing={program.id === editingId}
                onEdit={() => onEdit(program)}
                onDelete={(event) => onDelete(event, program)}
                onManageQuiz={(event) => onManageQuiz(event, program)}
              />
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}

type ProgramRowProps = {
  program: AdminProgram;
  editing: boolean;
  onEdit: () => void;
  onDelete: (event: MouseEvent<HTMLElement>) => void;
  onManageQuiz: (event: MouseEvent<HTMLElement>) => void;
};

function ProgramRow({ program, editing, onEdit, onDelete, onManageQuiz }: ProgramRowProps) {
  return (
    <tr className={[editing && "is-editing", program.archived && "is-archived"].filter(Boolean).join(" ") || undefined}>
      <th scope="row" className="program-title-cell">
        {program.title}
        {program.archived && <span className="badge badge-neutral program-badge">Archived</span>}
        {program.draft && <span className="badge badge-intermediate program-badge">Draft</span>}
        <span className="program-id">
          <code>{program.id}</code>
          {editing && " · editing"}
        </span>
      </th>
      <td>{LEVEL_LABELS[program.level]}</td>
      <td>{program.duration}</td>
      <td>{formatPriceUsd(program.priceUsd)}</td>
      <td>{program.modules.length}</td>
      <td className="nowrap">
        {program.questionCount} {program.questionCount === 1 ? "question" : "questions"}
      </td>
      <td>
        <div className="cell-actions">
          <RowEditButtons name={program.title} onEdit={onEdit} onDelete={onDelete} />
          <button
            type="button"
            className="button button-secondary button-small"
            onClick={onManageQuiz}
            aria-label={`Manage Quiz for ${program.title}`}
          >
            Manage Quiz
          </button>
          <PublishButton program={program} />
          <a className="button button-secondary button-small" href={`/program/${program.id}`} aria-label={`Preview ${program.title}`}>
            Preview
          </a>
          <ArchiveButton program={program} />
        </div>
      </td>
    </tr>
  );
}

/**
 * Archive takes a program out of the catalogue, at once and without a confirmation: nothing is lost
 * and Restore puts it back (docs/data.md, "Content").
 */
function ArchiveButton({ program }: { program: AdminProgram }) {
  const archive = useArchiveProgram();
  const label = program.archived ? "Restore" : "Archive";
  async function toggle() {
    const archived = !program.archived;
    try {
      await archive.mutateAsync({ id: program.id, archived });
    } catch (error) {
      notify.error(validationMessage(error) ?? ADMIN_MESSAGES.programSaveFailed);
      return;
    }
    notify.success(archived ? ADMIN_MESSAGES.archived(program.title) : ADMIN_MESSAGES.restored(program.title));
  }
  return (
    <button
      type="button"
      className="button button-secondary button-small"
      disabled={archive.isPending}
      onClick={() => void toggle()}
      aria-label={`${label} ${program.title}`}
    >
      {label}
    </button>
  );
}

/** Whether anything of the program is a draft: the program, a lesson or a quiz question. */
function hasDrafts(program: AdminProgram): boolean {
  return program.draft || program.draftQuestionCount > 0 || program.modules.some((module) => module.draft);
}

/**
 * Publish puts every draft of the program before learners, once the admin has read what that is
 * and how many learners who completed the program it touches (docs/data.md, "Drafts").
 */
function PublishButton({ program }: { program: AdminProgram }) {
  const [asking, setAsking] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const summary = usePublishSummary(program.id, asking);
  const publish = usePublishProgram();
  if (!hasDrafts(program)) return null;

  function close() {
    flushSync(() => setAsking(false));
    button.current?.focus();
  }

  async function confirm() {
    try {
      await publish.mutateAsync(program.id);
    } catch (error) {
      close();
      notify.error(validationMessage(error) ?? ADMIN_MESSAGES.publishFailed);
      return;
    }
    close();
    notify.success(ADMIN_MESSAGES.published(program.title));
  }

  return (
    <>
      <button
        ref={button}
        type="button"
        className="button button-small"
        onClick={() => setAsking(true)}
        aria-label={`Publish ${program.title}`}
      >
        Publish
      </button>
      {asking && (
        <ConfirmDialog
          title={`Publish ${program.title}?`}
          message={summary.data ? publishMessage(summary.data) : summary.isError ? summary.error.message : "Counting what changes..."}
          confirmLabel={publish.isPending ? "Publishing..." : "Publish"}
          busy={publish.isPending || !summary.data}
          onConfirm={() => void confirm()}
          onCancel={close}
        />
      )}
    </>
  );
}
