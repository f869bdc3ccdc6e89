// The quiz under the first video (docs/product.md, "Track page" and "Quiz attempts"): locked until
// that video is watched, then each option is checked by the server and the latest answer per
// question is shown, with the question's explanation. The server scores each attempt on the first
// answer to each question; once every question is answered the panel says the score, and after an
// attempt that did not pass, the questions to review and when a new attempt may start.
import { useEffect, useId, useRef } from "react";
import { LEARNING_MESSAGES, type LearnerQuiz, type QuizAttempt } from "../../../shared/contracts/learning.ts";
import { waitInWords } from "../../../shared/quiz-attempts.ts";
import { optionLetterOrPosition } from "../../../shared/quiz-option.ts";
import { useTimeLeft } from "../../lib/time-left.ts";
import { MarkIcon } from "../../ui/mark-icon.tsx";
import { useAnswerQuestion, useNewAttempt } from "./learning-api.ts";

export function QuizPanel({ quiz, track }: { quiz: LearnerQuiz; track: string }) {
  const titleId = useId();
  const current = quiz.attempts.at(-1);
  const rulesRef = useRef<HTMLParagraphElement>(null);
  const shownAttempt = useRef(current?.number);
  // A new attempt replaces the result the learner was on: the focus goes to its first line.
  useEffect(() => {
    const number = current?.number;
    if (number !== undefined && shownAttempt.current !== undefined && number > shownAttempt.current) rulesRef.current?.focus();
    shownAttempt.current = number;
  }, [current?.number]);
  return (
    <section className="quiz-panel" aria-labelledby={titleId}>
      <h3 id={titleId}>{quiz.title}</h3>
      {quiz.unlocked ? (
        <>
          <p className="quiz-rules" ref={rulesRef} tabIndex={-1}>
            {current && current.number > 1 ? `Attempt ${current.number}. ` : ""}
            To pass, get {quiz.passMark} of {quiz.questions.length} right on your first try at each question.
          </p>
          <ol className="quiz-questions">
            {quiz.questions.map((question, index) => (
              <QuizQuestion
                key={`${current?.number ?? 1}-${index}`}
                track={track}
                index={index}
                question={question}
                answer={quiz.answers.find((answer) => answer.questionIndex === index)}
              />
            ))}
          </ol>
          {current?.finished && <AttemptResult quiz={quiz} attempt={current} track={track} />}
          {quiz.attempts.some((attempt) => attempt.finished) && <AttemptHistory attempts={quiz.attempts} />}
        </>
      ) : (
        <p className="quiz-locked">
          <svg aria-hidden="true" viewBox="0 0 24 24" width="20" height="20">
            <path
              d="M7 10V7a5 5 0 0 1 10 0v3h1a1 1 0 0 1 1 1v9a1 1 0 0 1-1 1H6a1 1 0 0 1-1-1v-9a1 1 0 0 1 1-1h1zm2 0h6V7a3 3 0 0 0-6 0v3z"
              fill="currentColor"
            />
          </svg>
          {LEARNING_MESSAGES.quizLocked(quiz.section)}
        </p>
      )}
    </section>
  );
}

function questionAnchor(index: number): string {
  return `quiz-question-${index + 1}`;
}

function QuizQuestion(props: {
  track: string;
  index: number;
  question: LearnerQuiz["questions"][number];
  answer: LearnerQuiz["answers"][number] | undefined;
}) {
  const { index, question, answer } = props;
  const submit = useAnswerQuestion(props.track);
  const questionId = useId();
  const pending = submit.isPending;

  function choose(option: string) {
    // aria-disabled rather than disabled keeps the focus on the option while the server checks it.
    if (pending) return;
    submit.mutate({ questionIndex: index, option });
  }

  return (
    <li className="quiz-question" id={questionAnchor(index)}>
      <p id={questionId} className="quiz-question-text">
        {question.question}
      </p>
      <div role="group" aria-labelledby={questionId} aria-busy={pending} className="quiz-options">
        {/* In the attempt's order; each option keeps its own letter, which the answer names. */}
        {question.options.map((option, optionIndex) => {
          const letter = optionLetterOrPosition(option, optionIndex);
          const chosen = answer?.option === letter;
          const verdict = chosen ? (answer.correct ? " is-correct" : " is-incorrect") : "";
          return (
            <button
              key={letter}
              type="button"
              className={`quiz-option${verdict}`}
              aria-pressed={chosen}
              aria-disabled={pending || undefined}
              onClick={() => choose(letter)}
            >
              {option}
            </button>
          );
        })}
      </div>
      <div role="status" className="quiz-result">
        {answer && <Verdict correct={answer.correct} />}
      </div>
      {answer && question.explanation && <p className="quiz-explanation">{question.explanation}</p>}
    </li>
  );
}

