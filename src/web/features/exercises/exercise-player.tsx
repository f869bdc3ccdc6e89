// The learner's chart exercise, in place of a lesson's video (docs/trading.md, "Exercises"): the
// bars up to the decision point and either a replay trade (step the chart forward, then place a
// trade filled at the last bar's close) or a marked level. The server keeps the later bars and
// scores the answer; this shows what it sent. Loaded with the lesson that needs it, and the chart
// library only with the chart (React.lazy), so no other page carries either.
import { lazy, Suspense, useEffect, useEffectEvent, useId, useMemo, useRef, useState, useSyncExternalStore, type ReactNode, type Ref } from "react";
import {
  chartBarsOf,
  EXERCISE_MESSAGES,
  type ChartBar,
  type ExerciseAnswer,
  type ExerciseSubmission,
  type LearnerExercise,
} from "../../../shared/contracts/exercises.ts";
import { ApiRequestError } from "../../lib/api.ts";
import { useOnline } from "../../lib/online.ts";
import { useTimeLeft } from "../../lib/time-left.ts";
import { useSignedInUser } from "../../session/session.ts";
import { CheckedField } from "../../ui/checked-field.tsx";
import { FallbackBoundary } from "../../ui/fallback-boundary.tsx";
import { FormMessages } from "../../ui/form-messages.tsx";
import { MarkIcon } from "../../ui/mark-icon.tsx";
import { Figure, grouped, Money } from "../../ui/money.tsx";
import { useExercise, useExerciseAnswer, useExerciseStep, useNewExerciseAttempt, useRefreshExercise } from "./exercise-api.ts";
import { chartSummary, pricePrecision, signed, typedPrice, writtenTime } from "./exercise-format.ts";
import { isNetworkFailure, keepAnswer, keptAnswerKey, readKeptAnswer, sendKeptAnswer, type KeptAnswer, type SendOutcome } from "./kept-answers.ts";
import type { ChartLine, ChartMarker } from "./price-chart.tsx";
import "./exercises.css";

const PriceChart = lazy(() => import("./price-chart.tsx"));

/** The exercise's bars as the chart draws them, read once per answer of the server. */
function useChartBars(exercise: LearnerExercise): ChartBar[] {
  return useMemo(() => chartBarsOf(exercise.bars), [exercise.bars]);
}

/** An answer kept offline is tried again this often, besides when the browser says it is back online. */
const KEPT_ANSWER_RETRY_MS = 5_000;
/** "Play" reveals one bar this often. */
const PLAY_STEP_MS = 700;
/** From this width the chart is 360 px high; on a phone, 260. */
const WIDE_SCREEN = "(min-width: 48rem)";

const STEP_NEEDS_CONNECTION = "Stepping needs a connection.";
const ANSWER_KEPT_OFFLINE = "You are offline: your answer is kept on this phone and will be sent when you are back online.";
const CHOOSE_DIRECTION = "Choose buy or sell.";

type Params = { track: string; moduleId: string };
type FieldErrors = Partial<Record<string, string>>;

export function ExercisePlayer({ track, moduleId, onPassed }: Params & { onPassed: () => void }) {
  const params = useMemo(() => ({ track, moduleId }), [track, moduleId]);
  const { user } = useSignedInUser();
  const exercise = useExercise(params);
  const online = useOnline();
  if (exercise.isPending) return <p className="exercise-loading muted">Loading the exercise...</p>;
  if (exercise.isError) {
    return (
      <p role="alert" className="form-error">
        {online ? exercise.error.message : "You are offline, and this exercise was not opened on this device before. Open it when you are back online."}
      </p>
    );
  }
  return <ExerciseView exercise={exercise.data} params={params} userId={user?.id ?? null} onPassed={onPassed} />;
}

type ViewProps = { exercise: LearnerExercise; params: Params; userId: string | null; onPassed: () => void };

