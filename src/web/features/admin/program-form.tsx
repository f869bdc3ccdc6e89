// Add New Program / Edit Program, with its modules. A program's id is its track, so a new program
// can only take a track that has none yet, and an existing one never changes it.
import { useEffect, useId, useRef, useState, type ComponentProps, type FormEventHandler } from "react";
import { useForm, useWatch, type UseFormReturn } from "react-hook-form";
import {
  ADMIN_MESSAGES,
  createProgramSchema,
  type AdminProgram,
  type CreateProgramInput,
} from "../../../shared/contracts/admin.ts";
import type { Track } from "../../../shared/plans.ts";
import { FormMessages } from "../../ui/form-messages.tsx";
import { TextAreaField, TextField } from "../../ui/text-field.tsx";
import { notify } from "../../ui/toast.tsx";
import { useSaveProgram, validationMessage } from "./admin-content-api.ts";
import { moduleItem, ModulesEditor, type ModuleItem } from "./modules-editor.tsx";

export const ALL_TRACKS_TAKEN = "All three tracks have a program. Delete one to add another.";

/** The form's fields as typed: numbers and the description list are made on save. */
export type ProgramFormValues = {
  id: string;
  title: string;
  duration: string;
  price: string;
  order: string;
  description: string;
};

function formValues(program: AdminProgram | null): ProgramFormValues {
  if (!program) return { id: "", title: "", duration: "", price: "", order: "", description: "" };
  return {
    id: program.id,
    title: program.title,
    duration: program.duration,
    price: program.priceUsd === null ? "" : String(program.priceUsd),
    order: String(program.order),
    description: program.description.join(", "),
  };
}

/**
 * The Save Program rules (docs/product.md, "Admin console"): id, title and duration required; an
 * empty price or order is null; the description is split on commas and trimmed. Answers the request
 * or the first problem.
 */
export function programRequest(
  values: ProgramFormValues,
  modules: readonly ModuleItem[],
): { program: CreateProgramInput } | { error: string } {
  const id = values.id.trim();
  const title = values.title.trim();
  const duration = values.duration.trim();
  if (id === "" || title === "" || duration === "") return { error: ADMIN_MESSAGES.programRequired };

  const price = values.price.trim();
  const priceUsd = price === "" ? null : Number(price);
  if (priceUsd !== null && !(Number.isFinite(priceUsd) && priceUsd >= 0)) return { error: ADMIN_MESSAGES.priceInvalid };

  const orderText = values.order.trim();
  const order = orderText === "" ? null : Number(orderText);
  if (order !== null && !Number.isInteger(order)) return { error: ADMIN_MESSAGES.orderInvalid };

  const parsed = createProgramSchema.safeParse({
    id,
    title,
    duration,
    priceUsd,
    order,
    description: values.description
      .split(",")
      .map((entry) => entry.trim())
      .filter((entry) => entry !== ""),
    modules: modules.map(({ id: moduleId, title: moduleTitle, description, youtubeId, notes, freePreview }) => ({
      ...(moduleId === undefined ? {} : { id: moduleId }),
      title: moduleTitle,
      description,
      youtubeId,
      notes,
      freePreview,
    })),
  });
  if (!parsed.success) return { error: problemText(parsed.error.issues[0]) };
  return { program: parsed.data };
}

const FIELD_LABELS: Record<string, string> = {
  id: "Program ID",
  title: "Title",
  duration: "Duration",
  priceUsd: "Price",
  order: "Display order",
  description: "Description",
  modules: "Modules",
};

/** The contract's own sentence when it has one; else which field is at fault (the limits). */
function problemText(issue: { code: string; message: string; path: PropertyKey[] } | undefined): string {
  if (!issue) return ADMIN_MESSAGES.programSaveFailed;
  if (Object.values(ADMIN_MESSAGES).some((text) => text === issue.message)) return issue.message;
  const label = FIELD_LABELS[String(issue.path[0])] ?? "A field";
  return issue.code === "too_big" ? `${label} is too long.` : `${label} is not valid.`;
}

type ProgramFormProps = {
  /** The program being edited; null adds a new one. */
  program: AdminProgram | null;
  /** Tracks without a program: the ids a new program may take. */
  freeTracks: readonly Track[];
  /** Set when the admin switched modes: the heading takes the focus, so the change is heard. */
  focusOnMount: boolean;
  /** After a save or Cancel Edit: back to an empty Add New Program form. */
  onDone: () => void;
};

