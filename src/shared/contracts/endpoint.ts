// An endpoint of the API, declared once (docs/decisions/022-one-endpoint-table.md): its method,
// path, parameters, query, body and answer. The server registers its route from the declaration
// (`route` in src/server/plugins/endpoints.ts) and the browser calls it (`call` in
// src/web/lib/api.ts), so a path or a body changed here is a type error on both sides.
import type * as z from "zod/mini";

export type Endpoint = {
  readonly method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  readonly path: `/api/${string}`;
  /** The path's `:name` parts. */
  readonly params?: z.ZodMiniType;
  readonly query?: z.ZodMiniType;
  /** A JSON body. */
  readonly body?: z.ZodMiniType;
  /** The answer when the call succeeds, with `status` (200 unless said). */
  readonly response: z.ZodMiniType;
  readonly status?: 200 | 201 | 202;
};

/** Declares an endpoint, keeping the literal types the server and the browser read from it. */
export function endpoint<const E extends Endpoint>(declared: E): E {
  return declared;
}

/** What a part of a call is, as its schema takes it (`In`) or gives it (`Out`); nothing without one. */
type In<S> = S extends z.ZodMiniType ? z.input<S> : undefined;
export type Out<S> = S extends z.ZodMiniType ? z.output<S> : undefined;

type Part<Name extends string, S> = S extends z.ZodMiniType ? { readonly [K in Name]: In<S> } : { readonly [K in Name]?: never };

/** What a caller sends: the path's parameters, the query and the body, each only where the endpoint has one. */
export type CallInput<E extends Endpoint> = Part<"params", E["params"]> & Part<"query", E["query"]> & Part<"body", E["body"]>;

/** What the caller gets back. */
export type Answer<E extends Endpoint> = z.output<E["response"]>;

/**
 * The address of a call: each `:name` of the path replaced by its parameter (encoded), then the
 * query's defined values, in the order given.
 */
export function addressOf(declared: Endpoint, params?: Record<string, string>, query?: Record<string, string | number | boolean | undefined>): string {
  const path = declared.path.replace(/:(\w+)/g, (_match, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`${declared.method} ${declared.path} needs its "${name}"`);
    return encodeURIComponent(value);
  });
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined) search.set(name, String(value));
  const queryString = search.toString();
  return queryString ? `${path}?${queryString}` : path;
}
