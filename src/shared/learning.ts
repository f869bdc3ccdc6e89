// Learning rules the server and the browser both apply (docs/product.md, "Track page"). Pure: the
// server on every track it sends and every answer it checks, the browser when Mark as Watched
// updates the track it holds.

/** The quiz belongs to one video (the first) and opens once that video is watched. */
export function isQuizUnlocked(quiz: { moduleId: string }, watched: readonly string[]): boolean {
  return watched.includes(quiz.moduleId);
}
