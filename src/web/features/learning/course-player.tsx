// The course player (docs/product.md, "Lesson player"): the curriculum beside (on a phone, above)
// one lesson at a time, its video, Mark as Watched, its description, the quiz under the first
// lesson, and Previous / Next. A lesson that is a chart exercise shows the exercise instead of the
// video and Mark as Watched (docs/trading.md, "Exercises").
import { lazy, Suspense, useCallback, useEffect, useId, useRef, useState } from "react";
import { Link, useLocation } from "react-router";
import { LEARNING_MESSAGES, type TrackDetail } from "../../../shared/contracts/learning.ts";
import { lessonTitle } from "../../../shared/learning.ts";
import { sectionTitle } from "../../../shared/section-title.ts";
import { usePageTitle } from "../../lib/page-title.ts";
import { FallbackBoundary } from "../../ui/fallback-boundary.tsx";
import { MarkIcon } from "../../ui/mark-icon.tsx";
import { CompletionPanel } from "./completion-panel.tsx";
import { COMPLETE_STEP, courseProgress, lessonPath, nextStepPath, QUIZ_ANCHOR, quizState, startLesson } from "./course.ts";
import { Curriculum, StepMark } from "./curriculum.tsx";
import { NOT_SAVED_OFFLINE, notSavedOffline, useMarkWatched, useStepDoneElsewhere } from "./learning-api.ts";
import { LessonMaterials } from "./lesson-materials.tsx";
import { DeferredLessonQuestions } from "./deferred-lesson-questions.tsx";
import { LessonVideoOf } from "./lesson-video.tsx";
import { QuizPanel } from "./quiz-panel.tsx";

// The exercise and its chart library come only with a lesson that is an exercise.
const ExercisePlayer = lazy(async () => ({ default: (await import("../exercises/exercise-player.seam.ts")).ExercisePlayer }));

/** What an administrator previewing a lesson not published yet reads above it (docs/data.md, "Drafts"). */
export const DRAFT_NOTICE = "Draft: only administrators see this lesson until the program is published.";

export function CoursePlayer({ detail, track, lessonId }: { detail: TrackDetail; track: string; lessonId: string }) {
  const { program, modules, quiz } = detail;
  const index = modules.findIndex((module) => module.id === lessonId);
  const lesson = modules[index];
  const atCompletion = lessonId === COMPLETE_STEP;
  const progress = courseProgress(detail);
  const { focusTarget, quizRef } = useLessonFocus(lessonId);
  const completedHere = useCompletedHere(detail.completion.complete, lessonId);
  const markWatched = useMarkWatched(track);
  const watched = lesson !== undefined && detail.watched.includes(lesson.id);
  // Played to its end: watched as with the button, once (the server's mark is idempotent anyway).
  function markLessonWatched(id: string) {
    const saving = markWatched.isPending && markWatched.variables === id;
    if (!detail.watched.includes(id) && !saving) markWatched.mutate(id);
  }
  usePageTitle(
    atCompletion ? `Program complete · ${program.title}` : lesson ? `${lessonTitle(lesson.title)} · ${program.title}` : program.title,
  );

  const completeEntry = detail.completion.complete && (
    <Link
      to={lessonPath(track, COMPLETE_STEP)}
      className="curriculum-link curriculum-complete"
      aria-current={atCompletion ? "page" : undefined}
    >
      <StepMark state="complete" />
      <span className="curriculum-text">
        <span className="curriculum-section">Finished</span>{" "}
        <span className="curriculum-title">Program complete</span>
        <span className="visually-hidden"> (your certificate)</span>
      </span>
    </Link>
  );

  return (
    <section className="container section track-page player">
      <p className="breadcrumb">
        <Link to="/program">All programs</Link>
      </p>
      <div className="player-header">
        <h1>{program.title}</h1>
        <p className="program-meta">{program.duration}</p>
        <CourseProgress
          watched={progress.watched}
          total={progress.total}
          percent={progress.percent}
          allVideos={detail.modules.every((module) => module.youtubeId !== null && !module.exercise)}
        />
      </div>
      <div className="player-body">
        <Curriculum detail={detail} track={track} currentId={lesson?.id ?? null} end={completeEntry} />
        <div className="player-main">
          {atCompletion ? (
            <CompletionStep detail={detail} track={track} focusTarget={focusTarget} />
          ) : lesson ? (
            <>
              <article className="card lesson" aria-labelledby={`lesson-${lesson.id}`}>
                <h2 id={`lesson-${lesson.id}`} ref={focusTarget} tabIndex={-1} className="lesson-heading">
                  {sectionTitle(index + 1, lesson.title)}
                </h2>
                {lesson.draft && <p className="draft-notice">{DRAFT_NOTICE}</p>}
                {lesson.exercise ? (
                  // Done by passing it, not by marking it (docs/trading.md, "Exercises"); its
                  // description is what to do, so it comes first.
                  <>
                    {lesson.description && <p className="lesson-description">{lesson.description}</p>}
                    <LessonExercise key={lesson.id} track={track} lessonId={lesson.id} />
                  </>
                ) : (
                  <>
                    <LessonVideoOf track={track} lesson={lesson} onPlayedToEnd={() => markLessonWatched(lesson.id)} />
                    <p className="module-actions">
                      <MarkWatchedButton
                        markWatched={markWatched}
                        lessonId={lesson.id}
                        watched={watched}
                        reading={lesson.youtubeId === null}
                      />
                    </p>
                    {markWatched.variables === lesson.id && notSavedOffline(markWatched.error) && (
                      <p role="alert" className="form-error">
                        {NOT_SAVED_OFFLINE}
                      </p>
                    )}
                  </>
                )}
                {lesson.description && !lesson.exercise && <p className="lesson-description">{lesson.description}</p>}
                <LessonMaterials track={track} moduleId={lesson.id} />
                {quiz && quiz.moduleId === lesson.id && (
                  // Focused when the curriculum's quiz entry (or a card's "Continue: quiz") opens it.
                  <div id={QUIZ_ANCHOR} ref={quizRef} tabIndex={-1} className="quiz-anchor">
                    <QuizPanel quiz={quiz} track={track} />
                  </div>
                )}
                <LessonPager detail={detail} track={track} index={index} />
              </article>
              {completedHere && <CompletionMoment detail={detail} />}
              <DeferredLessonQuestions key={lesson.id} track={track} moduleId={lesson.id} />
            </>
          ) : (
            <LessonNotFound detail={detail} track={track} focusTarget={focusTarget} />
          )}
        </div>
      </div>
    </section>
  );
}

