// A lesson as a chart exercise, in the module form (docs/trading.md, "Exercises"): its kind, the
// price data it replays, the bar the learner decides at and what passes, with a live preview of
// the chart the learner will see. Save Program sends the settings and the server checks each one
// against the data set, answering with EXERCISE_MESSAGES' words; this form checks only what it
// needs to build them.
import { lazy, Suspense, useId, useMemo, useState, type ComponentProps } from "react";
import { useWatch, type UseFormReturn } from "react-hook-form";
import { ADMIN_MESSAGES } from "../../../../shared/contracts/admin.ts";
import {
  EXERCISE_EXPLANATION_MAX_LENGTH,
  EXERCISE_HISTORY_BARS,
  EXERCISE_MESSAGES,
  type ChartBar,
  type ExerciseInput,
  type ExerciseKind,
} from "../../../../shared/contracts/exercises.ts";
import type { PriceBar, PriceDataSet } from "../../../../shared/contracts/price-data.ts";
import { BALANCE_CURRENCIES, type BalanceCurrency } from "../../../../shared/trading/instruments.ts";
import { FallbackBoundary } from "../../../ui/fallback-boundary.tsx";
import { Field, SelectField, TextAreaField, TextField } from "../../../ui/text-field.tsx";
import { useExerciseDataSets, usePriceBars } from "../exercises/price-data-api.ts";
import type { ModuleDraft } from "./modules-editor.tsx";
import { retryWaitFromField } from "./quiz-modal.tsx";
import "./exercise-fields.css";

// The chart library is loaded with the preview, never with the console (docs/trading.md, "Exercises").
const PriceChart = lazy(() => import("../../exercises/price-chart.seam.ts"));
type ChartProps = ComponentProps<typeof PriceChart>;

export type LessonKind = "video" | "exercise";

export const EXERCISE_KIND_LABELS: Record<ExerciseKind, string> = { replay: "Replay trade", level: "Mark the level" };

/** The exercise's fields as typed; the numbers are made on Add Module. */
export type ExerciseDraft = {
  kind: ExerciseKind;
  /** "" until chosen. */
  dataSetId: string;
  startBar: string;
  balance: string;
  currency: BalanceCurrency;
  passR: string;
  maxRiskPercent: string;
  answerLow: string;
  answerHigh: string;
  tolerancePips: string;
  explanation: string;
  retryWaitMinutes: string;
};

export const EMPTY_EXERCISE_DRAFT: ExerciseDraft = {
  kind: "replay",
  dataSetId: "",
  startBar: "",
  balance: "1000",
  currency: "USD",
  passR: "0",
  maxRiskPercent: "2",
  answerLow: "",
  answerHigh: "",
  tolerancePips: "",
  explanation: "",
  retryWaitMinutes: "10",
};

/** A saved exercise in the form. The server keeps a single level's upper edge equal to its lower one: it shows empty. */
export function exerciseDraft(exercise: ExerciseInput | null): ExerciseDraft {
  if (!exercise) return EMPTY_EXERCISE_DRAFT;
  const empty = EMPTY_EXERCISE_DRAFT;
  const answerLow = exercise.answerLow ?? "";
  const answerHigh = exercise.answerHigh ?? "";
  return {
    kind: exercise.kind,
    dataSetId: exercise.dataSetId,
    startBar: String(exercise.startBar),
    balance: exercise.balance ?? empty.balance,
    currency: exercise.currency ?? empty.currency,
    passR: exercise.passR ?? empty.passR,
    maxRiskPercent: exercise.maxRiskPercent ?? empty.maxRiskPercent,
    answerLow,
    answerHigh: answerHigh === answerLow ? "" : answerHigh,
    tolerancePips: exercise.tolerancePips ?? "",
    explanation: exercise.explanation ?? "",
    retryWaitMinutes: String(exercise.retryWaitMinutes ?? empty.retryWaitMinutes),
  };
}

