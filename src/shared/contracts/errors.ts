import * as z from "zod/mini";

/** The one error shape every API route answers with. */
export const apiErrorSchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    /** The server's id for the request, the key to its log lines (docs/operations.md, Observability). */
    requestId: z.optional(z.string()),
  }),
});