/**
 * Whether the program was completed on this lesson, in this visit (the last video watched, the
 * quiz passed): the completion moment shows there, under the lesson. A program already complete
 * when the player opened has its own entry at the end of the curriculum instead.
 */
function useCompletedHere(complete: boolean, lessonId: string): boolean {
  const [completeAtOpening] = useState(complete);
  const [completedOn, setCompletedOn] = useState<string | null>(null);
  if (complete && !completeAtOpening && completedOn === null) setCompletedOn(lessonId);
  return complete && completedOn === lessonId;
}

/** The completion moment under the lesson that brought it, scrolled into view as it appears. */
function CompletionMoment({ detail }: { detail: TrackDetail }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (ref.current) bringIntoView(ref.current);
  }, []);
  return (
    <div ref={ref} className="completion-moment">
      <CompletionPanel detail={detail} />
    </div>
  );
}

/** `/program/{track}/complete`: the completion, and the certificate, whenever the learner comes back to it. */
function CompletionStep(props: { detail: TrackDetail; track: string; focusTarget: (element: HTMLElement | null) => void }) {
  const { detail, track, focusTarget } = props;
  const next = courseProgress(detail).next;
  if (!detail.completion.complete) {
    return (
      <div className="card lesson">
        <h2 ref={focusTarget} tabIndex={-1} className="lesson-heading">
          This program is not complete yet.
        </h2>
        {next && (
          <p>
            <Link to={nextStepPath(track, next)}>Continue: {next.title}</Link>
          </p>
        )}
      </div>
    );
  }
  return (
    <div ref={focusTarget} tabIndex={-1} className="completion-moment">
      <CompletionPanel detail={detail} />
    </div>
  );
}

/**
 * When the lesson changes, the focus moves to its heading, so that a screen reader reads where the
 * learner now is (and the page scrolls to it when it is out of sight); to the quiz when the
 * address asks for it (`#quiz`). A page just opened keeps the browser's focus.
 */
function useLessonFocus(lessonId: string) {
  const target = useRef<HTMLElement | null>(null);
  const quizRef = useRef<HTMLDivElement>(null);
  const { hash } = useLocation();
  const wantsQuiz = hash === `#${QUIZ_ANCHOR}`;
  const shown = useRef<string | null>(null);

  useEffect(() => {
    const place = `${lessonId}${wantsQuiz ? hash : ""}`;
    const opened = shown.current === null;
    if (shown.current === place) return;
    shown.current = place;
    if (opened && !wantsQuiz) return;
    // After the layout's scroll to the top of a new page, which runs after this effect.
    const frame = requestAnimationFrame(() => {
      const element = (wantsQuiz ? quizRef.current : null) ?? target.current;
      if (!element) return;
      element.focus({ preventScroll: true });
      bringIntoView(element);
    });
    return () => cancelAnimationFrame(frame);
  }, [lessonId, hash, wantsQuiz]);

  const focusTarget = useCallback((element: HTMLElement | null) => {
    target.current = element;
  }, []);
  return { focusTarget, quizRef };
}

function bringIntoView(element: HTMLElement) {
  const header = document.querySelector(".site-header")?.getBoundingClientRect().bottom ?? 0;
  const { top, bottom } = element.getBoundingClientRect();
  if (top >= header && bottom <= window.innerHeight) return;
  const reduceMotion = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  element.scrollIntoView({ behavior: reduceMotion ? "auto" : "smooth", block: "start" });
}