function Verdict({ correct }: { correct: boolean }) {
  return (
    <span className={correct ? "verdict verdict-correct" : "verdict verdict-incorrect"}>
      <MarkIcon mark={correct ? "tick" : "cross"} />
      {correct ? LEARNING_MESSAGES.correct : LEARNING_MESSAGES.incorrect}
    </span>
  );
}

/** The finished attempt: its score, and after one that did not pass, what to review and what next. */
function AttemptResult({ quiz, attempt, track }: { quiz: LearnerQuiz; attempt: QuizAttempt; track: string }) {
  const headingId = useId();
  const newAttempt = useNewAttempt(track);
  const timeLeft = useTimeLeft(quiz.nextAttemptAt);
  const passedBefore = quiz.attempts.some((other) => other.passed && other.number !== attempt.number);
  const score = LEARNING_MESSAGES.score(attempt.score, attempt.total);
  const waiting = timeLeft !== null && timeLeft > 0;
  const { reset } = newAttempt;
  // A refusal said how long was left; once the wait is over it no longer holds.
  useEffect(() => {
    if (!waiting) reset();
  }, [waiting, reset]);
  if (attempt.passed || passedBefore) {
    return (
      <div className="quiz-outcome quiz-outcome-passed" role="status">
        <p className="quiz-outcome-score">
          {score} {attempt.passed ? "You passed the quiz." : "You passed the quiz in an earlier attempt."}
        </p>
      </div>
    );
  }
  return (
    <section className="quiz-outcome quiz-outcome-failed" aria-labelledby={headingId}>
      <h4 id={headingId} className="quiz-outcome-score">
        {score} You need {quiz.passMark} to pass.
      </h4>
      {attempt.review.length > 0 && (
        <>
          <p>Review these questions, then try again:</p>
          <ul className="quiz-review">
            {attempt.review.map((index) => (
              <li key={index}>
                <a href={`#${questionAnchor(index)}`}>
                  Question {index + 1}: {quiz.questions[index]?.question}
                </a>
              </li>
            ))}
          </ul>
        </>
      )}
      <p className="quiz-next" role="status">
        {newAttempt.error
          ? newAttempt.error.message
          : waiting
            ? LEARNING_MESSAGES.attemptTooSoon(waitInWords(timeLeft))
            : "You can start a new attempt now. The options will be in a new order."}
      </p>
      <button
        type="button"
        className="button"
        aria-disabled={newAttempt.isPending || undefined}
        onClick={() => {
          if (!newAttempt.isPending) newAttempt.mutate();
        }}
      >
        Start a new attempt
      </button>
    </section>
  );
}

function attemptResultText(attempt: QuizAttempt): string {
  if (!attempt.finished) return "In progress";
  return attempt.passed ? "Passed" : "Not passed";
}

/** Every attempt, with its score (docs/product.md, "Quiz attempts"). */
function AttemptHistory({ attempts }: { attempts: readonly QuizAttempt[] }) {
  const captionId = useId();
  return (
    <div className="quiz-history">
      <table aria-labelledby={captionId}>
        <caption id={captionId}>Your attempts</caption>
        <thead>
          <tr>
            <th scope="col">Attempt</th>
            <th scope="col">Score</th>
            <th scope="col">When</th>
          </tr>
        </thead>
        <tbody>
          {attempts.map((attempt) => (
            <tr key={attempt.number}>
              <th scope="row">{attempt.number}</th>
              <td>
                {attempt.score} of {attempt.total}
                {/* The result under the score: three columns fit a phone. */}
                <span className="quiz-history-result">{attemptResultText(attempt)}</span>
              </td>
              <td>{new Date(attempt.finishedAt ?? attempt.startedAt).toLocaleString([], { dateStyle: "medium", timeStyle: "short" })}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
