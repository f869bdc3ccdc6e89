// How a quiz option's letter is read (docs/product.md, "Quiz questions"): "B) Sell" answers "B".
// Apart from quiz.ts, whose question checks need the admin contracts: the learner's track page
// reads the letters with this module alone, without the admin console's messages and schemas.

/** The letter an option starts with: "B) A price area..." -> "B". */
export function optionLetter(option: string): string | null {
  return /^\s*([A-Za-z])\)/.exec(option)?.[1]?.toUpperCase() ?? null;
}

/**
 * The letter a learner's choice of an option is sent as: its own letter, or for an option without
 * one (only a quiz stored without checkQuestion could have it) its position, A for the first, so
 * that every option the server sends still has a button.
 */
export function optionLetterOrPosition(option: string, index: number): string {
  return optionLetter(option) ?? String.fromCharCode(65 + index);
}
