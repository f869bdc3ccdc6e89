// Edit Progress (docs/product.md, "Admin console"): one field per track, each holding JSON or text.
// The fields start from what is stored now; Save stores every field (see progress-field.ts for the
// rule).
import { useId, useState } from "react";
import { ADMIN_MESSAGES, type AdminUser } from "../../../shared/contracts/admin.ts";
import type { Track } from "../../../shared/plans.ts";
import { FormMessages } from "../../ui/form-messages.tsx";
import { Modal } from "../../ui/modal.tsx";
import { TextAreaField } from "../../ui/text-field.tsx";
import { useSaveUserProgress, useUserProgress, type ProgressUpdate } from "./admin-records-api.ts";
import { formatProgressField, parseProgressField } from "./progress-field.ts";

type TrackProgress = { track: Track; title: string; data: unknown };

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
          error={save.isError ? ADMIN_MESSAGES.progressSaveFailed : undefined}
          onSave={(update) => {
            if (!save.isPending) save.mutate(update, { onSuccess: onClose });
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
  onSave: (update: ProgressUpdate) => void;
};

/** Mounted once the progress has loaded, so the fields start from it. */
function ProgressForm({ id, tracks, error, onSave }: ProgressFormProps) {
  const [texts, setTexts] = useState(() => new Map(tracks.map(({ track, data }) => [track, formatProgressField(data)])));
  const hintId = useId();

  return (
    <form
      id={id}
      className="form progress-form"
      aria-describedby={hintId}
      onSubmit={(event) => {
        event.preventDefault();
        const update: ProgressUpdate = {};
        for (const { track } of tracks) update[track] = parseProgressField(texts.get(track) ?? "");
        onSave(update);
      }}
    >
      <p id={hintId} className="muted progress-hint">
        Each field takes JSON, such as a map of watched video ids: <code>{'{ "videoId": true }'}</code>. Text that
        is not valid JSON is saved as text; an empty field saves <code>{"{}"}</code>.
      </p>
      {tracks.map(({ track, title }) => (
        <TextAreaField
          key={track}
          label={title}
          rows={6}
          spellCheck={false}
          autoCapitalize="off"
          autoComplete="off"
          value={texts.get(track) ?? ""}
          onChange={(event) => {
            const value = event.target.value;
            setTexts((current) => new Map(current).set(track, value));
          }}
        />
      ))}
      <FormMessages error={error} />
    </form>
  );
}
