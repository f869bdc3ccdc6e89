// The Programs tab's calls: programs with their modules, and each program's quiz. Every change
// refreshes the whole admin cache (the counts in the tab labels too), failed or not: a 409 means
// the list on screen was out of date.
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  adminProgramListSchema,
  adminQuizSchema,
  okSchema,
  programResponseSchema,
  publishSummarySchema,
  type AdminQuiz,
  type CreateProgramInput,
} from "../../../shared/contracts/admin.ts";
import { apiRequest, ApiRequestError } from "../../lib/api.ts";
import { ADMIN_KEY, refreshAdmin } from "./admin-api.ts";

const PROGRAMS_KEY = [...ADMIN_KEY, "programs"] as const;

function programPath(id: string) {
  return `/api/admin/programs/${encodeURIComponent(id)}`;
}

export const adminProgramsQuery = queryOptions({
  queryKey: PROGRAMS_KEY,
  queryFn: async () => (await apiRequest("/api/admin/programs", adminProgramListSchema)).programs,
});

export function useAdminPrograms() {
  return useQuery(adminProgramsQuery);
}

export function adminQuizQuery(programId: string) {
  return queryOptions({
    queryKey: [...PROGRAMS_KEY, programId, "quiz"],
    queryFn: () => apiRequest(`${programPath(programId)}/quiz`, adminQuizSchema),
    // An editor starts from what the server holds now, never from a copy kept since last time.
    staleTime: 0,
    gcTime: 0,
  });
}

export function useAdminQuiz(programId: string) {
  return useQuery(adminQuizQuery(programId));
}

/** Save Program: a new program is created under its id, an existing one is replaced. */
export type SaveProgramRequest = { isNew: boolean; program: CreateProgramInput };

export function useSaveProgram() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ isNew, program }: SaveProgramRequest) => {
      if (isNew) return apiRequest("/api/admin/programs", programResponseSchema, { method: "POST", body: program });
      const { id, ...fields } = program;
      return apiRequest(programPath(id), programResponseSchema, { method: "PUT", body: fields });
    },
    onSettled: () => refreshAdmin(queryClient),
  });
}

export function useDeleteProgram() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest(programPath(id), okSchema, { method: "DELETE" }),
    onSettled: () => refreshAdmin(queryClient),
  });
}

/** What Publish would put before learners, read afresh as its confirmation opens. */
export function usePublishSummary(id: string, enabled: boolean) {
  return useQuery({
    queryKey: [...PROGRAMS_KEY, id, "publish"],
    queryFn: () => apiRequest(`${programPath(id)}/publish`, publishSummarySchema),
    enabled,
    staleTime: 0,
    gcTime: 0,
  });
}

export function usePublishProgram() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest(`${programPath(id)}/publish`, programResponseSchema, { method: "POST" }),
    onSettled: () => refreshAdmin(queryClient),
  });
}

/** Archive / Restore: out of the catalogue or back in it; the learners' progress stays either way. */
export function useArchiveProgram() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, archived }: { id: string; archived: boolean }) =>
      apiRequest(`${programPath(id)}/archive`, programResponseSchema, { method: "POST", body: { archived } }),
    onSettled: () => refreshAdmin(queryClient),
  });
}

export function useSaveQuiz(programId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (quiz: AdminQuiz) => apiRequest(`${programPath(programId)}/quiz`, adminQuizSchema, { method: "PUT", body: quiz }),
    onSettled: () => refreshAdmin(queryClient),
  });
}

function attachmentsPath(programId: string, moduleId: string) {
  return `${programPath(programId)}/modules/${encodeURIComponent(moduleId)}/attachments`;
}

/** Attaches a file to a saved lesson: answered with the program as it now is. */
export function useAddAttachment(programId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ moduleId, file }: { moduleId: string; file: File }) =>
      apiRequest(`${attachmentsPath(programId, moduleId)}?name=${encodeURIComponent(file.name)}`, programResponseSchema, {
        method: "POST",
        file,
      }),
    onSettled: () => refreshAdmin(queryClient),
  });
}

export function useRemoveAttachment(programId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ moduleId, attachmentId }: { moduleId: string; attachmentId: string }) =>
      apiRequest(`${attachmentsPath(programId, moduleId)}/${encodeURIComponent(attachmentId)}`, programResponseSchema, {
        method: "DELETE",
      }),
    onSettled: () => refreshAdmin(queryClient),
  });
}

/** A 400 or 409 carries a sentence about the input worth showing; anything else does not. */
export function validationMessage(error: unknown): string | null {
  return error instanceof ApiRequestError && (error.status === 400 || error.status === 409) ? error.message : null;
}