/** The last bar an exercise can start at: a replay needs a bar after it to play out, a level does not. */
function lastStartBar(kind: ExerciseKind, barCount: number): number {
  return kind === "replay" ? barCount - 2 : barCount - 1;
}

const START_BAR_WHOLE = "Enter the start bar as a whole number, 1 or more.";

function wholeNumber(text: string): number | undefined {
  return /^\d{1,9}$/.test(text.trim()) ? Number(text.trim()) : undefined;
}

/**
 * The settings Save Program sends, with only the chosen kind's fields; or why they cannot be made.
 * `barCount` is the chosen set's, when the form knows it (else the server checks the start bar).
 */
export function exerciseFromDraft(draft: ExerciseDraft, barCount: number | undefined): { exercise: ExerciseInput } | { error: string } {
  if (draft.dataSetId === "") return { error: EXERCISE_MESSAGES.dataSet };
  const startBar = wholeNumber(draft.startBar);
  const last = barCount === undefined ? undefined : lastStartBar(draft.kind, barCount);
  if (startBar === undefined || startBar < 1 || (last !== undefined && startBar > last)) {
    return { error: last === undefined ? START_BAR_WHOLE : EXERCISE_MESSAGES.startBar(last) };
  }
  const retryWaitMinutes = retryWaitFromField(draft.retryWaitMinutes);
  if (retryWaitMinutes === undefined) return { error: ADMIN_MESSAGES.retryWaitInvalid };
  const common = { kind: draft.kind, dataSetId: draft.dataSetId, startBar, explanation: draft.explanation.trim(), retryWaitMinutes };
  if (draft.kind === "replay") {
    const { balance, currency, passR, maxRiskPercent } = draft;
    return { exercise: { ...common, balance: balance.trim(), currency, passR: passR.trim(), maxRiskPercent: maxRiskPercent.trim() } };
  }
  const { answerLow, answerHigh, tolerancePips } = draft;
  return { exercise: { ...common, answerLow: answerLow.trim(), answerHigh: answerHigh.trim(), tolerancePips: tolerancePips.trim() } };
}

const GROUPED = new Intl.NumberFormat("en-US");
const BAR_DAY = new Intl.DateTimeFormat("en-GB", { timeZone: "UTC", day: "numeric", month: "short", year: "numeric" });
const BAR_TIME = new Intl.DateTimeFormat("en-GB", { timeZone: "UTC", hour: "2-digit", minute: "2-digit", hourCycle: "h23" });

/** "8 Jan 2024 13:00 UTC": bar times are the file's, kept as UTC (docs/trading.md, "Price data"). */
function barTimeLabel(time: Date): string {
  return `${BAR_DAY.format(time)} ${BAR_TIME.format(time)} UTC`;
}

/** Prices are shown to a tenth of a pip: the decimals of the set's pip size, and one more. */
function pricePrecision(pipSize: string): number {
  const decimals = (pipSize.split(".")[1] ?? "").replace(/0+$/, "");
  return decimals.length + 1;
}

function setLabel(set: PriceDataSet): string {
  const about = `${set.instrument} ${set.timeframe}, ${GROUPED.format(set.barCount)} bars${set.illustrative ? ", illustrative" : ""}`;
  return `${set.name} (${about})`;
}

function chartBar(bar: PriceBar): ChartBar {
  return { t: Date.parse(bar.time) / 1000, o: Number(bar.open), h: Number(bar.high), l: Number(bar.low), c: Number(bar.close) };
}

/** A price typed in a field, for drawing only; undefined while it is not one. */
function drawnPrice(text: string): number | undefined {
  const price = Number(text.trim());
  return text.trim() !== "" && Number.isFinite(price) && price > 0 ? price : undefined;
}

type ExerciseFieldsProps = { form: UseFormReturn<ModuleDraft> };

