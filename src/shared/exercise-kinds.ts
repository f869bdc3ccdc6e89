// The kinds of chart exercise (docs/trading.md, "Exercises"), in a module of their own: the lesson
// list names them, and it is in every page's first download, which the rest of the exercises'
// contract is not.
export const EXERCISE_KINDS = ["replay", "level"] as const;
export type ExerciseKind = (typeof EXERCISE_KINDS)[number];
