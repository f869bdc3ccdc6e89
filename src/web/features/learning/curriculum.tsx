// The course's table of contents (docs/product.md, "Lesson player"): every lesson in order with its
// watched mark, the quiz under the first lesson with its state, the current lesson marked
// (aria-current). A sidebar on a wide screen; on a phone, folded away under "Course content
// (n of m watched)" and folded again once a lesson is chosen.
import { useId, useState, useSyncExternalStore, type ReactNode } from "react";
import { Link } from "react-router";
import type { LearnerQuiz, TrackDetail } from "../../../shared/contracts/learning.ts";
import { lessonTitle } from "../../../shared/learning.ts";
import { lessonPath, QUIZ_ANCHOR, quizState, type QuizState } from "./course.ts";

/** From this width the curriculum sits beside the lesson (track.css says the same). */
const SIDEBAR_QUERY = "(min-width: 900px)";

function subscribeToSidebarQuery(onChange: () => void) {
  const query = window.matchMedia(SIDEBAR_QUERY);
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
}

function useSidebar(): boolean {
  return useSyncExternalStore(subscribeToSidebarQuery, () => window.matchMedia(SIDEBAR_QUERY).matches);
}

export function Curriculum(props: {
  detail: TrackDetail;
  track: string;
  currentId: string | null;
  /** An entry after the lessons (e.g. the completed course). */
  end?: ReactNode;
}) {
  const { detail } = props;
  const sidebar = useSidebar();
  const [open, setOpen] = useState(false);
  const titleId = useId();
  const watched = detail.modules.filter((module) => detail.watched.includes(module.id)).length;
  // "watched" while every lesson is a video; a lesson read or an exercise passed is "done".
  const allVideos = detail.modules.every((module) => module.youtubeId !== null && !module.exercise);
  const count = `${watched} of ${detail.modules.length} ${allVideos ? "watched" : "done"}`;
  const list = <CurriculumList {...props} onChoose={() => setOpen(false)} />;

  if (sidebar) {
    return (
      <nav className="curriculum curriculum-sidebar" aria-labelledby={titleId}>
        <h2 id={titleId} className="curriculum-heading">
          Course content
        </h2>
        <p className="curriculum-count">{count}</p>
        {list}
      </nav>
    );
  }
  return (
    <nav className="curriculum" aria-label="Course content">
      <details className="curriculum-disclosure" open={open} onToggle={(event) => setOpen(event.currentTarget.open)}>
        <summary>
          <span className="curriculum-summary">
            Course content <span className="curriculum-count">({count})</span>
          </span>
          <svg aria-hidden="true" viewBox="0 0 24 24" width="22" height="22" className="disclosure-chevron">
            <path d="M6 9l6 6 6-6" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
        </summary>
        {list}
      </details>
    </nav>
  );
}

function CurriculumList(props: {
  detail: TrackDetail;
  track: string;
  currentId: string | null;
  end?: ReactNode;
  onChoose(): void;
}) {
  const { detail, track, currentId, onChoose } = props;
  const { quiz } = detail;
  return (
    <ol className="curriculum-list">
      {detail.modules.map((module, index) => {
        const watched = detail.watched.includes(module.id);
        return (
          <li key={module.id}>
            <Link
              to={lessonPath(track, module.id)}
              className="curriculum-link"
              aria-current={module.id === currentId ? "page" : undefined}
              // Named by the words it shows, then the state the mark draws: the name starts with
              // what a person reads, for voice control (docs/accessibility.md).
              onClick={onChoose}
            >
              <StepMark state={watched ? "done" : "todo"} />
              <span className="curriculum-text">
                <span className="curriculum-section">
                  Section {index + 1}
                  {module.exercise && (
                    <>
                      {" "}
                      <span className="exercise-kind-badge">Exercise</span>
                    </>
                  )}
                  {module.draft && (
                    <>
                      {" "}
                      <span className="draft-badge">Draft</span>
                    </>
                  )}
                </span>{" "}
                <span className="curriculum-title">{lessonTitle(module.title)}</span>
                {/* An exercise is done once passed (docs/trading.md, "Exercises"). */}
                {watched && <span className="visually-hidden">{module.exercise ? " (passed)" : " (watched)"}</span>}
              </span>
            </Link>
            {quiz && quiz.moduleId === module.id && (
              <QuizEntry
                quiz={quiz}
                state={quizState(detail)}
                to={lessonPath(track, module.id, QUIZ_ANCHOR)}
                onChoose={onChoose}
              />
            )}
          </li>
        );
      })}
      {/* The entry is a link too: choosing it folds the list away like a lesson. */}
      {props.end && <li onClick={onChoose}>{props.end}</li>}
    </ol>
  );
}

const QUIZ_STATE_TEXT: Record<QuizState, (quiz: LearnerQuiz) => string> = {
  locked: () => "Locked",
  // The current attempt's score, each question by its first answer (docs/product.md, "Quiz attempts").
  open: (quiz) => `${quiz.attempts.at(-1)?.score ?? 0} of ${quiz.questions.length} correct`,
  passed: () => "Passed",
};

/** The quiz, under the lesson it belongs to. */
function QuizEntry(props: { quiz: LearnerQuiz; state: QuizState; to: string; onChoose(): void }) {
  const { quiz, state, to, onChoose } = props;
  return (
    <Link to={to} className="curriculum-link curriculum-quiz" onClick={onChoose}>
      <StepMark state={state === "passed" ? "done" : state === "locked" ? "locked" : "todo"} />
      <span className="curriculum-text">
        <span className="curriculum-section">Quiz</span> <span className="curriculum-title">{quiz.title}</span>{" "}
        <span className="curriculum-state">{QUIZ_STATE_TEXT[state](quiz)}</span>
      </span>
    </Link>
  );
}

/** Decoration: the text beside it says the same to screen readers. */
export function StepMark({ state }: { state: "done" | "todo" | "locked" | "complete" }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" width="22" height="22" className={`step-mark step-${state}`}>
      {state === "complete" ? (
        <>
          <circle cx="12" cy="12" r="11" fill="var(--gold)" />
          <path d="M6.5 12.5l3.5 3.5 7.5-8" fill="none" stroke="var(--navy)" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round" />
        </>
      ) : state === "done" ? (
        <>
          <circle cx="12" cy="12" r="11" fill="currentColor" />
          <path d="M6.5 12.5l3.5 3.5 7.5-8" fill="none" stroke="#fff" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round" />
        </>
      ) : state === "locked" ? (
        <path
          d="M7 10V7a5 5 0 0 1 10 0v3h1a1 1 0 0 1 1 1v9a1 1 0 0 1-1 1H6a1 1 0 0 1-1-1v-9a1 1 0 0 1 1-1h1zm2 0h6V7a3 3 0 0 0-6 0v3z"
          fill="currentColor"
        />
      ) : (
        <circle cx="12" cy="12" r="10" fill="none" stroke="currentColor" strokeWidth="2" />
      )}
    </svg>
  );
}