function ExerciseView(props: ViewProps) {
  const { exercise, params, userId, onPassed } = props;
  // Above the attempt's fields: a refusal that ends the attempt (read again) is still said.
  const flow = useAnswerFlow(params, userId, onPassed, exercise.attempt);
  const titleId = useId();
  const leadRef = useRef<HTMLParagraphElement>(null);
  const resultRef = useRef<HTMLHeadingElement>(null);
  const shownAttempt = useRef(exercise.attempt);
  const wasScored = useRef(exercise.answer !== null);
  // A new attempt replaces the result the learner was on: the focus goes to its first line; an
  // answer just scored takes the focus to its result (as the quiz does).
  useEffect(() => {
    if (exercise.attempt > shownAttempt.current) leadRef.current?.focus();
    shownAttempt.current = exercise.attempt;
  }, [exercise.attempt]);
  const scored = exercise.answer !== null;
  useEffect(() => {
    if (scored && !wasScored.current) resultRef.current?.focus();
    wasScored.current = scored;
  }, [scored]);

  const { dataSet } = exercise;
  const replay = exercise.kind === "replay";
  return (
    <section className="exercise" aria-labelledby={titleId}>
      <div className="exercise-head">
        <h3 id={titleId}>{replay ? "Trade the replay" : "Mark the level"}</h3>
        <p className="exercise-data">
          <strong>
            {dataSet.instrument} {dataSet.timeframe}
          </strong>
          {/* The set's own name, unless it only says the same again. */}
          {!dataSet.name.startsWith(`${dataSet.instrument} ${dataSet.timeframe}`) && <span className="muted"> {dataSet.name}</span>}
        </p>
        {dataSet.illustrative && <p className="exercise-badge">Illustrative data, not real prices</p>}
      </div>
      <p ref={leadRef} tabIndex={-1} className="exercise-lead">
        {exercise.attempt > 1 ? `Attempt ${exercise.attempt}. ` : ""}
        {scored
          ? replay
            ? "Your trade is scored: the chart shows what came next."
            : "Your mark is checked: the chart shows the answer."
          : replay
            ? "Read the chart and step it forward if you like. Your trade is filled at the close of the last bar."
            : "Mark the level on the chart: tap it, or enter its price."}
      </p>
      {/* A new attempt starts with empty fields. */}
      {replay ? (
        <ReplayExercise key={exercise.attempt} {...props} flow={flow} resultRef={resultRef} />
      ) : (
        <LevelExercise key={exercise.attempt} {...props} flow={flow} resultRef={resultRef} />
      )}
    </section>
  );
}

type KindProps = Omit<ViewProps, "onPassed"> & { flow: AnswerFlow; resultRef: Ref<HTMLHeadingElement> };

// ---------------------------------------------------------------------------------------------
// A replay trade

type TradeDraft = { direction: "buy" | "sell" | ""; stop: string; target: string; riskPercent: string };
type TapField = "stop" | "target";

