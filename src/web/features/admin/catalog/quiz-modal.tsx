// Manage Quiz: a program's quiz title and questions, edited here and sent whole with Save Quiz.
import { useId, useState, type Ref } from "react";
import { useForm } from "react-hook-form";
import {
  ADMIN_MESSAGES,
  type AdminProgram,
  type AdminQuiz,
  type QuizQuestionInput,
} from "../../../../shared/contracts/admin.ts";
import { QUIZ_RETRY_WAIT } from "../../../../shared/contracts/learning.ts";
import { checkQuestion } from "../../../../shared/quiz.ts";
import { FormMessages } from "../../../ui/form-messages.tsx";
import { Modal } from "../../../ui/modal.tsx";
import { TextAreaField, TextField } from "../../../ui/text-field.tsx";
import { notify } from "../../../ui/toast.tsx";
import { useAdminQuiz, useSaveQuiz, validationMessage } from "./admin-content-api.ts";
import { keyedRow, useEditableList, type Row } from "../editable-list.ts";
import { DraftButtons, EditingMark, RowEditButtons, type DraftFormProps } from "../editable-list-buttons.tsx";

export type QuestionDraft = { question: string; options: string; answer: string; explanation: string };
const EMPTY_DRAFT: QuestionDraft = { question: "", options: "", answer: "", explanation: "" };

/**
 * The question rules of docs/product.md, "Quiz questions" (all three fields; options split on
 * commas and trimmed), and the checks the server makes on Save Quiz, so a wrong option is caught on
 * the question it is in.
 */
export function questionFromDraft(draft: QuestionDraft): { question: QuizQuestionInput } | { error: string } {
  const question = draft.question.trim();
  const options = draft.options
    .split(",")
    .map((option) => option.trim())
    .filter((option) => option !== "");
  const answer = draft.answer.trim();
  const explanation = draft.explanation.trim();
  if (question === "" || options.length === 0 || answer === "") return { error: ADMIN_MESSAGES.questionRequired };
  return checkQuestion(explanation === "" ? { question, options, answer } : { question, options, answer, explanation });
}

type QuestionItem = Row<QuizQuestionInput>;

/**
 * The wait field as the server takes it (docs/product.md, "Quiz attempts"): the default when empty,
 * a whole number of minutes from 0 to a week, undefined otherwise.
 */
export function retryWaitFromField(value: string): number | undefined {
  const text = value.trim();
  if (text === "") return QUIZ_RETRY_WAIT.defaultMinutes;
  const minutes = /^\d+$/.test(text) ? Number(text) : NaN;
  return minutes >= 0 && minutes <= QUIZ_RETRY_WAIT.maxMinutes ? minutes : undefined;
}

/**
 * The Pass mark field as the server takes it (docs/product.md, "Completion and certificates"): null
 * when empty (every question), a whole number from 1 to the questions' count, undefined otherwise.
 */
export function passMarkFromField(value: string, questionCount: number): number | null | undefined {
  const text = value.trim();
  if (text === "") return null;
  const mark = /^\d+$/.test(text) ? Number(text) : NaN;
  return mark >= 1 && mark <= questionCount ? mark : undefined;
}

function questionDraft(item: QuestionItem): QuestionDraft {
  return { question: item.question, options: item.options.join(", "), answer: item.answer, explanation: item.explanation ?? "" };
}

type QuizModalProps = { program: AdminProgram; onClose: () => void };

export function QuizModal({ program, onClose }: QuizModalProps) {
  const quiz = useAdminQuiz(program.id);
  const save = useSaveQuiz(program.id);
  const formId = useId();

  /** Saves the quiz; answers the server's objection to show in the form, if it made one. */
  async function saveQuiz(draft: AdminQuiz): Promise<string | null> {
    try {
      await save.mutateAsync(draft);
    } catch (error) {
      const message = validationMessage(error);
      if (!message) notify.error(ADMIN_MESSAGES.quizSaveFailed);
      return message;
    }
    notify.success(ADMIN_MESSAGES.quizSaved);
    onClose();
    return null;
  }

  return (
    <Modal
      wide
      title={`Manage Quiz for ${program.title}`}
      onClose={onClose}
      actions={
        <>
          <button type="submit" form={formId} className="button" disabled={!quiz.data || save.isPending}>
            {save.isPending ? "Saving..." : "Save Quiz"}
          </button>
          <button type="button" className="button button-secondary" onClick={onClose}>
            Close
          </button>
        </>
      }
    >
      {/* Once loaded, the editor keeps its own copy: a background refetch never overwrites work. */}
      {quiz.data ? (
        <QuizEditor formId={formId} quiz={quiz.data} programTitle={program.title} onSave={saveQuiz} />
      ) : quiz.isError ? (
        <div className="quiz-load-error">
          <p role="alert" className="form-error">
            {quiz.error.message}
          </p>
          <button type="button" className="button button-secondary" onClick={() => void quiz.refetch()}>
            Try again
          </button>
        </div>
      ) : (
        <p role="status">Loading...</p>
      )}
    </Modal>
  );
}

type QuizEditorProps = {
  formId: string;
  quiz: AdminQuiz;
  programTitle: string;
  onSave: (quiz: AdminQuiz) => Promise<string | null>;
};

