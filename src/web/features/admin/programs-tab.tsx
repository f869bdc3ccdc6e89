// The Programs tab: the program list, the Add / Edit Program form under it, the quiz of each
// program in a modal, and deletion behind a confirmation.
import { useId, useRef, useState, type MouseEvent } from "react";
import { flushSync } from "react-dom";
import { ADMIN_MESSAGES, type AdminProgram } from "../../../shared/contracts/admin.ts";
import { TRACKS, type Track } from "../../../shared/plans.ts";
import { ConfirmDialog } from "../../ui/modal.tsx";
import { notify } from "../../ui/toast.tsx";
import { useAdminPrograms, useDeleteProgram } from "./admin-content-api.ts";
import { RowEditButtons } from "./editable-list-buttons.tsx";
import { ProgramForm } from "./program-form.tsx";
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
  const [editingId, setEditingId] = useState<Track | null>(null);
  // Bumped after a save or Cancel Edit, so that a fresh, empty form replaces the old one.
  const [formRound, setFormRound] = useState(0);
  const [modeChanged, setModeChanged] = useState(false);
  const [quizProgram, setQuizProgram] = useState<AdminProgram | null>(null);
  const [toDelete, setToDelete] = useState<AdminProgram | null>(null);
  const { openDialog, closeDialog } = useDialogFocus();

  const list = programs.data ?? [];
  const editing = list.find((program) => program.id === editingId) ?? null;
  const freeTracks = TRACKS.filter((track) => !list.some((program) => program.id === track));

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
          freeTracks={freeTracks}
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
  editingId: Track | null;
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
              <td colSpan={6} className="table-empty">
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
    <tr className={editing ? "is-editing" : undefined}>
      <th scope="row" className="program-title-cell">
        {program.title}
        <span className="program-id">
          <code>{program.id}</code>
          {editing && " · editing"}
        </span>
      </th>
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
        </div>
      </td>
    </tr>
  );
}
