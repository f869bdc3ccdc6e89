// A lesson's questions come with their code and their first page once the learner scrolls near
// them, not with the lesson: most visits never reach them, and the lesson's first visit keeps to
// its data budget (docs/performance.md, "Data"). Even near, they wait until the page has loaded
// and the browser is idle, so that they never hold up the lesson itself.
import { lazy, Suspense, useEffect, useId, useRef, useState, type Ref } from "react";
import { FallbackBoundary } from "../../ui/fallback-boundary.tsx";

const LessonQuestions = lazy(async () => ({ default: (await import("./lesson-questions.tsx")).LessonQuestions }));

/** How near the viewport (in CSS pixels) the section is when its code is asked for. */
const NEAR_PX = 400;

type Props = { track: string; moduleId: string };

export function DeferredLessonQuestions(props: Props) {
  const [near, setNear] = useState(() => typeof IntersectionObserver === "undefined");
  const placeholder = useRef<HTMLElement>(null);

  useEffect(() => {
    const element = placeholder.current;
    if (near || !element) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) setNear(true);
    }, { rootMargin: `${NEAR_PX}px 0px` });
    const cancel = afterPageSettles(() => observer.observe(element));
    return () => {
      cancel();
      observer.disconnect();
    };
  }, [near]);

  if (!near) return <QuestionsHeading sectionRef={placeholder} />;
  // Offline, their code may never have been fetched: the lesson shows without them.
  return (
    <FallbackBoundary fallback={<QuestionsHeading unavailable />}>
      <Suspense fallback={<QuestionsHeading />}>
        <LessonQuestions {...props} />
      </Suspense>
    </FallbackBoundary>
  );
}

/**
 * Runs `then` once the page has loaded and the browser is idle (a moment later where the browser
 * cannot tell idleness); returns what cancels it.
 */
function afterPageSettles(then: () => void): () => void {
  let cancelWait: () => void = () => undefined;
  const whenIdle = () => {
    if (typeof window.requestIdleCallback === "function") {
      const idle = window.requestIdleCallback(then, { timeout: 2_000 });
      cancelWait = () => window.cancelIdleCallback(idle);
    } else {
      const timer = window.setTimeout(then, 200);
      cancelWait = () => window.clearTimeout(timer);
    }
  };
  if (document.readyState === "complete") whenIdle();
  else window.addEventListener("load", whenIdle, { once: true });
  return () => {
    window.removeEventListener("load", whenIdle);
    cancelWait();
  };
}

/**
 * The section as it stands until its code has come: its heading alone (the section then says that
 * its questions are loading, in the words of the support contracts, which come with its code).
 */
function QuestionsHeading({ sectionRef, unavailable = false }: { sectionRef?: Ref<HTMLElement>; unavailable?: boolean }) {
  const headingId = useId();
  return (
    <section ref={sectionRef} className="lesson-questions lesson-questions-loading" aria-labelledby={headingId}>
      <h2 id={headingId}>Questions about this lesson</h2>
      {unavailable && <p>The questions could not load. Check your connection and reload the page.</p>}
    </section>
  );
}