export function ProgramForm({ program, freeTracks, focusOnMount, onDone }: ProgramFormProps) {
  const isEdit = program !== null;
  const formId = useId();
  const headingId = useId();
  const takenNoteId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const form = useForm<ProgramFormValues>({ defaultValues: formValues(program) });
  const [modules, setModules] = useState<ModuleItem[]>(() => program?.modules.map(moduleItem) ?? []);
  const save = useSaveProgram();
  const allTaken = !isEdit && freeTracks.length === 0;
  // The track chosen for a new program, while it is still free: when another admin takes it
  // meanwhile, its option goes and the form says "Choose a track" again, and means it.
  const chosenId = useWatch({ control: form.control, name: "id" });
  const programId = program ? program.id : freeTracks.find((track) => track === chosenId) ?? "";

  useEffect(() => {
    if (focusOnMount) headingRef.current?.focus();
  }, [focusOnMount]);

  const onSubmit = form.handleSubmit(async (values) => {
    if (allTaken) return;
    const request = programRequest({ ...values, id: programId }, modules);
    if ("error" in request) {
      form.setError("root", { message: request.error });
      return;
    }
    try {
      await save.mutateAsync({ isNew: !isEdit, program: request.program });
    } catch (error) {
      const message = validationMessage(error);
      if (message) form.setError("root", { message });
      else notify.error(ADMIN_MESSAGES.programSaveFailed);
      return;
    }
    notify.success(ADMIN_MESSAGES.programSaved);
    onDone();
  });

  const saving = form.formState.isSubmitting;

  return (
    <section className="card program-editor" aria-labelledby={headingId}>
      <h2 id={headingId} ref={headingRef} tabIndex={-1}>
        {isEdit ? "Edit Program" : "Add New Program"}
      </h2>
      {allTaken && (
        <p id={takenNoteId} className="form-info">
          {ALL_TRACKS_TAKEN}
        </p>
      )}
      <fieldset className="plain-fieldset program-editor-body" disabled={allTaken}>
        <legend className="visually-hidden">{isEdit ? "Program details" : "New program details"}</legend>
        <ProgramFields
          form={form}
          formId={formId}
          program={program}
          freeTracks={freeTracks}
          programId={programId}
          allTaken={allTaken}
          onSubmit={(event) => void onSubmit(event)}
        />
        <ModulesEditor
          modules={modules}
          onChange={setModules}
          programId={program?.id ?? null}
          onAttachmentsChange={(moduleId, attachments) =>
            setModules((current) => current.map((module) => (module.id === moduleId ? { ...module, attachments } : module)))
          }
        />
      </fieldset>
      <FormMessages error={form.formState.errors.root?.message} />
      <div className="editor-buttons program-editor-buttons">
        <button
          type="submit"
          form={formId}
          className="button"
          disabled={allTaken || saving}
          aria-describedby={allTaken ? takenNoteId : undefined}
        >
          {saving ? "Saving..." : "Save Program"}
        </button>
        {isEdit && (
          <button type="button" className="button button-secondary" onClick={onDone}>
            Cancel Edit
          </button>
        )}
      </div>
    </section>
  );
}

type ProgramFieldsProps = {
  form: UseFormReturn<ProgramFormValues>;
  formId: string;
  program: AdminProgram | null;
  freeTracks: readonly Track[];
  /** The track shown as chosen: the program's own, or a free one picked for a new program. */
  programId: string;
  allTaken: boolean;
  onSubmit: FormEventHandler<HTMLFormElement>;
};

/** The program's own fields; Save Program, outside the form, submits it by its id. */
function ProgramFields({ form, formId, program, freeTracks, programId, allTaken, onSubmit }: ProgramFieldsProps) {
  const isEdit = program !== null;
  return (
    <form id={formId} className="form program-fields" noValidate onSubmit={onSubmit}>
      <SelectField
        label="Program ID"
        hint={isEdit ? "A program's ID is its track and cannot change." : "A program's ID is its track."}
        disabled={isEdit || allTaken}
        {...form.register("id")}
        value={programId}
      >
        {isEdit ? (
          <option value={program.id}>{program.id}</option>
        ) : (
          <>
            <option value="">{allTaken ? "No track left" : "Choose a track"}</option>
            {freeTracks.map((track) => (
              <option key={track} value={track}>
                {track}
              </option>
            ))}
          </>
        )}
      </SelectField>
      <TextField label="Title" maxLength={200} {...form.register("title")} />
      <TextField label="Duration" hint="e.g. 4 weeks" maxLength={200} {...form.register("duration")} />
      <TextField
        label="Price (USD)"
        hint="Empty for N/A."
        inputMode="decimal"
        autoComplete="off"
        {...form.register("price")}
      />
      <TextField
        label="Display Order"
        hint="Lower comes first; empty means 99."
        inputMode="numeric"
        autoComplete="off"
        {...form.register("order")}
      />
      <TextAreaField
        label="Description (comma-separated)"
        hint="Each comma-separated part is one bullet point."
        className="field-wide"
        rows={3}
        {...form.register("description")}
      />
    </form>
  );
}

type SelectFieldProps = { label: string; hint: string } & Omit<ComponentProps<"select">, "id" | "aria-describedby">;

/** A labelled `<select>` in the look of TextField (the other props go to the select, as there). */
function SelectField({ label, hint, ...select }: SelectFieldProps) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select {...select} id={id} aria-describedby={`${id}-hint`} />
      <small id={`${id}-hint`} className="muted">
        {hint}
      </small>
    </div>
  );
}
