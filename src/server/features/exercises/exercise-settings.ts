// An exercise's settings as an administrator saves them with its lesson (docs/trading.md,
// "Exercises"): each checked against the data set it names, so a learner never opens an exercise
// the server cannot play out or score.
import Big from "big.js";
import { eq } from "drizzle-orm";
import { EXERCISE_MESSAGES, isPositiveDecimal, type ExerciseSettings } from "../../../shared/contracts/exercises.ts";
import { parseDecimal } from "../../../shared/trading/calculators.ts";
import { INSTRUMENT_SYMBOLS } from "../../../shared/trading/instruments.ts";
import type { Tx } from "../../db/client.ts";
import { priceDataSets } from "../../db/schema.ts";
import { HttpError } from "../../plugins/errors.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const invalid = (message: string) => new HttpError(400, "VALIDATION", message);
/** A price as the administrator wrote it (1.0810 keeps its zero), as price data is kept. */
const decimal = (text: string) => text.trim();

/** The settings, checked and written as kept; a 400 naming the first field that is wrong. */
export async function checkedExercise(tx: Tx, input: ExerciseSettings): Promise<ExerciseSettings> {
  // An id that is not a uuid names no set (and is not sent to the database, which would refuse it).
  const [set] = UUID.test(input.dataSetId)
    ? await tx
        .select({ instrument: priceDataSets.instrument, barCount: priceDataSets.barCount })
        .from(priceDataSets)
        .where(eq(priceDataSets.id, input.dataSetId))
        // Kept until the lesson is saved: a removal of the set waits, then sees the lesson (price-data.service.ts).
        .for("key share")
    : [];
  if (!set) throw invalid(EXERCISE_MESSAGES.dataSetMissing);
  const replay = input.kind === "replay";
  // A replay needs a bar after the decision to play out; a marked level is read at its last bar.
  const lastStart = replay ? set.barCount - 2 : set.barCount - 1;
  if (input.startBar > lastStart) throw invalid(EXERCISE_MESSAGES.startBar(lastStart));
  const explanation = input.explanation.trim();
  if (replay) {
    if (!(INSTRUMENT_SYMBOLS as readonly string[]).includes(set.instrument)) throw invalid(EXERCISE_MESSAGES.replayInstrument(INSTRUMENT_SYMBOLS.join(", ")));
    if (!isPositiveDecimal(input.balance)) throw invalid(EXERCISE_MESSAGES.balance);
    const passR = parseDecimal(input.passR);
    if (!passR || passR.lt(-1) || passR.gt(20)) throw invalid(EXERCISE_MESSAGES.passR);
    const maxRisk = parseDecimal(input.maxRiskPercent);
    if (!maxRisk || maxRisk.lte(0) || maxRisk.gt(100)) throw invalid(EXERCISE_MESSAGES.maxRisk);
    return {
      ...input,
      explanation,
      balance: decimal(input.balance),
      passR: passR.toString(),
      maxRiskPercent: maxRisk.toString(),
      answerLow: "",
      answerHigh: "",
      tolerancePips: "",
    };
  }
  if (!isPositiveDecimal(input.answerLow)) throw invalid(EXERCISE_MESSAGES.answerLow);
  const high = input.answerHigh.trim() === "" ? input.answerLow : input.answerHigh;
  if (!isPositiveDecimal(high) || new Big(high.trim()).lt(input.answerLow.trim())) throw invalid(EXERCISE_MESSAGES.answerHigh);
  if (!isPositiveDecimal(input.tolerancePips)) throw invalid(EXERCISE_MESSAGES.tolerance);
  return {
    ...input,
    explanation,
    answerLow: decimal(input.answerLow),
    answerHigh: decimal(high),
    tolerancePips: decimal(input.tolerancePips),
    balance: "1000",
    currency: "USD",
    passR: "0",
    maxRiskPercent: "2",
  };
}