function ReplayExercise({ exercise, params, userId, flow, resultRef }: KindProps) {
  const precision = pricePrecision(exercise.dataSet.pipSize);
  const [draft, setDraft] = useState<TradeDraft>(() => {
    const kept = flow.kept?.submission;
    return kept?.kind === "replay" && kept.attempt === exercise.attempt
      ? { direction: kept.direction, stop: kept.stop, target: kept.target, riskPercent: kept.riskPercent }
      : { direction: "", stop: "", target: "", riskPercent: "1" };
  });
  const [tapField, setTapField] = useState<TapField>("stop");
  const formTitleId = useId();
  const { answer } = exercise;
  const bars = useChartBars(exercise);
  const decisionBar = bars[exercise.decision];
  const entry = decisionBar ? decisionBar.c.toFixed(precision) : "";

  const lines = useMemo((): ChartLine[] => {
    if (answer?.kind === "replay") {
      const { order, result } = answer;
      return tradeLines(result.entry, order.stop, order.target);
    }
    return tradeLines(entry, draft.stop, draft.target);
  }, [answer, entry, draft.stop, draft.target]);
  const markers = useMemo(() => (answer?.kind === "replay" ? tradeMarkers(answer, bars) : []), [answer, bars]);

  function pick(price: number) {
    const text = price.toFixed(precision);
    setDraft((current) => ({ ...current, [tapField]: text }));
  }

  function placeTrade() {
    if (draft.direction === "") {
      flow.fail({ direction: CHOOSE_DIRECTION });
      return;
    }
    const { direction, stop, target, riskPercent } = draft;
    void flow.submit({ kind: "replay", attempt: exercise.attempt, direction, stop, target, riskPercent });
  }

  return (
    <>
      <ExerciseChart exercise={exercise} precision={precision} lines={lines} markers={markers} onPick={answer ? undefined : pick} />
      {answer?.kind === "replay" ? (
        <>
          <ReplayResult answer={answer} headingRef={resultRef} />
          <AfterScoring exercise={exercise} params={params} userId={userId} onNewAttempt={flow.clear} />
        </>
      ) : (
        <>
          <TapChoice field={tapField} onChange={setTapField} />
          <StepControls exercise={exercise} params={params} userId={userId} />
          <form
            className="exercise-form"
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              placeTrade();
            }}
            aria-labelledby={formTitleId}
          >
            <h4 id={formTitleId}>Your trade</h4>
            <p className="exercise-rule">
              Practice balance: {grouped(exercise.balance.amount)} {exercise.balance.currency}. Pass: a result of at least {exercise.passR} R,
              risking at most {exercise.maxRiskPercent}%.
            </p>
            <DirectionChoice
              direction={draft.direction}
              error={flow.errors.direction}
              onChange={(direction) => setDraft((current) => ({ ...current, direction }))}
            />
            <p className="exercise-entry">
              Entry (the close of the last bar): <strong>{entry}</strong>
            </p>
            <div className="exercise-fields">
              <PriceField label="Stop-loss" value={draft.stop} error={flow.errors.stop} onChange={(stop) => setDraft((current) => ({ ...current, stop }))} />
              <PriceField
                label="Take-profit"
                value={draft.target}
                error={flow.errors.target}
                onChange={(target) => setDraft((current) => ({ ...current, target }))}
              />
              <PriceField
                label="Risk (% of the practice balance)"
                value={draft.riskPercent}
                error={flow.errors.riskPercent}
                onChange={(riskPercent) => setDraft((current) => ({ ...current, riskPercent }))}
              />
            </div>
            <FormMessages error={flow.formError} info={flow.keptNotice} />
            <p className="exercise-actions">
              <SubmitButton pending={flow.pending}>Place Trade</SubmitButton>
            </p>
          </form>
        </>
      )}
    </>
  );
}

/** The entry, the stop and the target as horizontal lines, each once it is a price. */
function tradeLines(entry: string, stop: string, target: string): ChartLine[] {
  const shown: ChartLine[] = [];
  const add = (text: string, title: string, tone: ChartLine["tone"]) => {
    const price = typedPrice(text);
    if (price !== null) shown.push({ price, title, tone });
  };
  add(entry, "Entry", "entry");
  add(stop, "Stop-loss", "stop");
  add(target, "Take-profit", "target");
  return shown;
}

/** Where a scored trade came in and went out: the decision bar, and the bar of its exit. */
function tradeMarkers(answer: Extract<ExerciseAnswer, { kind: "replay" }>, bars: readonly ChartBar[]): ChartMarker[] {
  const exitAt = Date.parse(answer.result.exitTime) / 1000;
  // The exit's bar: the last one that opened at or before the exit.
  const exitBar = Number.isNaN(exitAt) ? bars.at(-1) : bars.findLast((bar) => bar.t <= exitAt);
  const markers: ChartMarker[] = [{ time: answer.decidedAt, text: "Entry", tone: "entry" }];
  if (exitBar) markers.push({ time: exitBar.t, text: "Exit", tone: "exit" });
  return markers;
}

function TapChoice({ field, onChange }: { field: TapField; onChange: (field: TapField) => void }) {
  const labelId = useId();
  const option = (value: TapField, words: string) => (
    <button type="button" className="exercise-toggle" aria-pressed={field === value} onClick={() => onChange(value)}>
      {words}
    </button>
  );
  return (
    <div className="exercise-tap" role="group" aria-labelledby={labelId}>
      <span id={labelId} className="exercise-tap-label">
        Tap the chart to set:
      </span>
      {option("stop", "Stop-loss")}
      {option("target", "Take-profit")}
    </div>
  );
}

