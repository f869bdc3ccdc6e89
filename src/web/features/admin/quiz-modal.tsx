// Manage Quiz: a program's quiz title and questions, edited here and sent whole with Save Quiz.
import { useId, useRef, useState } from "react";
import { flushSync } from "react-dom";
import { useForm } from "react-hook-form";
import {
  ADMIN_MESSAGES,
  type AdminProgram,
  type AdminQuiz,
  type QuizQuestionInput,
} from "../../../shared/contracts/admin.ts";
import { checkQuestion } from "../../../shared/quiz.ts";
import { FormMessages } from "../../ui/form-messages.tsx";
import { Modal } from "../../ui/modal.tsx";
import { TextAreaField, TextField } from "../../ui/text-field.tsx";
import { notify } from "../../ui/toast.tsx";
import { useAdminQuiz, useSaveQuiz, validationMessage } from "./admin-content-api.ts";

export type QuestionDraft = { question: string; options: string; answer: string };
// A reset keeps hold of the inputs, so that setFocus can reach them at once.
const KEEP_FIELDS = { keepFieldsRef: true };
const EMPTY_DRAFT: QuestionDraft = { question: "", options: "", answer: "" };

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
  if (question === "" || options.length === 0 || answer === "") return { error: ADMIN_MESSAGES.questionRequired };
  return checkQuestion({ question, options, answer });
}

type QuestionItem = QuizQuestionInput & { key: number };

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
  const [questions, setQuestions] = useState<QuestionItem[]>(() =>
    quiz.questions.map((question, index) => ({ ...question, key: index })),
  );
  const [editingKey, setEditingKey] = useState<number | null>(null);
  const editButtons = useRef(new Map<number, HTMLButtonElement>());
  const quizForm = useForm<{ title: string }>({ defaultValues: { title: quiz.title } });
  const draft = useForm<QuestionDraft>({ defaultValues: EMPTY_DRAFT });

  const saveQuiz = quizForm.handleSubmit(async ({ title }) => {
    const problem = await onSave({
      title: title.trim(),
      questions: questions.map(({ question, options, answer }) => ({ question, options, answer })),
    });
    if (problem) quizForm.setError("root", { message: problem });
  });

  function stopEditing() {
    setEditingKey(null);
    draft.reset(EMPTY_DRAFT, KEEP_FIELDS);
  }

  const submitQuestion = draft.handleSubmit((values) => {
    const result = questionFromDraft(values);
    if ("error" in result) {
      draft.setError("root", { message: result.error });
      return;
    }
    if (editingKey === null) {
      const key = Math.max(-1, ...questions.map((item) => item.key)) + 1;
      setQuestions([...questions, { ...result.question, key }]);
    } else {
      setQuestions(questions.map((item) => (item.key === editingKey ? { ...result.question, key: item.key } : item)));
    }
    stopEditing();
    draft.setFocus("question");
  });

  function edit(item: QuestionItem) {
    setEditingKey(item.key);
    draft.reset({ question: item.question, options: item.options.join(", "), answer: item.answer }, KEEP_FIELDS);
    draft.setFocus("question");
  }

  function cancelEdit() {
    stopEditing();
    draft.setFocus("question");
  }

  function remove(index: number) {
    const item = questions[index];
    if (!item) return;
    if (item.key === editingKey) stopEditing();
    // Rendered at once, so that the focus can land on the question that takes its place.
    flushSync(() => setQuestions(questions.filter((other) => other.key !== item.key)));
    const neighbour = questions[index + 1] ?? questions[index - 1];
    if (neighbour) editButtons.current.get(neighbour.key)?.focus();
    else draft.setFocus("question");
  }

  return (
    <div className="quiz-editor">
      <form id={formId} noValidate onSubmit={saveQuiz}>
        <TextField
          label="Quiz Title"
          hint={`Empty means "${programTitle} Quiz".`}
          maxLength={200}
          {...quizForm.register("title")}
        />
      </form>

      <form
        className="form quiz-question-form"
        noValidate
        onSubmit={submitQuestion}
        aria-label={editingKey === null ? "Add question" : "Edit question"}
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
        <FormMessages error={draft.formState.errors.root?.message} />
        <div className="editor-buttons">
          <button type="submit" className="button button-secondary">
            {editingKey === null ? "Add Question" : "Update Question"}
          </button>
          {editingKey !== null && (
            <button type="button" className="button button-secondary" onClick={cancelEdit}>
              Cancel Edit
            </button>
          )}
        </div>
      </form>

      <h3 className="quiz-questions-heading">Questions ({questions.length})</h3>
      {/* Focusable, so that keyboard users can scroll it too. */}
      <div className="admin-question-list" role="region" aria-label="Quiz questions" tabIndex={0}>
        {questions.length === 0 ? (
          <p className="muted">No questions yet.</p>
        ) : (
          <ol>
            {questions.map((item, index) => (
              <li key={item.key} className={item.key === editingKey ? "admin-question is-editing" : "admin-question"}>
                <p className="admin-question-text">
                  {item.question}
                  {item.key === editingKey && <span className="admin-module-editing"> (editing)</span>}
                </p>
                <ul className="admin-question-options">
                  {item.options.map((option, optionIndex) => (
                    <li key={optionIndex}>{option}</li>
                  ))}
                </ul>
                <p className="admin-question-answer">
                  Answer: <strong>{item.answer}</strong>
                </p>
                <div className="admin-question-actions">
                  <button
                    type="button"
                    ref={(button) => {
                      if (button) editButtons.current.set(item.key, button);
                      else editButtons.current.delete(item.key);
                    }}
                    className="button button-secondary button-small"
                    onClick={() => edit(item)}
                    aria-label={`Edit question ${index + 1}`}
                  >
                    Edit
                  </button>
                  <button
                    type="button"
                    className="button button-secondary-danger button-small"
                    onClick={() => remove(index)}
                    aria-label={`Delete question ${index + 1}`}
                  >
                    Delete
                  </button>
                </div>
              </li>
            ))}
          </ol>
        )}
      </div>
      <FormMessages error={quizForm.formState.errors.root?.message} />
    </div>
  );
}
