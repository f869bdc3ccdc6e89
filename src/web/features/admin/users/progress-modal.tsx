// Edit Progress (docs/product.md, "Admin console"): per program, each video by its title with a
// checkbox, ticked when the learner has watched it, and the quiz as the learner left it. Save
// sends the programs whose ticks changed; the server checks every id belongs to its program.
import { useId, useState } from "react";
import { ADMIN_MESSAGES, type AdminUser, type UserProgress } from "../../../../shared/contracts/admin.ts";
import { sectionTitle } from "../../../../shared/section-title.ts";
import { FormMessages } from "../../../ui/form-messages.tsx";
import { Modal } from "../../../ui/modal.tsx";
import { useSaveUserProgress, useUserProgress } from "./users-api.ts";
import { initialMarks, progressUpdate, withMark } from "./progress-field.ts";

type TrackProgress = UserProgress["tracks"][number];

type ProgressModalProps = { user: Pick<AdminUser, "id" | "email">; onClose: () => void };

export function ProgressModal({ user, onClose }: ProgressModalProps) {
  const progress = useUserProgress(user.id);
  const save = useSaveUserProgress(user.id);
  const formId = useId();
  const tracks = progress.data?.tracks;

  return (
    <Modal
      title={`Edit Progress for ${user.email}`}
      onClose={onClose}
      wide
      actions={
        <>
          <button type="button" className="button button-secondary" onClick={onClose}>
            Cancel
          </button>
          <button
            type="submit"
            form={formId}
            className="button"
            disabled={!tracks?.length}
            aria-busy={save.isPending || undefined}
          >
            Save
          </button>
        </>
      }
    >
      {progress.isPending ? (
        <p role="status">{ADMIN_MESSAGES.progressLoading}</p>
      ) : !tracks ? (
        <p role="alert" className="form-error">
          {ADMIN_MESSAGES.progressLoadFailed}
        </p>
      ) : tracks.length === 0 ? (
        <p>There are no programs yet, so there is no progress to edit.</p>
      ) : (
        <ProgressForm
          id={formId}
          tracks={tracks}
          error={save.isError ? save.error.message || ADMIN_MESSAGES.progressSaveFailed : undefined}
          onSave={(update) => {
            if (save.isPending) return;
            // Nothing changed: nothing to write, and nothing for the audit log.
            if (Object.keys(update).length === 0) onClose();
            else save.mutate(update, { onSuccess: onClose });
          }}
        />
      )}
    </Modal>
  );
}

type ProgressFormProps = {
  id: string;
  tracks: TrackProgress[];
  error: string | undefined;
  onSave: (update: ReturnType<typeof progressUpdate>) => void;
};

/** Mounted once the progress has loaded, so the checkboxes start from it. */
function ProgressForm({ id, tracks, error, onSave }: ProgressFormProps) {
  const [marks, setMarks] = useState(() => initialMarks(tracks));
  const hintId = useId();

  return (
    <form
      id={id}
      className="form progress-form"
      aria-describedby={hintId}
      onSubmit={(event) => {
        event.preventDefault();
        onSave(progressUpdate(tracks, marks));
      }}
    >
      <p id={hintId} className="muted progress-hint">
        Tick the videos this learner has watched. The quiz is the learner&apos;s to answer: it is shown here as they
        left it.
      </p>
      {tracks.map(({ track, title, modules, quiz }) => (
        <fieldset key={track} className="progress-track">
          <legend>{title}</legend>
          {modules.length === 0 ? (
            <p className="muted">This program has no videos yet.</p>
          ) : (
            <ul className="progress-modules">
              {modules.map((module, index) => (
                <li key={module.id}>
                  <label className="checkbox-field">
                    <input
                      type="checkbox"
                      checked={marks.get(track)?.has(module.id) ?? false}
                      onChange={(event) => setMarks((current) => withMark(current, track, module.id, event.target.checked))}
                    />
                    {sectionTitle(index + 1, module.title)}
                  </label>
                </li>
              ))}
            </ul>
          )}
          <p className="progress-quiz">{quizState(quiz)}</p>
        </fieldset>
      ))}
      <FormMessages error={error} />
    </form>
  );
}

/** "Quiz: Beginner Program Quiz, passed (3 of 3 answered correctly; 3 needed to pass)." */
function quizState(quiz: TrackProgress["quiz"]): string {
  if (!quiz) return "Quiz: none yet.";
  const state = quiz.passed ? "passed" : "not passed";
  return `Quiz: ${quiz.title}, ${state} (${quiz.correct} of ${quiz.questions} answered correctly; ${quiz.passMark} needed to pass).`;
}
