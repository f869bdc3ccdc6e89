// Questions under a lesson, the community forum (docs/product.md, "Questions and mentorship"):
// learners of the track ask and answer, administrators (the Academy team) also pin and remove.
// Pinned questions come first, then the newest, a page at a time ("Show more questions").
import { zodResolver } from "@hookform/resolvers/zod";
import { useId, useState, type ReactNode } from "react";
import { useForm } from "react-hook-form";
import {
  answerRequestSchema,
  questionRequestSchema,
  SUPPORT_LIMITS,
  SUPPORT_MESSAGES,
  type LessonAnswer,
  type LessonQuestion,
  type PostRequest,
} from "../../../shared/contracts/support.ts";
import { ApiRequestError, GENERIC_ERROR_MESSAGE } from "../../lib/api.ts";
import { useSignedInUser } from "../../session/session.ts";
import { FormMessages } from "../../ui/form-messages.tsx";
import { ConfirmDialog } from "../../ui/modal.tsx";
import { TextAreaField } from "../../ui/text-field.tsx";
import { useAnswerQuestion, useAskQuestion, useLessonQuestions, useModerateQuestion } from "./questions-api.ts";
import "./questions.css";

/** The server's words for a refusal a person can act on (too long, too often, not open), else a general one. */
function refusal(error: unknown): string {
  return error instanceof ApiRequestError && error.status >= 400 && error.status < 500 ? error.message : GENERIC_ERROR_MESSAGE;
}

