// Route handlers still running, so that a shutdown closes the database only once they are done
// (docs/operations.md, "Starting and stopping"). Fastify's close resolves when the connections
// have closed: a client that went away mid-request leaves its handler running, and that handler's
// next query would find the pool ended.
import type { FastifyInstance, RouteHandlerMethod } from "fastify";

export type HandlersInFlight = {
  readonly count: number;
  /** Resolves once no handler is running, or after `deadlineMs` whatever is still running. */
  settled(deadlineMs: number): Promise<void>;
};

/** Counts every route declared after this call (register it before the routes). */
export function trackHandlersInFlight(app: FastifyInstance): HandlersInFlight {
  let count = 0;
  let idle: (() => void)[] = [];
  const leave = () => {
    count--;
    if (count > 0) return;
    for (const resolve of idle) resolve();
    idle = [];
  };
  app.addHook("onRoute", (route) => {
    const handler = route.handler as RouteHandlerMethod;
    route.handler = function (this: FastifyInstance, request, reply) {
      count++;
      let result: unknown;
      try {
        result = handler.call(this, request, reply);
      } catch (error) {
        leave();
        throw error;
      }
      if (result instanceof Promise) return result.finally(leave);
      leave();
      return result;
    } as RouteHandlerMethod;
  });
  return {
    get count() {
      return count;
    },
    async settled(deadlineMs) {
      if (count === 0) return;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        new Promise<void>((resolve) => idle.push(resolve)),
        new Promise<void>((resolve) => (timer = setTimeout(resolve, deadlineMs))),
      ]);
      clearTimeout(timer);
    },
  };
}