function DirectionChoice(props: { direction: TradeDraft["direction"]; error?: string; onChange: (direction: "buy" | "sell") => void }) {
  const { direction, error, onChange } = props;
  const id = useId();
  return (
    <fieldset className="exercise-direction" aria-describedby={error ? `${id}-error` : undefined}>
      <legend>Direction</legend>
      <div className="exercise-direction-options">
        {(["buy", "sell"] as const).map((value) => (
          <label key={value} className="exercise-radio">
            <input
              type="radio"
              name={`${id}-direction`}
              value={value}
              checked={direction === value}
              aria-invalid={error ? true : undefined}
              onChange={() => onChange(value)}
            />
            {value === "buy" ? "Buy" : "Sell"}
          </label>
        ))}
      </div>
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
    </fieldset>
  );
}

/**
 * Next bar, Play / Pause and +10 bars: each a step the server takes (it keeps the later bars), so
 * each needs a connection. Play steps one bar every PLAY_STEP_MS until paused, an error, or the
 * last bar.
 */
function StepControls({ exercise, params, userId }: { exercise: LearnerExercise; params: Params; userId: string | null }) {
  const step = useExerciseStep(params, userId);
  const refresh = useRefreshExercise(params);
  const online = useOnline();
  const [wantsPlay, setWantsPlay] = useState(false);
  const [message, setMessage] = useState("");
  const playing = wantsPlay && exercise.barsLeft;

  function stepBy(count: number) {
    if (step.isPending || !exercise.barsLeft) return;
    if (!online) {
      setWantsPlay(false);
      setMessage(STEP_NEEDS_CONNECTION);
      return;
    }
    setMessage("");
    step.mutate(
      { attempt: exercise.attempt, count },
      {
        onError: (error) => {
          setWantsPlay(false);
          setMessage(isNetworkFailure(error) ? STEP_NEEDS_CONNECTION : error.message);
          // Refused (scored, no bar left, an attempt that ended): the exercise as the server has it.
          if (error instanceof ApiRequestError && error.status === 409) void refresh();
        },
      },
    );
  }

  // While playing, each bar shown (the decision moved) schedules the next.
  const playNext = useEffectEvent(() => stepBy(1));
  const pending = step.isPending;
  useEffect(() => {
    if (!playing || pending) return;
    const timer = setTimeout(playNext, PLAY_STEP_MS);
    return () => clearTimeout(timer);
  }, [playing, pending, exercise.decision]);

  function togglePlay() {
    if (playing) {
      setWantsPlay(false);
      return;
    }
    if (!exercise.barsLeft) return;
    if (!online) {
      setMessage(STEP_NEEDS_CONNECTION);
      return;
    }
    setMessage("");
    setWantsPlay(true);
    stepBy(1);
  }

  const unavailable = !exercise.barsLeft || pending || undefined;
  return (
    <div className="exercise-steps">
      <div className="exercise-step-buttons" role="group" aria-label="Step the chart">
        <button type="button" className="button button-secondary" aria-disabled={unavailable} onClick={() => stepBy(1)}>
          Next bar
        </button>
        <button type="button" className="button button-secondary" aria-disabled={!exercise.barsLeft || undefined} onClick={togglePlay}>
          {playing ? "Pause" : "Play"}
        </button>
        <button type="button" className="button button-secondary" aria-disabled={unavailable} onClick={() => stepBy(10)}>
          +10 bars
        </button>
      </div>
      <p role="status" className="exercise-step-status">
        {message || (exercise.barsLeft ? "" : "This is the last bar of the data: no bar is left to step to.")}
      </p>
    </div>
  );
}

function ReplayResult({ answer, headingRef }: { answer: Extract<ExerciseAnswer, { kind: "replay" }>; headingRef: Ref<HTMLHeadingElement> }) {
  const { order, result, passed } = answer;
  const outcome = result.outcome === "target" ? "Target hit" : result.outcome === "stop" ? "Stopped out" : "Still open at the last bar";
  return (
    <ResultCard passed={passed} heading={outcome} headingRef={headingRef}>
      {result.bothInOneBar && (
        <p>The stop and the target were both inside one bar: the stop counts, since which came first is unknown.</p>
      )}
      <dl className="exercise-figures">
        <Figure term="Your trade">
          {order.direction === "buy" ? "Buy" : "Sell"} at {result.entry}, stop-loss {order.stop}, take-profit {order.target}
        </Figure>
        <Figure term="Exit">
          {/* At the stop or the target, its price as the learner wrote it. */}
          {result.outcome === "target" ? order.target : result.outcome === "stop" ? order.stop : result.exitPrice} on {writtenTime(result.exitTime)}
        </Figure>
        <Figure term="Bars held">{result.barsHeld}</Figure>
        <Figure term="Result">
          <strong>{signed(result.pips, "pips")}</strong>, <strong>{signed(result.r, "R")}</strong>
        </Figure>
        <Figure term="Position size">
          {result.lots} lots, risking {order.riskPercent}%
        </Figure>
        <Figure term="Risk amount">
          <Money money={result.riskAmount} />
        </Figure>
        <Figure term="Profit or loss">
          <Money money={result.profit} />
        </Figure>
      </dl>
    </ResultCard>
  );
}

