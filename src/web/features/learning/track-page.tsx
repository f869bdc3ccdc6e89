// The track's two addresses (docs/product.md, "Track page" and "Lesson player"): the spec's
// /program/{track} opens the course at the first unwatched lesson, and /program/{track}/{lessonId}
// is the course player at one lesson. Both say the same when the track cannot be shown: loading,
// not found, premium only.
import { lazy, Suspense, useEffect, useRef, type ReactNode } from "react";
import { Link, Navigate, useParams } from "react-router";
import { LEARNING_MESSAGES, type TrackDetail } from "../../../shared/contracts/learning.ts";
import { ApiRequestError } from "../../lib/api.ts";
import { usePageTitle } from "../../lib/page-title.ts";
import { notify } from "../../ui/toast.tsx";
import { usePrograms } from "./catalog-api.ts";
import { lessonPath, startLesson } from "./course.ts";
import { CoursePlayer } from "./course-player.tsx";
import { useTrack } from "./learning-api.ts";
import { LockedProgram } from "./program-preview.tsx";
import "./track.css";

/** `/program/{track}`: on to the lesson the course opens at, the address then naming it. */
export function TrackPage() {
  const { track = "" } = useParams();
  return (
    <TrackGate track={track}>
      {(detail) => {
        const lesson = startLesson(detail);
        if (!lesson) return <EmptyProgram title={detail.program.title} />;
        return (
          <>
            <Navigate to={lessonPath(track, lesson.id)} replace />
            <Loading />
          </>
        );
      }}
    </TrackGate>
  );
}

/** `/program/{track}/{lessonId}`: the course player at one lesson. */
export function LessonPage() {
  const { track = "", lesson = "" } = useParams();
  return (
    <TrackGate track={track} lessonId={lesson}>
      {(detail) => <CoursePlayer detail={detail} track={track} lessonId={lesson} />}
    </TrackGate>
  );
}

function Loading() {
  return (
    <Page loading>
      <p role="status" className="section-loading">
        {LEARNING_MESSAGES.loading}
      </p>
    </Page>
  );
}

/** The track, once the server sent it; else what stands in its place. */
function TrackGate(props: { track: string; lessonId?: string; children: (detail: TrackDetail) => ReactNode }) {
  const { track, lessonId = null, children } = props;
  const detail = useTrack(track);
  const premiumOnly = detail.error instanceof ApiRequestError && detail.error.status === 403;
  usePremiumOnlyToast(premiumOnly, track);

  if (detail.isPending) return <Loading />;
  if (detail.isError) {
    if (premiumOnly) return <PremiumOnly track={track} lessonId={lessonId} />;
    if (detail.error instanceof ApiRequestError && detail.error.status === 404) return <ProgramNotFound />;
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
  return children(detail.data);
}

function EmptyProgram({ title }: { title: string }) {
  usePageTitle(title);
  return (
    <Page>
      <p className="breadcrumb">
        <Link to="/program">All programs</Link>
      </p>
      <h1>{title}</h1>
      <p className="card">This program has no videos yet.</p>
    </Page>
  );
}

function ProgramNotFound() {
  usePageTitle("Program not found");
  return (
    <Page>
      <h1>{LEARNING_MESSAGES.notFound}</h1>
      <p>
        <Link to="/program">See all programs</Link>
      </p>
    </Page>
  );
}

/**
 * While the program loads, its page is a screen tall: the footer waits below the fold instead of
 * being pushed down by the lesson as it arrives (a layout shift a learner sees, and Lighthouse counts).
 */
function Page({ children, loading = false }: { children: ReactNode; loading?: boolean }) {
  return <section className={loading ? "container section track-page is-loading" : "container section track-page"}>{children}</section>;
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

const VerifyPendingPayments = lazy(async () => ({ default: (await import("../billing/pending-payments.seam.ts")).VerifyPendingPayments }));

function PremiumOnly({ track, lessonId }: { track: string; lessonId: string | null }) {
  // The list of programs is public, so the page can name the program while its preview loads.
  const programs = usePrograms();
  const title = programs.data?.find((program) => program.id === track)?.title ?? "Premium program";
  return (
    <>
      <LockedProgram track={track} lessonId={lessonId} fallbackTitle={title} loading={<Loading />} />
      {/* A learner who paid for this program and came back before Paystack's webhook: asked here,
          it opens. An open program has nothing to ask about: its lessons spare the code and the
          request (docs/performance.md, "Data"). */}
      <Suspense fallback={null}>
        <VerifyPendingPayments />
      </Suspense>
    </>
  );
}
