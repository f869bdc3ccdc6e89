// The track page (/program/{track}; docs/product.md, "Track page"): the videos in order, how many
// are watched, a way back to the next one, and the quiz under the first video.
import { useEffect, useId, useRef, type ReactNode } from "react";
import { Link, useParams } from "react-router";
import { LEARNING_MESSAGES, type TrackDetail, type TrackModule } from "../../../shared/contracts/learning.ts";
import { ApiRequestError } from "../../lib/api.ts";
import { MarkIcon } from "../../ui/mark-icon.tsx";
import { notify } from "../../ui/toast.tsx";
import { usePrograms } from "./catalog-api.ts";
import { useMarkWatched, useTrack } from "./learning-api.ts";
import { QuizPanel } from "./quiz-panel.tsx";
import "./track.css";

const YOUTUBE_EMBED = "https://www.youtube-nocookie.com/embed/";

export function TrackPage() {
  const { track = "" } = useParams();
  const detail = useTrack(track);
  const premiumOnly = detail.error instanceof ApiRequestError && detail.error.status === 403;
  usePremiumOnlyToast(premiumOnly, track);

  if (detail.isPending) {
    return (
      <Page>
        <p role="status" className="section-loading">
          {LEARNING_MESSAGES.loading}
        </p>
      </Page>
    );
  }
  if (detail.isError) {
    if (premiumOnly) return <PremiumOnly track={track} />;
    if (detail.error instanceof ApiRequestError && detail.error.status === 404) {
      return (
        <Page>
          <h1>{LEARNING_MESSAGES.notFound}</h1>
          <p>
            <Link to="/program">See all programs</Link>
          </p>
        </Page>
      );
    }
    return (
      <Page>
        <p role="alert" className="form-error">
          {detail.error.message}
        </p>
        <p>
          <button type="button" className="button" onClick={() => void detail.refetch()}>
            Try again
          </button>
        </p>
      </Page>
    );
  }
  return <Track detail={detail.data} track={track} />;
}

function Page({ children }: { children: ReactNode }) {
  return <section className="container section track-page">{children}</section>;
}

/**
 * docs/product.md, "Track page": the toast and the text both say it; the toast only once per visit
 * to the track.
 */
function usePremiumOnlyToast(premiumOnly: boolean, track: string) {
  const toastedFor = useRef<string | null>(null);
  useEffect(() => {
    if (!premiumOnly || toastedFor.current === track) return;
    toastedFor.current = track;
    notify.error(LEARNING_MESSAGES.premiumOnly);
  }, [premiumOnly, track]);
}

function PremiumOnly({ track }: { track: string }) {
  // The list of programs is public, so the page can still name the program it keeps closed.
  const programs = usePrograms();
  const title = programs.data?.find((program) => program.id === track)?.title ?? "Premium program";
  return (
    <Page>
      <h1>{title}</h1>
      <div className="card stack narrow">
        <p className="premium-only">
          <strong>{LEARNING_MESSAGES.premiumOnly}</strong>
        </p>
        <p>Upgrade your plan to open this program&rsquo;s videos and quiz.</p>
        <p className="page-actions">
          <Link to="/subscription" className="button">
            See plans
          </Link>
          <Link to="/program" className="button button-secondary">
            Back to programs
          </Link>
        </p>
      </div>
    </Page>
  );
}

function Track({ detail, track }: { detail: TrackDetail; track: string }) {
  const { program, modules, quiz } = detail;
  const baseId = useId();
  const headingId = (module: TrackModule) => `${baseId}-${modules.indexOf(module)}`;
  const isWatched = (module: TrackModule) => detail.watched.includes(module.id);
  const watchedCount = modules.filter(isWatched).length;
  const next = modules.find((module) => !isWatched(module));

  function resume() {
    if (!next) return;
    const heading = document.getElementById(headingId(next));
    if (!heading) return;
    const reduceMotion = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    heading.focus({ preventScroll: true });
    heading.scrollIntoView({ behavior: reduceMotion ? "auto" : "smooth", block: "start" });
  }

  return (
    <Page>
      <p className="breadcrumb">
        <Link to="/program">All programs</Link>
      </p>
      <h1>{program.title}</h1>
      <p className="program-meta">{program.duration}</p>

      {modules.length === 0 ? (
        <p className="card">This program has no videos yet.</p>
      ) : (
        <>
          <ProgressSummary watched={watchedCount} total={modules.length} />
          {next && watchedCount > 0 && (
            <p className="resume">
              <button type="button" className="button" onClick={resume}>
                Resume
              </button>
              <span className="muted">
                Next up: Section {modules.indexOf(next) + 1}: {next.title}
              </span>
            </p>
          )}
          <ol className="module-list">
            {modules.map((module, index) => (
              <ModuleSection
                key={module.id}
                track={track}
                module={module}
                section={index + 1}
                headingId={headingId(module)}
                watched={isWatched(module)}
              >
                {quiz && quiz.moduleId === module.id && <QuizPanel quiz={quiz} track={track} />}
              </ModuleSection>
            ))}
          </ol>
        </>
      )}
    </Page>
  );
}

function ProgressSummary({ watched, total }: { watched: number; total: number }) {
  const labelId = useId();
  return (
    <div className="card track-progress">
      {/* Polite: marking a video watched is announced through the new count. */}
      <p id={labelId} aria-live="polite" className="track-progress-label">
        {watched} of {total} videos watched
      </p>
      <progress aria-labelledby={labelId} value={watched} max={total} />
    </div>
  );
}

function ModuleSection(props: {
  track: string;
  module: TrackModule;
  section: number;
  headingId: string;
  watched: boolean;
  children: ReactNode;
}) {
  const { module, watched } = props;
  const markWatched = useMarkWatched(props.track);
  const saving = markWatched.isPending;

  function mark() {
    // aria-disabled rather than disabled: the button keeps the keyboard focus once it says Watched.
    if (watched || saving) return;
    markWatched.mutate(module.id);
  }

  return (
    <li className="card module-card">
      <article aria-labelledby={props.headingId}>
        <h2 id={props.headingId} tabIndex={-1}>
          Section {props.section}: {module.title}
        </h2>
        <p>{module.description}</p>
        <div className="video-frame">
          <iframe
            src={`${YOUTUBE_EMBED}${encodeURIComponent(module.youtubeId)}?rel=0`}
            title={`${module.title} video`}
            loading="lazy"
            referrerPolicy="strict-origin-when-cross-origin"
            allow="accelerometer; clipboard-write; encrypted-media; gyroscope; picture-in-picture"
            allowFullScreen
          />
        </div>
        <p className="module-actions">
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
                Watched
              </>
            ) : saving ? (
              "Saving..."
            ) : (
              "Mark as Watched"
            )}
          </button>
        </p>
        {props.children}
      </article>
    </li>
  );
}