// ---------------------------------------------------------------------------------------------
// A marked level

function LevelExercise({ exercise, params, userId, flow, resultRef }: KindProps) {
  const precision = pricePrecision(exercise.dataSet.pipSize);
  const [price, setPrice] = useState(() => {
    const kept = flow.kept?.submission;
    return kept?.kind === "level" && kept.attempt === exercise.attempt ? kept.price : "";
  });
  const formTitleId = useId();
  const { answer } = exercise;

  const lines = useMemo((): ChartLine[] => {
    if (answer?.kind === "level") return [...levelLines(answer.answerLow, answer.answerHigh), ...priceLine(answer.price, "Your level", "mark")];
    return priceLine(price, "Your level", "mark");
  }, [answer, price]);

  return (
    <>
      <ExerciseChart
        exercise={exercise}
        precision={precision}
        lines={lines}
        markers={[]}
        onPick={answer ? undefined : (picked) => setPrice(picked.toFixed(precision))}
      />
      {answer?.kind === "level" ? (
        <>
          <LevelResult answer={answer} headingRef={resultRef} />
          <AfterScoring exercise={exercise} params={params} userId={userId} onNewAttempt={flow.clear} />
        </>
      ) : (
        <form
          className="exercise-form"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void flow.submit({ kind: "level", attempt: exercise.attempt, price });
          }}
          aria-labelledby={formTitleId}
        >
          <h4 id={formTitleId}>Your level</h4>
          <p className="exercise-rule">Pass: within {exercise.tolerancePips} pips of the answer.</p>
          <PriceField label="Price" hint="Tap the chart to place your mark, or enter its price." value={price} error={flow.errors.price} onChange={setPrice} />
          <FormMessages error={flow.formError} info={flow.keptNotice} />
          <p className="exercise-actions">
            <SubmitButton pending={flow.pending}>Check My Answer</SubmitButton>
          </p>
        </form>
      )}
    </>
  );
}

function priceLine(text: string, title: string, tone: ChartLine["tone"]): ChartLine[] {
  const price = typedPrice(text);
  return price === null ? [] : [{ price, title, tone }];
}

/** The answer: one line for a level, two for a zone. */
function levelLines(low: string, high: string): ChartLine[] {
  if (low === high) return priceLine(low, "Answer", "answer");
  return [...priceLine(low, "Zone low", "answer"), ...priceLine(high, "Zone high", "answer")];
}

function LevelResult({ answer, headingRef }: { answer: Extract<ExerciseAnswer, { kind: "level" }>; headingRef: Ref<HTMLHeadingElement> }) {
  const zone = answer.answerLow !== answer.answerHigh;
  return (
    <ResultCard passed={answer.passed} heading="Your answer" headingRef={headingRef}>
      <dl className="exercise-figures">
        <Figure term="Your price">{answer.price}</Figure>
        <Figure term="The answer">{zone ? `A zone from ${answer.answerLow} to ${answer.answerHigh}` : answer.answerLow}</Figure>
        <Figure term="Distance">
          {answer.distancePips} pips{zone && Number(answer.distancePips) === 0 ? " (inside the zone)" : ""}
        </Figure>
      </dl>
    </ResultCard>
  );
}

// ---------------------------------------------------------------------------------------------
// What both kinds share

