// The Programs tab's calls: programs with their modules, and each program's quiz. Every change
// refreshes the whole admin cache (the counts in the tab labels too), failed or not: a 409 means
// the list on screen was out of date.
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ADMIN_PROGRAMS_ENDPOINTS, type AdminQuiz, type CreateProgramInput } from "../../../../shared/contracts/admin.ts";
import { addressOf } from "../../../../shared/contracts/endpoint.ts";
import { apiRequest, ApiRequestError, call } from "../../../lib/api.ts";
import { ADMIN_KEY, refreshAdmin } from "../admin-api.ts";

const PROGRAMS_KEY = [...ADMIN_KEY, "programs"] as const;

export const adminProgramsQuery = queryOptions({
  queryKey: PROGRAMS_KEY,
  queryFn: async () => (await call(ADMIN_PROGRAMS_ENDPOINTS.list, {})).programs,
});

export function useAdminPrograms() {
  return useQuery(adminProgramsQuery);
}

export function adminQuizQuery(programId: string) {
  return queryOptions({
    queryKey: [...PROGRAMS_KEY, programId, "quiz"],
    queryFn: () => call(ADMIN_PROGRAMS_ENDPOINTS.quiz, { params: { id: programId } }),
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
      if (isNew) return call(ADMIN_PROGRAMS_ENDPOINTS.create, { body: program });
      const { id, ...fields } = program;
      return call(ADMIN_PROGRAMS_ENDPOINTS.update, { params: { id }, body: fields });
    },
    onSettled: () => refreshAdmin(queryClient),
  });
}

export function useDeleteProgram() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(ADMIN_PROGRAMS_ENDPOINTS.remove, { params: { id } }),
    onSettled: () => refreshAdmin(queryClient),
  });
}

/** What Publish would put before learners, read afresh as its confirmation opens. */
export function usePublishSummary(id: string, enabled: boolean) {
  return useQuery({
    queryKey: [...PROGRAMS_KEY, id, "publish"],
    queryFn: () => call(ADMIN_PROGRAMS_ENDPOINTS.publishSummary, { params: { id } }),
    enabled,
    staleTime: 0,
    gcTime: 0,
  });
}

export function usePublishProgram() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(ADMIN_PROGRAMS_ENDPOINTS.publish, { params: { id } }),
    onSettled: () => refreshAdmin(queryClient),
  });
}

/** Archive / Restore: out of the catalogue or back in it; the learners' progress stays either way. */
export function useArchiveProgram() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, archived }: { id: string; archived: boolean }) =>
      call(ADMIN_PROGRAMS_ENDPOINTS.archive, { params: { id }, body: { archived } }),
    onSettled: () => refreshAdmin(queryClient),
  });
}

export function useSaveQuiz(programId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (quiz: AdminQuiz) => call(ADMIN_PROGRAMS_ENDPOINTS.saveQuiz, { params: { id: programId }, body: quiz }),
    onSettled: () => refreshAdmin(queryClient),
  });
}

/**
 * Attaches a file to a saved lesson: answered with the program as it now is. The file is the body,
 * not JSON, so it goes by apiRequest to the declared address.
 */
export function useAddAttachment(programId: string) {
  const queryClient = useQueryClient();
  const upload = ADMIN_PROGRAMS_ENDPOINTS.addAttachment;
  return useMutation({
    mutationFn: ({ moduleId, file }: { moduleId: string; file: File }) =>
      apiRequest(addressOf(upload, { id: programId, moduleId }, { name: file.name }), upload.response, { method: upload.method, file }),
    onSettled: () => refreshAdmin(queryClient),
  });
}

export function useRemoveAttachment(programId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ moduleId, attachmentId }: { moduleId: string; attachmentId: string }) =>
      call(ADMIN_PROGRAMS_ENDPOINTS.removeAttachment, { params: { id: programId, moduleId, attachmentId } }),
    onSettled: () => refreshAdmin(queryClient),
  });
}

/** A 400 or 409 carries a sentence about the input worth showing; anything else does not. */
export function validationMessage(error: unknown): string | null {
  return error instanceof ApiRequestError && (error.status === 400 || error.status === 409) ? error.message : null;
}
