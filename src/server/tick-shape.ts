// Keeps one of Node's tick objects for the life of the process, so that every `process.nextTick`
// after it builds its tick with the same hidden classes (docs/performance.md, "The tick's shape").
//
// `nextTick` builds each tick with an object literal whose first keys are computed; V8 gives each
// of those definitions one shape to expect and, the first time it meets another, takes its slow
// path for good. The shapes are V8's transitions from the literal's map, which a full garbage
// collection drops when no object holds them: the next tick then gets new ones and every tick of
// every request pays the slow path. One tick object kept alive keeps its shapes alive.
//
// It must run before the process's first full collection, so each entry imports it first.
import { executionAsyncResource } from "node:async_hooks";

let keptTick: object | undefined;

process.nextTick(() => {
  // Within a tick's callback, the executing resource is the tick object itself.
  keptTick = executionAsyncResource();
});

/**
 * The kept tick object, once the tick has run, for the test that checks it is the tick's own: a
 * script of its own imports it in a fresh process, which the dead-code check cannot follow.
 * @public
 */
export function keptTickObject(): object | undefined {
  return keptTick;
}
