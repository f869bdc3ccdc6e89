// What a locked program shows of itself (docs/product.md, "Previews"): the spec's "Available to
// Premium users only" and the way to upgrade, beside the curriculum (every lesson by title, the
// quiz's size) and the lessons an admin opened as free previews, which anyone signed in may study.
import { useId, type ReactNode } from "react";
import { Link } from "react-router";
import { LEARNING_MESSAGES, type ProgramPreview } from "../../../shared/contracts/learning.ts";
import { lessonTitle } from "../../../shared/learning.ts";
import { sectionTitle } from "../../../shared/section-title.ts";
import { usePageTitle } from "../../lib/page-title.ts";
import { lessonPath } from "./course.ts";
import { useProgramPreview } from "./learning-api.ts";
import { LessonMaterials } from "./lesson-materials.tsx";
import { LessonVideoOf } from "./lesson-video.tsx";

type PreviewLesson = ProgramPreview["lessons"][number];

/** `/program/{track}` and `/program/{track}/{lessonId}` for a learner whose plan does not open the program. */
export function LockedProgram(props: { track: string; lessonId: string | null; fallbackTitle: string; loading: ReactNode }) {
  const { track, lessonId, fallbackTitle, loading } = props;
  const preview = useProgramPreview(track);
  const lessons = preview.data?.lessons ?? [];
  const index = lessons.findIndex((lesson) => lesson.id === lessonId && lesson.freePreview);
  const lesson = lessons[index];
  const title = preview.data?.program.title ?? fallbackTitle;
  usePageTitle(lesson ? `${lessonTitle(lesson.title)} · ${title}` : title);
  // Shown whole once known, rather than growing under the learner's eyes.
  if (preview.isPending) return loading;

  return (
    <section className="container section track-page">
      <p className="breadcrumb">
        <Link to="/program">All programs</Link>
      </p>
      <h1>{title}</h1>
      {preview.data && <p className="program-meta">{preview.data.program.duration}</p>}
      <div className="locked-program">
        <div className="locked-main">
          {lesson && <PreviewedLesson track={track} lesson={lesson} position={index + 1} />}
          <UpgradeOffer preview={preview.data ?? null} />
        </div>
        {preview.data && <PreviewCurriculum preview={preview.data} track={track} currentId={lesson?.id ?? null} />}
      </div>
    </section>
  );
}

function UpgradeOffer({ preview }: { preview: ProgramPreview | null }) {
  const lessonCount = preview?.lessons.length ?? 0;
  return (
    <div className="card stack upgrade-offer">
      <p className="premium-only">
        <strong>{LEARNING_MESSAGES.premiumOnly}</strong>
      </p>
      <p>
        {lessonCount > 0
          ? `Upgrade your plan to open all ${lessonCount} ${lessonCount === 1 ? "lesson" : "lessons"}${preview?.quiz ? ", the quiz" : ""} and the certificate.`
          : "Upgrade your plan to open this program\u2019s videos and quiz."}
      </p>
      <p className="page-actions">
        <Link to="/subscription" className="button">
          See plans
        </Link>
        <Link to="/program" className="button button-secondary">
          Back to programs
        </Link>
      </p>
    </div>
  );
}

function PreviewedLesson({ track, lesson, position }: { track: string; lesson: PreviewLesson; position: number }) {
  return (
    <article className="card lesson" aria-labelledby={`lesson-${lesson.id}`}>
      <p className="preview-badge">Free preview</p>
      <h2 id={`lesson-${lesson.id}`} className="lesson-heading">
        {sectionTitle(position, lesson.title)}
      </h2>
      <LessonVideoOf track={track} lesson={lesson} onPlayedToEnd={() => undefined} resume={false} />
      {lesson.description && <p className="lesson-description">{lesson.description}</p>}
      <LessonMaterials track={track} moduleId={lesson.id} />
    </article>
  );
}

function PreviewCurriculum({ preview, track, currentId }: { preview: ProgramPreview; track: string; currentId: string | null }) {
  const headingId = useId();
  return (
    <nav className="card preview-curriculum" aria-labelledby={headingId}>
      <h2 id={headingId} className="preview-curriculum-heading">
        What this program teaches
      </h2>
      <ol className="preview-lessons">
        {preview.lessons.map((lesson, index) => (
          <li key={lesson.id} className="preview-lesson">
            <span className="curriculum-section">Section {index + 1}</span>
            {lesson.freePreview ? (
              <Link to={lessonPath(track, lesson.id)} aria-current={lesson.id === currentId ? "page" : undefined}>
                {lessonTitle(lesson.title)}
              </Link>
            ) : (
              <span>{lessonTitle(lesson.title)}</span>
            )}
            <span className="muted preview-lesson-meta">
              {lesson.kind === "video" ? "Video" : lesson.kind === "exercise" ? "Exercise" : "Reading"}
              {lesson.freePreview ? ", free preview" : ", premium"}
            </span>
          </li>
        ))}
      </ol>
      {preview.quiz && (
        <p className="preview-quiz">
          <strong>{preview.quiz.title}</strong>
          <span className="muted">
            {" "}
            {preview.quiz.questionCount} {preview.quiz.questionCount === 1 ? "question" : "questions"}, premium
          </span>
        </p>
      )}
    </nav>
  );
}
