// The quiz under the first video (docs/product.md, "Track page"): locked until that video is
// watched, then each option is checked by the server and the latest answer per question is shown.
import { useId } from "react";
import { LEARNING_MESSAGES, type LearnerQuiz } from "../../../shared/contracts/learning.ts";
import { optionLetterOrPosition } from "../../../shared/quiz-option.ts";
import { MarkIcon } from "../../ui/mark-icon.tsx";
import { useAnswerQuestion } from "./learning-api.ts";

export function QuizPanel({ quiz, track }: { quiz: LearnerQuiz; track: string }) {
  const titleId = useId();
  return (
    <section className="quiz-panel" aria-labelledby={titleId}>
      <h3 id={titleId}>{quiz.title}</h3>
      {quiz.unlocked ? (
        <ol className="quiz-questions">
          {quiz.questions.map((question, index) => (
            <QuizQuestion
              key={index}
              track={track}
              index={index}
              question={question}
              answer={quiz.answers.find((answer) => answer.questionIndex === index)}
            />
          ))}
        </ol>
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
    <li className="quiz-question">
      <p id={questionId} className="quiz-question-text">
        {question.question}
      </p>
      <div role="group" aria-labelledby={questionId} aria-busy={pending} className="quiz-options">
        {question.options.map((option, optionIndex) => {
          const letter = optionLetterOrPosition(option, optionIndex);
          const chosen = answer?.option === letter;
          const verdict = chosen ? (answer.correct ? " is-correct" : " is-incorrect") : "";
          return (
            <button
              key={optionIndex}
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