function ExerciseChart(props: {
  exercise: LearnerExercise;
  precision: number;
  lines: readonly ChartLine[];
  markers: readonly ChartMarker[];
  onPick: ((price: number) => void) | undefined;
}) {
  const { exercise, precision, lines, markers, onPick } = props;
  const height = useSyncExternalStore(subscribeToWidth, () => window.matchMedia(WIDE_SCREEN).matches) ? 360 : 260;
  const bars = useChartBars(exercise);
  const summary = chartSummary(exercise.dataSet.instrument, exercise.dataSet.timeframe, bars, precision);
  const drawn = lines.map((line) => `${line.title} ${line.price.toFixed(precision)}`).join(", ");
  const label = drawn ? `${summary}; ${drawn}` : summary;
  return (
    <div className="exercise-chart">
      {/* Offline, the chart's code may never have been fetched: the fields still take the answer. */}
      <FallbackBoundary
        fallback={
          <p className="exercise-chart-missing" style={{ minHeight: height }}>
            The chart could not load. Check your connection and reload the page. {label}.
          </p>
        }
      >
        <Suspense
          fallback={
            <p className="exercise-chart-missing" style={{ minHeight: height }}>
              Loading the chart...
            </p>
          }
        >
          <PriceChart bars={bars} lines={lines} markers={markers} precision={precision} label={label} onPick={onPick} height={height} />
        </Suspense>
      </FallbackBoundary>
    </div>
  );
}

function subscribeToWidth(onChange: () => void) {
  const query = window.matchMedia(WIDE_SCREEN);
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
}

function PriceField(props: { label: string; hint?: string; value: string; error?: string; onChange: (value: string) => void }) {
  const { label, hint, value, error, onChange } = props;
  return (
    <CheckedField label={label} hint={hint} error={error}>
      {(ids) => <input inputMode="decimal" autoComplete="off" value={value} onChange={(event) => onChange(event.target.value)} {...ids} />}
    </CheckedField>
  );
}

function SubmitButton({ pending, children }: { pending: boolean; children: ReactNode }) {
  // aria-disabled rather than disabled: the button keeps the focus while the answer is checked.
  return (
    <button type="submit" className="button" aria-disabled={pending || undefined} aria-busy={pending || undefined}>
      {children}
    </button>
  );
}

function ResultCard(props: { passed: boolean; heading: string; headingRef: Ref<HTMLHeadingElement>; children: ReactNode }) {
  const { passed, heading, headingRef, children } = props;
  const headingId = useId();
  return (
    <section className={passed ? "exercise-result is-passed" : "exercise-result is-failed"} aria-labelledby={headingId}>
      <h4 id={headingId} ref={headingRef} tabIndex={-1}>
        {heading}
      </h4>
      <p className={passed ? "verdict verdict-correct" : "verdict verdict-incorrect"}>
        <MarkIcon mark={passed ? "tick" : "cross"} />
        {passed ? "Passed" : "Not passed"}
      </p>
      {children}
    </section>
  );
}

/** The explanation, then what is next: done, Try Again, or when it may be tried again. */
function AfterScoring(props: { exercise: LearnerExercise; params: Params; userId: string | null; onNewAttempt: () => void }) {
  const { exercise, params, userId, onNewAttempt } = props;
  const newAttempt = useNewExerciseAttempt(params, userId);
  const timeLeft = useTimeLeft(exercise.nextAttemptAt);
  const waiting = exercise.nextAttemptAt !== null && timeLeft !== null && timeLeft > 0;
  return (
    <>
      {exercise.explanation && (
        <div className="exercise-explanation">
          <h4>Explanation</h4>
          <p>{exercise.explanation}</p>
        </div>
      )}
      {exercise.passed ? (
        <p role="status" className="form-success">
          {EXERCISE_MESSAGES.passed}
        </p>
      ) : (
        <div className="exercise-again">
          <p role="status" className="exercise-again-status">
            {newAttempt.error ? newAttempt.error.message : waiting && exercise.nextAttemptAt ? `You can try again at ${timeOfDay(exercise.nextAttemptAt)}.` : ""}
          </p>
          {!waiting && (
            <button
              type="button"
              className="button"
              aria-disabled={newAttempt.isPending || undefined}
              aria-busy={newAttempt.isPending || undefined}
              onClick={() => {
                if (!newAttempt.isPending) newAttempt.mutate(undefined, { onSuccess: onNewAttempt });
              }}
            >
              Try Again
            </button>
          )}
        </div>
      )}
    </>
  );
}

