// The one API client: every response is parsed with the shared Zod schema of its route.
import type * as z from "zod/mini";
import { addressOf, type Answer, type CallInput, type Endpoint } from "../../shared/contracts/endpoint.ts";
import { apiErrorSchema } from "../../shared/contracts/errors.ts";
import { keepForOffline, withoutWorker } from "./service-worker.ts";

export const NETWORK_ERROR_MESSAGE = "Network error. Please check your connection and try again.";
export const GENERIC_ERROR_MESSAGE = "An unexpected error occurred. Please try again.";

export class ApiRequestError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
  ) {
    super(message);
  }
}

/** `body` is sent as JSON; `file`, a file chosen by the person, as the bytes they are. */
type RequestOptions = {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  body?: unknown;
  file?: Blob;
  /** The request outlives the page (a save as the learner leaves it). */
  keepalive?: boolean;
};

function requestBody(options: RequestOptions): { headers: Record<string, string>; body?: BodyInit } {
  if (options.file) return { headers: { "content-type": "application/octet-stream" }, body: options.file };
  if (options.body === undefined) return { headers: {} };
  return { headers: { "content-type": "application/json" }, body: JSON.stringify(options.body) };
}

export async function apiRequest<S extends z.ZodMiniType>(
  path: string,
  schema: S,
  options: RequestOptions = {},
): Promise<z.output<S>> {
  let response: Response;
  const askedWithoutWorker = withoutWorker();
  try {
    response = await fetch(path, {
      method: options.method ?? "GET",
      credentials: "same-origin",
      ...requestBody(options),
      keepalive: options.keepalive,
    });
  } catch {
    throw new ApiRequestError(NETWORK_ERROR_MESSAGE, 0, "NETWORK");
  }

  keepForOffline(path, response, askedWithoutWorker, options.method);
  const payload: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const error = apiErrorSchema.safeParse(payload);
    throw error.success
      ? new ApiRequestError(error.data.error.message, response.status, error.data.error.code)
      : new ApiRequestError(GENERIC_ERROR_MESSAGE, response.status, "UNKNOWN");
  }
  const parsed = schema.safeParse(payload);
  if (!parsed.success) throw new ApiRequestError(GENERIC_ERROR_MESSAGE, response.status, "SHAPE");
  return parsed.data;
}

/** How a call is made, beside what it sends. */
type CallOptions = Pick<RequestOptions, "keepalive">;

/**
 * Calls an endpoint declared in src/shared/contracts (decision 022): its address made from its
 * path and the call's parameters and query, its body sent, its answer parsed with its schema.
 */
export function call<E extends Endpoint>(declared: E, input: CallInput<E>, { keepalive }: CallOptions = {}): Promise<Answer<E>> {
  const { params, query, body } = input as { params?: Record<string, string>; query?: Record<string, string | number | boolean | undefined>; body?: unknown };
  return apiRequest<E["response"]>(addressOf(declared, params, query), declared.response, { method: declared.method, body, keepalive });
}