/** A chart exercise in place of the video; offline, its code may never have been fetched. */
function LessonExercise({ track, lessonId }: { track: string; lessonId: string }) {
  const stepDone = useStepDoneElsewhere(track);
  return (
    <FallbackBoundary
      fallback={
        <p role="alert" className="form-error">
          The exercise could not load. Check your connection and reload the page.
        </p>
      }
    >
      <Suspense fallback={<p className="muted">Loading the exercise...</p>}>
        <ExercisePlayer track={track} moduleId={lessonId} onPassed={stepDone} />
      </Suspense>
    </FallbackBoundary>
  );
}

type CourseProgressProps = { watched: number; total: number; percent: number; allVideos: boolean };

/** "2 of 3 videos watched"; "lessons done" once a lesson is notes only or an exercise, which is read or passed, not watched. */
function CourseProgress({ watched, total, percent, allVideos }: CourseProgressProps) {
  const labelId = useId();
  return (
    <div className="card track-progress">
      {/* Polite: marking a video watched is announced through the new count. */}
      <p id={labelId} aria-live="polite" className="track-progress-label">
        <span>{percent}% complete</span>
        <span className="muted">
          {watched} of {total} {allVideos ? "videos watched" : "lessons done"}
        </span>
      </p>
      <progress aria-labelledby={labelId} value={percent} max={100} />
    </div>
  );
}

type MarkWatched = ReturnType<typeof useMarkWatched>;

/** Mark as Watched; for a lesson of notes only, Mark as Read (the same step of the program). */
function MarkWatchedButton(props: { markWatched: MarkWatched; lessonId: string; watched: boolean; reading: boolean }) {
  const { markWatched, lessonId, watched, reading } = props;
  const saving = markWatched.isPending && markWatched.variables === lessonId;

  function mark() {
    // aria-disabled rather than disabled: the button keeps the keyboard focus once it says Watched.
    if (watched || saving) return;
    markWatched.mutate(lessonId);
  }

  return (
    <button
      type="button"
      className={watched ? "button watched-button" : "button"}
      aria-disabled={watched || saving || undefined}
      aria-busy={saving || undefined}
      onClick={mark}
    >
      {watched ? (
        <>
          <MarkIcon mark="tick" />
          {reading ? "Read" : "Watched"}
        </>
      ) : saving ? (
        "Saving..."
      ) : reading ? (
        "Mark as Read"
      ) : (
        "Mark as Watched"
      )}
    </button>
  );
}

/**
 * Previous and Next lesson. After the last lesson, Next is what is left: the quiz under the first
 * lesson while it is not passed, and the completed program once it is.
 */
function LessonPager({ detail, track, index }: { detail: TrackDetail; track: string; index: number }) {
  const { modules, quiz } = detail;
  const current = modules[index];
  const previous = modules[index - 1];
  const nextLesson = modules[index + 1];
  const next: PagerStep | null = nextLesson
    ? { to: lessonPath(track, nextLesson.id), label: "Next", title: lessonTitle(nextLesson.title) }
    : quiz && quizState(detail) !== "passed" && quiz.moduleId !== current?.id
      ? { to: lessonPath(track, quiz.moduleId, QUIZ_ANCHOR), label: "Next: the quiz", title: quiz.title }
      : detail.completion.complete
        ? { to: lessonPath(track, COMPLETE_STEP), label: "Next", title: "Program complete" }
        : null;
  // Once this lesson is watched, Next is the thing to do.
  const ready = current !== undefined && detail.watched.includes(current.id);

  if (!previous && !next) return null;
  return (
    <nav className="lesson-pager" aria-label="Previous and next lesson">
      {previous && (
        <PagerLink
          step={{ to: lessonPath(track, previous.id), label: "Previous", title: lessonTitle(previous.title) }}
          rel="prev"
          className="pager-link pager-prev"
        />
      )}
      {next && <PagerLink step={next} rel="next" className={ready ? "pager-link pager-next is-ready" : "pager-link pager-next"} />}
    </nav>
  );
}

type PagerStep = { to: string; label: string; title: string };

function PagerLink({ step, rel, className }: { step: PagerStep; rel: "prev" | "next"; className: string }) {
  return (
    // Named by its words as they show, the arrows left out (docs/accessibility.md).
    <Link to={step.to} rel={rel} className={className}>
      <span className="pager-label">
        {rel === "prev" && <span aria-hidden="true">&larr; </span>}
        {step.label}
        {rel === "next" && <span aria-hidden="true"> &rarr;</span>}
      </span>{" "}
      <span className="pager-title">{step.title}</span>
    </Link>
  );
}

/** A lesson address that is not (or no longer) part of the program: the way on, not a dead end. */
function LessonNotFound(props: { detail: TrackDetail; track: string; focusTarget: (element: HTMLElement | null) => void }) {
  const { detail, track, focusTarget } = props;
  const start = startLesson(detail);
  return (
    <div className="card lesson">
      <h2 ref={focusTarget} tabIndex={-1} className="lesson-heading">
        {LEARNING_MESSAGES.moduleNotFound}
      </h2>
      {start ? (
        <p>
          It may have been removed or replaced.{" "}
          <Link to={lessonPath(track, start.id)}>Go on with {lessonTitle(start.title)}</Link>
        </p>
      ) : (
        <p>This program has no videos yet.</p>
      )}
    </div>
  );
}