export function ExerciseFields({ form }: ExerciseFieldsProps) {
  const [kind, dataSetId, startBarText, answerLow, answerHigh] = useWatch({
    control: form.control,
    name: ["exercise.kind", "exercise.dataSetId", "exercise.startBar", "exercise.answerLow", "exercise.answerHigh"],
  });
  const dataSets = useExerciseDataSets(true);
  const listed = dataSets.data?.dataSets ?? [];
  const listedSet = listed.find((set) => set.id === dataSetId);

  // The bars the learner will see: the history before the start bar, and the start bar itself.
  const start = wholeNumber(startBarText);
  const from = Math.max(0, (start ?? 0) - EXERCISE_HISTORY_BARS);
  const last = listedSet ? lastStartBar(kind, listedSet.barCount) : undefined;
  const inRange = dataSetId !== "" && start !== undefined && start >= 1 && (last === undefined || start <= last);
  const bars = usePriceBars(dataSetId, from, (start ?? 0) - from + 1, inRange);
  // A set older than the newest page is known by the bars' answer.
  const set = listedSet ?? (bars.data?.dataSet.id === dataSetId ? bars.data.dataSet : undefined);
  const lastStart = set ? lastStartBar(kind, set.barCount) : undefined;

  function dataSetChosen(id: string) {
    const chosen = listed.find((candidate) => candidate.id === id);
    if (!chosen || form.getValues("exercise.startBar").trim() !== "") return;
    const latest = lastStartBar(form.getValues("exercise.kind"), chosen.barCount);
    if (latest >= 1) form.setValue("exercise.startBar", String(Math.min(EXERCISE_HISTORY_BARS, latest)));
  }

  function step(by: number) {
    const next = Math.max(1, (wholeNumber(form.getValues("exercise.startBar")) ?? 0) + by);
    form.setValue("exercise.startBar", String(lastStart === undefined ? next : Math.min(next, lastStart)));
  }

  return (
    <div className="exercise-fields">
      <fieldset className="choice-group">
        <legend>Exercise kind</legend>
        {(["replay", "level"] as const).map((value) => (
          <label key={value} className="choice">
            <input type="radio" value={value} {...form.register("exercise.kind")} />
            {EXERCISE_KIND_LABELS[value]}
          </label>
        ))}
      </fieldset>

      {dataSets.isPending ? (
        <p className="muted exercise-note">Loading the price data...</p>
      ) : dataSets.isError ? (
        <div className="exercise-note">
          <p className="form-error">The price data could not be loaded.</p>
          <button type="button" className="button button-secondary button-small" onClick={() => void dataSets.refetch()}>
            Try Again
          </button>
        </div>
      ) : listed.length === 0 && dataSetId === "" ? (
        <p className="exercise-note">
          Upload price data in the{" "}
          <a href="/admin?tab=price-data" target="_blank" rel="noopener noreferrer">
            Price Data tab<span className="visually-hidden"> (opens in a new tab)</span>
          </a>{" "}
          first.
        </p>
      ) : (
        <SelectField
          label="Price data"
          hint="The bars the exercise replays, newest first. Add more in the Price Data tab."
          {...form.register("exercise.dataSetId", { onChange: (event: { target: HTMLSelectElement }) => dataSetChosen(event.target.value) })}
        >
          <option value="">Choose price data</option>
          {listed.map((candidate) => (
            <option key={candidate.id} value={candidate.id}>
              {setLabel(candidate)}
            </option>
          ))}
          {dataSetId !== "" && !listedSet && <option value={dataSetId}>{set ? setLabel(set) : "The price data this exercise uses"}</option>}
        </SelectField>
      )}

      <Field
        label="Start bar"
        hint={`The bar the learner decides at, by its place in the set from 0${lastStart === undefined ? "" : `: 1 to ${GROUPED.format(lastStart)}`}. The chart opens with it as its last bar.`}
        control={(ids) => (
          <div className="start-bar">
            <input {...ids} inputMode="numeric" autoComplete="off" {...form.register("exercise.startBar")} />
            <div className="start-bar-steps" role="group" aria-label="Move the start bar">
              {[-10, -1, 1, 10].map((by) => (
                <button key={by} type="button" className="button button-secondary button-small" onClick={() => step(by)}>
                  {by > 0 ? `+${by}` : String(by)}
                </button>
              ))}
            </div>
          </div>
        )}
      />

      {kind === "replay" ? (
        <div className="exercise-field-row">
          <TextField label="Practice balance" inputMode="decimal" autoComplete="off" {...form.register("exercise.balance")} />
          <SelectField label="Balance currency" {...form.register("exercise.currency")}>
            {BALANCE_CURRENCIES.map((currency) => (
              <option key={currency} value={currency}>
                {currency}
              </option>
            ))}
          </SelectField>
          <TextField
            label="Pass at a result of at least (R)"
            hint="0 passes a trade that did not lose; 1, one that made what it risked."
            inputMode="decimal"
            autoComplete="off"
            {...form.register("exercise.passR")}
          />
          <TextField
            label="Largest risk that passes (%)"
            hint="Of the practice balance."
            inputMode="decimal"
            autoComplete="off"
            {...form.register("exercise.maxRiskPercent")}
          />
        </div>
      ) : (
        <div className="exercise-field-row">
          <TextField
            label="Answer (price, or the zone's lower edge)"
            hint="Or tap the chart below."
            inputMode="decimal"
            autoComplete="off"
            {...form.register("exercise.answerLow")}
          />
          <TextField label="Zone's upper edge (empty for one level)" inputMode="decimal" autoComplete="off" {...form.register("exercise.answerHigh")} />
          <TextField
            label="Tolerance (pips)"
            hint="How far from the answer a mark still passes."
            inputMode="decimal"
            autoComplete="off"
            {...form.register("exercise.tolerancePips")}
          />
        </div>
      )}

      <TextAreaField
        label="Explanation"
        hint="Shown to the learner once they have answered."
        rows={4}
        maxLength={EXERCISE_EXPLANATION_MAX_LENGTH}
        spellCheck
        {...form.register("exercise.explanation")}
      />
      <TextField
        label="Wait after an attempt that did not pass (minutes)"
        hint="From 0 to 10080 (a week)."
        inputMode="numeric"
        autoComplete="off"
        {...form.register("exercise.retryWaitMinutes")}
      />

      <ExercisePreview
        set={set}
        kind={kind}
        start={inRange ? start : undefined}
        lastStart={lastStart}
        bars={bars.data?.bars}
        stale={bars.isPlaceholderData}
        failed={bars.isError}
        answerLow={answerLow}
        answerHigh={answerHigh}
        onPick={(price, edge) => form.setValue(edge === "low" ? "exercise.answerLow" : "exercise.answerHigh", price)}
      />
    </div>
  );
}