/** "14:05", or "9 Jan, 14:05" when it is not today: the learner's own clock. */
function timeOfDay(at: string): string {
  const date = new Date(at);
  const time = date.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
  return date.toDateString() === new Date().toDateString() ? time : `${date.toLocaleDateString([], { day: "numeric", month: "short" })}, ${time}`;
}


/** The attempt the page shows ended or was scored elsewhere: the exercise is read again. */
function needsRefresh(error: unknown): boolean {
  return error instanceof ApiRequestError && (error.code === "STALE_ATTEMPT" || error.code === "ALREADY_SCORED");
}

const FIELDS = ["direction", "stop", "target", "riskPercent", "price"];

/**
 * Sending an answer. A refusal field by field is shown at each field (`order` above the button).
 * With no network the answer is kept on the device and sent once the browser is back online
 * (kept-answers.ts); the kept copy goes when the server has answered.
 */
function useAnswerFlow(params: Params, userId: string | null, onPassed: () => void, attempt: number) {
  const send = useExerciseAnswer(params, userId, onPassed);
  const refresh = useRefreshExercise(params);
  const online = useOnline();
  const key = userId === null ? null : keptAnswerKey(userId, params.moduleId);
  const [kept, setKept] = useState<KeptAnswer | null>(() => (key === null ? null : readKeptAnswer(localStorage, key)));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState("");
  // A new attempt's fields are empty: the last one's refusals at its fields go with them.
  const [errorsOf, setErrorsOf] = useState(attempt);
  if (errorsOf !== attempt) {
    setErrorsOf(attempt);
    setErrors({});
  }

  function answered(response: Awaited<ReturnType<typeof send.mutateAsync>>) {
    setErrors(response.ok ? {} : response.errors);
  }
  function refused(error: unknown) {
    setMessage(error instanceof Error ? error.message : String(error));
    if (needsRefresh(error)) void refresh();
  }

  async function submit(submission: ExerciseSubmission) {
    if (send.isPending) return;
    setErrors({});
    setMessage("");
    try {
      answered(await send.mutateAsync(submission));
    } catch (error) {
      const keeping: KeptAnswer = { ...params, submission };
      if (isNetworkFailure(error) && key !== null && keepAnswer(localStorage, key, keeping)) setKept(keeping);
      else refused(error);
    }
  }

  // Back online (or opened online with an answer kept): the kept answer is sent, once.
  const { mutateAsync } = send;
  const sentKept = useEffectEvent((outcome: SendOutcome<Awaited<ReturnType<typeof mutateAsync>>>) => {
    if (outcome.status === "offline") return;
    setKept(null);
    if (outcome.status === "answered") answered(outcome.answer);
    if (outcome.status === "refused") refused(outcome.error);
  });
  // A phone on a network that comes and goes may say it is online while nothing gets through (or
  // miss saying it is back): while an answer is kept, it is tried again every few seconds too.
  const [tries, setTries] = useState(0);
  useEffect(() => {
    if (kept === null) return;
    const timer = setInterval(() => setTries((count) => count + 1), KEPT_ANSWER_RETRY_MS);
    return () => clearInterval(timer);
  }, [kept]);
  useEffect(() => {
    if (!online || key === null || kept === null) return;
    let shown = true;
    void sendKeptAnswer(localStorage, key, (answer) => mutateAsync(answer.submission)).then((outcome) => {
      if (shown) sentKept(outcome);
    });
    return () => {
      shown = false;
    };
  }, [online, key, kept, mutateAsync, tries]);

  const fieldErrors = errors;
  const formErrors = Object.entries(errors)
    .filter(([field]) => !FIELDS.includes(field))
    .map(([, text]) => text);
  return {
    submit,
    fail: (shown: FieldErrors) => setErrors(shown),
    /** A new attempt: what was said of the last one's answer no longer holds. */
    clear: () => {
      setErrors({});
      setMessage("");
    },
    errors: fieldErrors,
    formError: [message, ...formErrors].filter(Boolean).join(" ") || undefined,
    keptNotice: kept ? (send.isPending ? "Sending the answer kept on this phone..." : ANSWER_KEPT_OFFLINE) : undefined,
    kept,
    pending: send.isPending,
  };
}

type AnswerFlow = ReturnType<typeof useAnswerFlow>;
