// Context across awaits only while a call needs it (docs/performance.md, "Context only while a
// call needs it"). On Node 20, once any AsyncLocalStorage has run, Node calls a hook for every
// promise and async resource the process creates, for as long as any storage stays enabled: the
// auth library keeps three, which its first sign-in enabled for the life of the process, and every
// signed-in read after it paid for the hook. Every call that reads a context here (the auth
// library's handler and API, and our own stores' runs) is counted; when the last one ends, every
// storage is disabled, which turns the hook off until the next call enables its own again.
import { AsyncLocalStorage } from "node:async_hooks";
import {
  getCurrentAuthContextAsyncLocalStorage,
  getCurrentDBAdapterAsyncLocalStorage,
  getRequestStateAsyncLocalStorage,
} from "@better-auth/core/context";

const storages = new Set<AsyncLocalStorage<unknown>>();
let calls = 0;

/**
 * The auth library's storages (request state, endpoint context, transaction adapter), created by
 * the library on first use or here, the same instances either way; known before any counted call
 * goes on, so before any can end.
 */
const authLibraryStorages = Promise.all([
  getRequestStateAsyncLocalStorage(),
  getCurrentAuthContextAsyncLocalStorage(),
  getCurrentDBAdapterAsyncLocalStorage(),
]).then((found) => {
  for (const storage of found) storages.add(storage);
});

/** Runs `call` counted: when no counted call is left running, every storage is disabled. */
async function counted<T>(call: () => Promise<T>): Promise<T> {
  calls += 1;
  try {
    await authLibraryStorages;
    return await call();
  } finally {
    calls -= 1;
    if (calls === 0) for (const storage of storages) storage.disable();
  }
}

/** A value for the length of one call and whatever it awaits: AsyncLocalStorage, counted. */
export class CallContext<T> {
  readonly #storage = new AsyncLocalStorage<T>();

  constructor() {
    storages.add(this.#storage);
  }

  run<R>(value: T, call: () => Promise<R>): Promise<R> {
    return counted(() => this.#storage.run(value, call));
  }

  /** The value of the call running now, if any. */
  get(): T | undefined {
    return this.#storage.getStore();
  }
}

type Callable = (...args: never[]) => unknown;

/** `fn` as a counted call, with the properties the library hangs on its endpoints. */
function countedFunction<F extends Callable>(fn: F): F {
  const wrapped = (...args: Parameters<F>) => counted(async () => fn(...args));
  return Object.assign(wrapped, fn) as unknown as F;
}

/**
 * The auth library's instance with its handler and every API function counted, so that no path
 * into the library runs outside a counted call.
 */
export function contextOnlyInCalls<A extends { handler: Callable; api: Record<string, unknown> }>(auth: A): A {
  const api = Object.fromEntries(
    Object.entries(auth.api).map(([name, endpoint]) => [name, typeof endpoint === "function" ? countedFunction(endpoint as Callable) : endpoint]),
  );
  const handler = countedFunction(auth.handler);
  return { ...auth, handler, fetch: handler, api };
}