type Edge = "low" | "high";

type ExercisePreviewProps = {
  set: PriceDataSet | undefined;
  kind: ExerciseKind;
  /** The start bar, once it is one the set has. */
  start: number | undefined;
  lastStart: number | undefined;
  /** The bars up to the start bar, once they are in. */
  bars: readonly PriceBar[] | undefined;
  /** Set while `bars` are those of the start bar before, kept on the chart until the new ones are in. */
  stale: boolean;
  failed: boolean;
  answerLow: string;
  answerHigh: string;
  /** A tap on the chart in "Mark the level": the price, rounded to the set's precision. */
  onPick: (price: string, edge: Edge) => void;
};

/** The chart as the learner will see it at the start bar, with the answer drawn for a level. */
function ExercisePreview({ set, kind, start, lastStart, bars, stale, failed, answerLow, answerHigh, onPick }: ExercisePreviewProps) {
  const headingId = useId();
  const [tapEdge, setTapEdge] = useState<Edge>("low");
  const precision = set ? pricePrecision(set.pipSize) : 5;
  const chartBars = useMemo(() => (bars ?? []).map(chartBar), [bars]);
  const startBar = chartBars.at(-1);
  const markers = useMemo<NonNullable<ChartProps["markers"]>>(
    () => (startBar ? [{ time: startBar.t, text: "Start", tone: "decision" }] : []),
    [startBar],
  );
  const low = kind === "level" ? drawnPrice(answerLow) : undefined;
  const high = kind === "level" ? drawnPrice(answerHigh) : undefined;
  const lines = useMemo<NonNullable<ChartProps["lines"]>>(() => {
    if (low === undefined) return [];
    if (high === undefined) return [{ price: low, title: "Answer", tone: "answer" }];
    return [
      { price: low, title: "Zone low", tone: "answer" },
      { price: high, title: "Zone high", tone: "answer" },
    ];
  }, [low, high]);

  let body;
  if (!set || start === undefined) {
    body = (
      <p className="muted">
        {set && lastStart !== undefined
          ? `Choose a start bar from 1 to ${GROUPED.format(lastStart)} to see the chart.`
          : "Choose the price data and a start bar to see the chart."}
      </p>
    );
  } else if (failed) {
    body = <p className="form-error">The bars could not be loaded.</p>;
  } else if (!bars || (stale && !startBar)) {
    body = <p className="muted">Loading the bars...</p>;
  } else if (!startBar || (!stale && chartBars.length !== Math.min(start, EXERCISE_HISTORY_BARS) + 1)) {
    body = <p className="form-error">{`${set.name} has no bar ${GROUPED.format(start)}: it has ${GROUPED.format(set.barCount)} bars, from 0.`}</p>;
  } else {
    const barsLeft = set.barCount - start - 1;
    const sees = `The learner sees ${GROUPED.format(chartBars.length)} bars, up to ${barTimeLabel(new Date(startBar.t * 1000))} (bar ${GROUPED.format(start)} of ${GROUPED.format(set.barCount)}).`;
    const playOut = `${GROUPED.format(barsLeft)} ${barsLeft === 1 ? "bar is" : "bars are"} left to play out the trade.`;
    // The bars of the start bar before stay on the chart meanwhile; the words wait for the new ones.
    const summary = stale ? "Loading the bars..." : kind === "replay" ? `${sees} ${playOut}` : sees;
    const answer = lines.length === 0 ? "" : ` The answer is drawn at ${lines.map((line) => line.price.toFixed(precision)).join(" to ")}.`;
    body = (
      <>
        {kind === "level" && (
          <fieldset className="choice-group">
            <legend>Tap sets</legend>
            {(["low", "high"] as const).map((edge) => (
              <label key={edge} className="choice">
                <input type="radio" name={`${headingId}-edge`} value={edge} checked={tapEdge === edge} onChange={() => setTapEdge(edge)} />
                {edge === "low" ? "Lower edge" : "Upper edge"}
              </label>
            ))}
          </fieldset>
        )}
        <FallbackBoundary fallback={<p className="form-error">The chart could not be loaded. Reload the page to try again.</p>}>
          <Suspense fallback={<p className="muted">Loading the chart...</p>}>
            <PriceChart
              bars={chartBars}
              markers={markers}
              lines={lines}
              precision={precision}
              label={`Chart of ${set.name}, the start bar marked.${stale ? "" : ` ${sees}`}${answer}`}
              onPick={kind === "level" ? (price) => onPick(price.toFixed(precision), tapEdge) : undefined}
            />
          </Suspense>
        </FallbackBoundary>
        <p aria-live="polite">{summary}</p>
      </>
    );
  }

  return (
    <section className="exercise-preview" aria-labelledby={headingId}>
      <h4 id={headingId}>Preview</h4>
      {body}
    </section>
  );
}