function formatPosted(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

export function LessonQuestions({ track, moduleId }: { track: string; moduleId: string }) {
  const questions = useLessonQuestions(track, moduleId);
  const ask = useAskQuestion(track, moduleId);
  const headingId = useId();
  const shown = questions.data?.pages.flatMap((page) => page.questions) ?? [];

  return (
    <section className="lesson-questions" aria-labelledby={headingId}>
      <h2 id={headingId}>Questions about this lesson</h2>
      <p className="muted">
        Ask the Academy team and the other learners of this program. We email you when someone answers.
      </p>
      <PostForm
        label="Your question"
        submitLabel="Post question"
        schema={questionRequestSchema}
        success={SUPPORT_MESSAGES.questionPosted}
        onPost={(body) => ask.mutateAsync(body)}
      />
      {questions.isPending ? (
        <p role="status" className="muted">
          {SUPPORT_MESSAGES.questionsLoading}
        </p>
      ) : questions.isError && shown.length === 0 ? (
        <div role="alert" className="form-error load-error">
          <span>{refusal(questions.error)}</span>
          <button type="button" className="button button-secondary button-small" onClick={() => void questions.refetch()}>
            Try again
          </button>
        </div>
      ) : shown.length === 0 ? (
        <p className="muted">{SUPPORT_MESSAGES.noQuestions}</p>
      ) : (
        <ol className="question-list">
          {shown.map((question) => (
            <li key={question.id}>
              <QuestionThread question={question} />
            </li>
          ))}
        </ol>
      )}
      {questions.hasNextPage && (
        <button
          type="button"
          className="button button-secondary"
          disabled={questions.isFetchingNextPage}
          onClick={() => void questions.fetchNextPage()}
        >
          {questions.isFetchingNextPage ? "Loading..." : "Show more questions"}
        </button>
      )}
    </section>
  );
}

type ThreadProps = {
  question: LessonQuestion;
  /** What goes above the question (the admin's list names the lesson and the asker). */
  context?: ReactNode;
  /** Called after any change, besides the lessons' questions reloading. */
  onChanged?: () => unknown;
};

/** One question with its answers, the answer form and, for administrators, pin and remove. */
export function QuestionThread({ question, context, onChanged }: ThreadProps) {
  const { user } = useSignedInUser();
  const moderate = user?.isAdmin ?? false;
  const answer = useAnswerQuestion(question.id, onChanged);
  const moderation = useModerateQuestion(question.id, onChanged);
  const [answering, setAnswering] = useState(false);
  const [toRemove, setToRemove] = useState<{ answer: LessonAnswer } | { question: LessonQuestion } | null>(null);

  async function remove() {
    if (!toRemove) return;
    const change = "answer" in toRemove ? { action: "removeAnswer" as const, answerId: toRemove.answer.id } : { action: "remove" as const };
    await moderation.mutateAsync(change).catch(() => undefined);
    setToRemove(null);
  }

  return (
    <article className={question.pinned ? "question-thread is-pinned" : "question-thread"}>
      {context}
      <Post post={question} badges={question.pinned ? <span className="post-badge post-badge-pinned">{SUPPORT_MESSAGES.pinned}</span> : null} />
      {moderate && (
        <div className="post-actions">
          <button
            type="button"
            className="button button-secondary button-small"
            disabled={moderation.isPending}
            onClick={() => moderation.mutate({ action: question.pinned ? "unpin" : "pin" })}
          >
            {question.pinned ? "Unpin" : "Pin"}
          </button>
          <button type="button" className="button button-secondary button-small" onClick={() => setToRemove({ question })}>
            Remove question
          </button>
        </div>
      )}
      {moderation.isError && (
        <p role="alert" className="form-error">
          {refusal(moderation.error)}
        </p>
      )}
      {question.answers.length > 0 && (
        <ul className="answer-list" aria-label={`Answers (${question.answers.length})`}>
          {question.answers.map((reply) => (
            <li key={reply.id}>
              <Post post={reply} />
              {moderate && (
                <button type="button" className="button button-secondary button-small" onClick={() => setToRemove({ answer: reply })}>
                  Remove answer
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {answering ? (
        <PostForm
          label="Your answer"
          submitLabel="Post answer"
          schema={answerRequestSchema}
          onPost={async (body) => {
            await answer.mutateAsync(body);
            setAnswering(false);
          }}
          onCancel={() => setAnswering(false)}
        />
      ) : (
        <button type="button" className="button button-secondary button-small" onClick={() => setAnswering(true)}>
          Answer
        </button>
      )}
      {toRemove && (
        <ConfirmDialog
          title={"answer" in toRemove ? "Remove this answer?" : "Remove this question?"}
          message={"answer" in toRemove ? SUPPORT_MESSAGES.removeAnswerConfirm : SUPPORT_MESSAGES.removeQuestionConfirm}
          confirmLabel={moderation.isPending ? "Removing..." : "Remove"}
          busy={moderation.isPending}
          onConfirm={() => void remove()}
          onCancel={() => setToRemove(null)}
        />
      )}
    </article>
  );
}

function Post({ post, badges }: { post: LessonAnswer; badges?: ReactNode }) {
  return (
    <div className={post.staff ? "post is-staff" : "post"}>
      <p className="post-meta">
        <span className="post-author">{post.author}</span>
        {post.staff && <span className="post-badge post-badge-staff">{SUPPORT_MESSAGES.staff}</span>}
        {badges}
        <time dateTime={post.createdAt}>{formatPosted(post.createdAt)}</time>
      </p>
      <p className="post-body">{post.body}</p>
    </div>
  );
}

type PostFormProps = {
  label: string;
  submitLabel: string;
  schema: typeof questionRequestSchema | typeof answerRequestSchema;
  /** Said once posted, until the next post. */
  success?: string;
  onPost: (body: string) => Promise<unknown>;
  onCancel?: () => void;
};

/** A question or an answer: one text of up to 2,000 characters, checked here and again by the server. */
function PostForm({ label, submitLabel, schema, success, onPost, onCancel }: PostFormProps) {
  const form = useForm<PostRequest>({ resolver: zodResolver(schema), defaultValues: { body: "" } });
  const [serverError, setServerError] = useState<string>();
  const [posted, setPosted] = useState(false);
  const fieldError = form.formState.errors.body?.message;
  const sending = form.formState.isSubmitting;

  const onSubmit = form.handleSubmit(async ({ body }) => {
    setServerError(undefined);
    setPosted(false);
    try {
      await onPost(body);
      form.reset();
      setPosted(true);
    } catch (error) {
      setServerError(refusal(error));
    }
  });

  return (
    <form className="form post-form" noValidate onSubmit={(event) => void onSubmit(event)}>
      <TextAreaField
        label={label}
        rows={3}
        maxLength={SUPPORT_LIMITS.post}
        hint={`Up to ${SUPPORT_LIMITS.post.toLocaleString("en-US")} characters.`}
        aria-invalid={fieldError ? true : undefined}
        {...form.register("body")}
      />
      <FormMessages error={fieldError ?? serverError} success={posted ? success : undefined} />
      <div className="post-form-buttons">
        <button type="submit" className="button button-small" disabled={sending}>
          {sending ? "Posting..." : submitLabel}
        </button>
        {onCancel && (
          <button type="button" className="button button-secondary button-small" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
