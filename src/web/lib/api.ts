// The one API client: every response is parsed with the shared Zod schema of its route.
import type * as z from "zod/mini";
import { apiErrorSchema } from "../../shared/contracts/errors.ts";

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

type RequestOptions = {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  body?: unknown;
  /** The request outlives the page (a save as the learner leaves it). */
  keepalive?: boolean;
};

export async function apiRequest<S extends z.ZodMiniType>(
  path: string,
  schema: S,
  options: RequestOptions = {},
): Promise<z.output<S>> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: options.method ?? "GET",
      credentials: "same-origin",
      headers: options.body === undefined ? {} : { "content-type": "application/json" },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      keepalive: options.keepalive,
    });
  } catch {
    throw new ApiRequestError(NETWORK_ERROR_MESSAGE, 0, "NETWORK");
  }

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
