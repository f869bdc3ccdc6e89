// Add New Program / Edit Program, with its modules. A new program gets an id (its address,
// /program/{id}) and a level, the plans that open it; neither changes afterwards (docs/data.md,
// "Content").
import { useEffect, useId, useRef, useState, type FormEventHandler } from "react";
import { useForm, useWatch, type UseFormReturn } from "react-hook-form";
import {
  ADMIN_MESSAGES,
  createProgramSchema,
  programIdProblem,
  type AdminProgram,
  type CreateProgramInput,
} from "../../../../shared/contracts/admin.ts";
import { EXERCISE_MESSAGES } from "../../../../shared/contracts/exercises.ts";
import { TRACKS, type Track } from "../../../../shared/plans.ts";
import { FormMessages } from "../../../ui/form-messages.tsx";
import { SelectField, TextAreaField, TextField } from "../../../ui/text-field.tsx";
import { notify } from "../../../ui/toast.tsx";
import { useSaveProgram, validationMessage } from "./admin-content-api.ts";
import { moduleItem, ModulesEditor, type ModuleItem } from "./modules-editor.tsx";

export const LEVEL_LABELS: Record<Track, string> = {
  beginner: "Beginner (free)",
  intermediate: "Intermediate",
  advanced: "Advanced",
};

/** The form's fields as typed: numbers and the description list are made on save. */
export type ProgramFormValues = {
  id: string;
  /** "" until chosen. */
  level: Track | "";
  title: string;
  duration: string;
  price: string;
  order: string;
  description: string;
};

function formValues(program: AdminProgram | null): ProgramFormValues {
  if (!program) return { id: "", level: "", title: "", duration: "", price: "", order: "", description: "" };
  return {
    id: program.id,
    level: program.level,
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
  const idProblem = programIdProblem(id);
  if (idProblem) return { error: idProblem };
  if (values.level === "") return { error: ADMIN_MESSAGES.levelRequired };

  const price = values.price.trim();
  const priceUsd = price === "" ? null : Number(price);
  if (priceUsd !== null && !(Number.isFinite(priceUsd) && priceUsd >= 0)) return { error: ADMIN_MESSAGES.priceInvalid };

  const orderText = values.order.trim();
  const order = orderText === "" ? null : Number(orderText);
  if (order !== null && !Number.isInteger(order)) return { error: ADMIN_MESSAGES.orderInvalid };

  const parsed = createProgramSchema.safeParse({
    id,
    level: values.level,
    title,
    duration,
    priceUsd,
    order,
    description: values.description
      .split(",")
      .map((entry) => entry.trim())
      .filter((entry) => entry !== ""),
    modules: modules.map(({ id: moduleId, title: moduleTitle, description, youtubeId, notes, freePreview, exercise }) => ({
      ...(moduleId === undefined ? {} : { id: moduleId }),
      title: moduleTitle,
      description,
      youtubeId,
      notes,
      freePreview,
      // A chart exercise's settings (docs/trading.md, "Exercises"); null for a lesson to watch or read.
      exercise,
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
  if ([...Object.values(ADMIN_MESSAGES), ...Object.values(EXERCISE_MESSAGES)].some((text) => text === issue.message)) return issue.message;
  const label = FIELD_LABELS[String(issue.path[0])] ?? "A field";
  return issue.code === "too_big" ? `${label} is too long.` : `${label} is not valid.`;
}

type ProgramFormProps = {
  /** The program being edited; null adds a new one. */
  program: AdminProgram | null;
  /** Set when the admin switched modes: the heading takes the focus, so the change is heard. */
  focusOnMount: boolean;
  /** After a save or Cancel Edit: back to an empty Add New Program form. */
  onDone: () => void;
};

export function ProgramForm({ program, focusOnMount, onDone }: ProgramFormProps) {
  const isEdit = program !== null;
  const formId = useId();
  const headingId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const form = useForm<ProgramFormValues>({ defaultValues: formValues(program) });
  const [modules, setModules] = useState<ModuleItem[]>(() => program?.modules.map(moduleItem) ?? []);
  const save = useSaveProgram();

  useEffect(() => {
    if (focusOnMount) headingRef.current?.focus();
  }, [focusOnMount]);

  const onSubmit = form.handleSubmit(async (values) => {
    const request = programRequest(program ? { ...values, id: program.id, level: program.level } : values, modules);
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
      <div className="plain-fieldset program-editor-body">
        <legend className="visually-hidden">{isEdit ? "Program details" : "New program details"}</legend>
        <ProgramFields form={form} formId={formId} program={program} onSubmit={(event) => void onSubmit(event)} />
        <ModulesEditor
          modules={modules}
          onChange={setModules}
          programId={program?.id ?? null}
          onAttachmentsChange={(moduleId, attachments) =>
            setModules((current) => current.map((module) => (module.id === moduleId ? { ...module, attachments } : module)))
          }
        />
      </div>
      <FormMessages error={form.formState.errors.root?.message} />
      <div className="editor-buttons program-editor-buttons">
        <button type="submit" form={formId} className="button" disabled={saving}>
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
  onSubmit: FormEventHandler<HTMLFormElement>;
};

/** The program's own fields; Save Program, outside the form, submits it by its id. */
function ProgramFields({ form, formId, program, onSubmit }: ProgramFieldsProps) {
  const isEdit = program !== null;
  const id = useWatch({ control: form.control, name: "id" }).trim();
  return (
    <form id={formId} className="form program-fields" noValidate onSubmit={onSubmit}>
      <TextField
        label="Program ID"
        hint={
          isEdit
            ? `Its address, /program/${program.id}; it cannot change.`
            : `Its address: /program/${id === "" ? "your-program-id" : id}. Lowercase letters, digits and hyphens.`
        }
        disabled={isEdit}
        maxLength={60}
        autoComplete="off"
        spellCheck={false}
        {...form.register("id")}
      />
      <SelectField
        label="Level"
        hint={isEdit ? "The plans that open it; it cannot change." : "Beginner is free; a paid plan opens its level and those below."}
        disabled={isEdit}
        {...form.register("level")}
      >
        <option value="">Choose a level</option>
        {TRACKS.map((level) => (
          <option key={level} value={level}>
            {LEVEL_LABELS[level]}
          </option>
        ))}
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

