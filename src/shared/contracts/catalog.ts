import * as z from "zod/mini";
import { TRACKS } from "../plans.ts";
import { endpoint } from "./endpoint.ts";

/** A program as anyone may see it: no modules, no quiz (those are for entitled learners). */
export const programSummarySchema = z.object({
  id: z.string(),
  /** The level (track) whose plans open the program (docs/data.md, "Content"). */
  level: z.enum(TRACKS),
  title: z.string(),
  duration: z.string(),
  priceUsd: z.nullable(z.number()),
  description: z.array(z.string()),
  order: z.int(),
  moduleCount: z.int(),
});
export type ProgramSummary = z.infer<typeof programSummarySchema>;

export const programListSchema = z.object({
  programs: z.array(programSummarySchema),
});
export type ProgramList = z.infer<typeof programListSchema>;

/** The programs as anyone may see them, signed in or not (docs/product.md, "Home and program list"). */
export const CATALOG_ENDPOINTS = {
  programs: endpoint({ method: "GET", path: "/api/programs", response: programListSchema }),
};