function QuizEditor({ formId, quiz, programTitle, onSave }: QuizEditorProps) {
  const [questions, setQuestions] = useState<QuestionItem[]>(() => quiz.questions.map(keyedRow));
  const list = useEditableList({
    items: questions,
    onChange: setQuestions,
    emptyDraft: EMPTY_DRAFT,
    firstField: "question",
    toDraft: questionDraft,
  });
  const { draft, editingKey } = list;
  const quizForm = useForm<{ title: string; passMark: string; retryWait: string }>({
    defaultValues: {
      title: quiz.title,
      passMark: quiz.passMark?.toString() ?? "",
      retryWait: String(quiz.retryWaitMinutes ?? QUIZ_RETRY_WAIT.defaultMinutes),
    },
  });

  const saveQuiz = quizForm.handleSubmit(async ({ title, passMark, retryWait }) => {
    const mark = passMarkFromField(passMark, questions.length);
    if (mark === undefined) {
      quizForm.setError("root", { message: ADMIN_MESSAGES.passMarkInvalid });
      return;
    }
    const retryWaitMinutes = retryWaitFromField(retryWait);
    if (retryWaitMinutes === undefined) {
      quizForm.setError("root", { message: ADMIN_MESSAGES.retryWaitInvalid });
      return;
    }
    const problem = await onSave({
      title: title.trim(),
      questions: questions.map(({ question, options, answer, explanation }) =>
        explanation ? { question, options, answer, explanation } : { question, options, answer },
      ),
      passMark: mark,
      retryWaitMinutes,
    });
    if (problem) quizForm.setError("root", { message: problem });
  });

  const submitQuestion = draft.handleSubmit((values) => {
    const result = questionFromDraft(values);
    if ("error" in result) {
      draft.setError("root", { message: result.error });
      return;
    }
    list.save(result.question);
  });

  return (
    <div className="quiz-editor">
      <form id={formId} className="form" noValidate onSubmit={(event) => void saveQuiz(event)}>
        <TextField
          label="Quiz Title"
          hint={`Empty means "${programTitle} Quiz".`}
          maxLength={200}
          {...quizForm.register("title")}
        />
        <TextField
          label="Pass mark"
          hint={`Questions a learner must get right to pass, from 1 to ${questions.length}. Empty means all of them.`}
          inputMode="numeric"
          autoComplete="off"
          maxLength={3}
          {...quizForm.register("passMark")}
        />
        <TextField
          label="Wait before a new attempt (minutes)"
          hint={`After an attempt that did not pass. Empty means ${QUIZ_RETRY_WAIT.defaultMinutes}; 0 lets a learner try again at once.`}
          inputMode="numeric"
          autoComplete="off"
          maxLength={5}
          {...quizForm.register("retryWait")}
        />
      </form>

      <QuestionForm
        draft={draft}
        editing={editingKey !== null}
        onSubmit={(event) => void submitQuestion(event)}
        onCancel={list.cancelEdit}
      />

      <h3 className="quiz-questions-heading">Questions ({questions.length})</h3>
      {/* Focusable, so that keyboard users can scroll it too. */}
      <div className="admin-question-list" role="region" aria-label="Quiz questions" tabIndex={0}>
        {questions.length === 0 ? (
          <p className="muted">No questions yet.</p>
        ) : (
          <ol>
            {questions.map((item, index) => (
              <QuestionRow
                key={item.key}
                item={item}
                position={index + 1}
                editing={item.key === editingKey}
                editRef={list.rowButtonRef(item.key, "edit")}
                onEdit={() => list.edit(item)}
                onDelete={() => list.remove(index)}
              />
            ))}
          </ol>
        )}
      </div>
      <FormMessages error={quizForm.formState.errors.root?.message} />
    </div>
  );
}

/** Add question, or Edit question while a row is being edited. */
function QuestionForm({ draft, editing, onSubmit, onCancel }: DraftFormProps<QuestionDraft>) {
  return (
    <form
      className="form quiz-question-form"
      noValidate
      onSubmit={onSubmit}
      aria-label={editing ? "Edit question" : "Add question"}
    >
      <TextAreaField label="Question" rows={2} maxLength={1000} {...draft.register("question")} />
      <TextField label="Options (comma-separated)" hint="e.g. A) Buy, B) Sell, C) Hold" {...draft.register("options")} />
      <TextField
        label="Answer"
        hint="The letter of the correct option, e.g. A"
        autoComplete="off"
        maxLength={500}
        {...draft.register("answer")}
      />
      <TextAreaField
        label="Explanation (optional)"
        hint="Shown to a learner once they answer. Options change order between attempts: name an option by its letter or words, not its place."
        rows={2}
        maxLength={2000}
        {...draft.register("explanation")}
      />
      <FormMessages error={draft.formState.errors.root?.message} />
      <DraftButtons noun="Question" editing={editing} onCancel={onCancel} />
    </form>
  );
}

type QuestionRowProps = {
  item: QuestionItem;
  /** From 1: the buttons name the question by it. */
  position: number;
  editing: boolean;
  editRef: Ref<HTMLButtonElement>;
  onEdit: () => void;
  onDelete: () => void;
};

function QuestionRow({ item, position, editing, editRef, onEdit, onDelete }: QuestionRowProps) {
  return (
    <li className={editing ? "admin-question is-editing" : "admin-question"}>
      <p className="admin-question-text">
        {item.question}
        {editing && <EditingMark />}
      </p>
      <ul className="admin-question-options">
        {item.options.map((option, optionIndex) => (
          <li key={optionIndex}>{option}</li>
        ))}
      </ul>
      <p className="admin-question-answer">
        Answer: <strong>{item.answer}</strong>
      </p>
      {item.explanation && <p className="admin-question-explanation">Explanation: {item.explanation}</p>}
      <div className="admin-question-actions">
        <RowEditButtons name={`question ${position}`} editRef={editRef} onEdit={onEdit} onDelete={onDelete} />
      </div>
    </li>
  );
}
