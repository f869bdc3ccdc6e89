// Exercises' seam: the catalogue checks an exercise's settings when an administrator saves its
// lesson (docs/trading.md, "Exercises").
export { checkedExercise } from "./exercise-settings.ts";
