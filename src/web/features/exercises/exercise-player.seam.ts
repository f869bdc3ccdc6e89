// Exercises' player seam: a lesson that is a chart exercise shows the exercise player in the course
// player (learning) instead of a video, loaded (with its chart) only when such a lesson opens.
export { ExercisePlayer } from "./exercise-player.tsx";
