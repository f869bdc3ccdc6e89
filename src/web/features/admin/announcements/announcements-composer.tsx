// Writing an announcement: subject, message and audience, checked with the server's own schema;
// Preview shows the email and how many learners it reaches; Send, after a confirmation, starts the
// job with what was previewed. The id is made once per message, so a second click or a retried
// request starts the same announcement, never a second one (docs/admin.md, "Announcements").
import { useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import {
  ANNOUNCEMENT_LIMITS,
  ANNOUNCEMENT_MESSAGES,
  AUDIENCE_KIND_LABELS,
  AUDIENCE_KINDS,
  AUDIENCE_PLAN_LABELS,
  AUDIENCE_PLANS,
  announcementDraftSchema,
  type AnnouncementPreview,
  type Audience,
} from "../../../../shared/contracts/announcements.ts";
import { CheckedField } from "../../../ui/checked-field.tsx";
import { ConfirmDialog } from "../../../ui/modal.tsx";
import { FormMessages } from "../../../ui/form-messages.tsx";
import { notify } from "../../../ui/toast.tsx";
import { useAudienceOptions, usePreviewAnnouncement, useStartAnnouncement } from "./announcements-api.ts";

type ComposeValues = {
  subject: string;
  body: string;
  kind: string;
  plan: string;
  cohort: string;
  program: string;
};

type Draft = { subject: string; body: string; audience: Audience };

const EMPTY: ComposeValues = { subject: "", body: "", kind: "", plan: "", cohort: "", program: "" };

/** The form's fields as the request the schema checks: the audience names only what its kind uses. */
function requestOf(values: ComposeValues) {
  const audience =
    values.kind === "plan"
      ? { kind: values.kind, plan: values.plan }
      : values.kind === "cohort"
        ? { kind: values.kind, cohort: values.cohort }
        : values.kind === "unfinished"
          ? { kind: values.kind, program: values.program }
          : { kind: values.kind };
  return { subject: values.subject, body: values.body, audience };
}

/** Which field a problem the schema found belongs to. */
function fieldOf(path: readonly PropertyKey[]): keyof ComposeValues {
  const [first, second] = path;
  if (first === "subject" || first === "body") return first;
  if (second === "plan" || second === "cohort" || second === "program") return second;
  return "kind";
}

type Previewed = { draft: Draft; key: string; result: AnnouncementPreview };

export function AnnouncementComposer() {
  const form = useForm<ComposeValues>({ defaultValues: EMPTY });
  const { errors } = form.formState;
  const values = useWatch({ control: form.control });
  const options = useAudienceOptions();
  const preview = usePreviewAnnouncement();
  const start = useStartAnnouncement();
  const [id, setId] = useState(() => crypto.randomUUID());
  const [previewed, setPreviewed] = useState<Previewed | null>(null);
  const [confirming, setConfirming] = useState(false);

  const current = announcementDraftSchema.safeParse(requestOf({ ...EMPTY, ...values }));
  const stale = previewed !== null && (!current.success || JSON.stringify(current.data) !== previewed.key);

  const onPreview = form.handleSubmit(async (formValues) => {
    const parsed = announcementDraftSchema.safeParse(requestOf(formValues));
    if (!parsed.success) {
      // One message per field, the first problem's; the first field refused takes the focus.
      parsed.error.issues.forEach((issue, index) => {
        const field = fieldOf(issue.path);
        if (!form.getFieldState(field).error) form.setError(field, { message: issue.message }, { shouldFocus: index === 0 });
      });
      return;
    }
    const draft = parsed.data;
    await preview.mutateAsync(draft).then(
      (result) => setPreviewed({ draft, key: JSON.stringify(draft), result }),
      () => setPreviewed(null),
    );
  });

  async function send() {
    if (!previewed) return;
    const { draft } = previewed;
    await start.mutateAsync({ id, ...draft }).then(
      (answer) => {
        notify.success(ANNOUNCEMENT_MESSAGES.started(answer.announcement.recipients));
        form.reset(EMPTY);
        setPreviewed(null);
        setId(crypto.randomUUID());
        start.reset();
      },
      () => undefined,
    );
    setConfirming(false);
  }

  const register = (field: keyof ComposeValues) =>
    form.register(field, { onChange: () => form.clearErrors(field) });
  const kind = values.kind ?? "";
  const recipients = previewed?.result.recipients ?? 0;

  return (
    <section className="card announcement-compose" aria-labelledby="announcement-compose-heading">
      <h2 id="announcement-compose-heading">New announcement</h2>
      <form className="form" noValidate onSubmit={(event) => void onPreview(event)}>
        <CheckedField label="Subject" error={errors.subject?.message}>
          {(ids) => <input {...ids} type="text" maxLength={ANNOUNCEMENT_LIMITS.subject} {...register("subject")} />}
        </CheckedField>
        <CheckedField
          label="Message"
          hint={`Plain text, up to ${ANNOUNCEMENT_LIMITS.body.toLocaleString("en-US")} characters; a blank line starts a new paragraph. Each learner's email greets them by name and ends with a link to unsubscribe.`}
          error={errors.body?.message}
        >
          {(ids) => <textarea {...ids} rows={8} maxLength={ANNOUNCEMENT_LIMITS.body} {...register("body")} />}
        </CheckedField>
        <div className="announcement-audience">
          <CheckedField label="Audience" error={errors.kind?.message}>
            {(ids) => (
              <select {...ids} {...register("kind")}>
                <option value="">Choose who receives it</option>
                {AUDIENCE_KINDS.map((value) => (
                  <option key={value} value={value}>
                    {AUDIENCE_KIND_LABELS[value]}
                  </option>
                ))}
              </select>
            )}
          </CheckedField>
          {kind === "plan" && (
            <CheckedField label="Plan" hint="Free: everyone without an active paid plan." error={errors.plan?.message}>
              {(ids) => (
                <select {...ids} {...register("plan")}>
                  <option value="">Choose a plan</option>
                  {AUDIENCE_PLANS.map((plan) => (
                    <option key={plan} value={plan}>
                      {AUDIENCE_PLAN_LABELS[plan]}
                    </option>
                  ))}
                </select>
              )}
            </CheckedField>
          )}
          {kind === "cohort" && (
            <CheckedField label="Cohort" hint="Everyone with a place in it, admitted or still waiting." error={errors.cohort?.message ?? options.error?.message}>
              {(ids) => (
                <select {...ids} {...register("cohort")}>
                  <option value="">{options.isPending ? "Loading cohorts..." : "Choose a cohort"}</option>
                  {options.data?.cohorts.map((cohort) => (
                    <option key={cohort.name} value={cohort.name}>
                      {cohort.name}
                    </option>
                  ))}
                </select>
              )}
            </CheckedField>
          )}
          {kind === "unfinished" && (
            <CheckedField label="Program" hint="Learners who started it and hold no certificate for it." error={errors.program?.message ?? options.error?.message}>
              {(ids) => (
                <select {...ids} {...register("program")}>
                  <option value="">{options.isPending ? "Loading programs..." : "Choose a program"}</option>
                  {options.data?.programs.map((program) => (
                    <option key={program.id} value={program.id}>
                      {program.title}
                    </option>
                  ))}
                </select>
              )}
            </CheckedField>
          )}
        </div>
        <FormMessages error={preview.isError ? preview.error.message : undefined} />
        <div className="announcement-actions">
          <button type="submit" className="button button-secondary" disabled={preview.isPending}>
            {preview.isPending ? "Previewing..." : "Preview"}
          </button>
        </div>
      </form>

      {previewed && (
        <div className="announcement-preview" aria-labelledby="announcement-preview-heading">
          <h3 id="announcement-preview-heading">Preview</h3>
          <FormMessages
            info={stale ? undefined : ANNOUNCEMENT_MESSAGES.reach(recipients)}
            error={stale ? ANNOUNCEMENT_MESSAGES.previewStale : start.isError ? start.error.message : undefined}
          />
          <p className="announcement-preview-subject">
            <strong>Subject:</strong> {previewed.result.email.subject}
          </p>
          {/* The server's own layout, every text in it escaped; a srcdoc frame keeps this page's
              Content-Security-Policy, which runs no inline script. Not sandboxed: the accessibility
              checks (axe) cannot look inside a frame that may not run scripts. */}
          <iframe className="announcement-preview-frame" title="The email as learners receive it" srcDoc={previewed.result.email.html} />
          <p className="muted">{ANNOUNCEMENT_MESSAGES.previewNameNote}</p>
          <details className="announcement-preview-text">
            <summary>Plain-text version</summary>
            <pre>{previewed.result.email.text}</pre>
          </details>
          {!stale && recipients > 0 && (
            <div className="announcement-actions">
              <button type="button" className="button" disabled={start.isPending} onClick={() => setConfirming(true)}>
                {ANNOUNCEMENT_MESSAGES.sendLabel(recipients)}
              </button>
            </div>
          )}
          {!stale && recipients === 0 && <p className="form-error">{ANNOUNCEMENT_MESSAGES.nobody}</p>}
        </div>
      )}

      {confirming && previewed && (
        <ConfirmDialog
          title={ANNOUNCEMENT_MESSAGES.sendTitle}
          message={ANNOUNCEMENT_MESSAGES.sendConfirm(previewed.draft.subject, recipients)}
          confirmLabel={ANNOUNCEMENT_MESSAGES.sendLabel(recipients)}
          busy={start.isPending}
          onConfirm={() => void send()}
          onCancel={() => setConfirming(false)}
        />
      )}
    </section>
  );
}
