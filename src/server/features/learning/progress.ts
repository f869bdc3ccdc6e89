// Reading a progress entry. A learner's entry maps module ids to true; an administrator may have
// stored any JSON or text there, which simply counts as nothing watched.

export function watchedModuleIds(data: unknown, moduleIds: readonly string[]): string[] {
  if (typeof data !== "object" || data === null || Array.isArray(data)) return [];
  const entry = data as Record<string, unknown>;
  return moduleIds.filter((id) => entry[id] === true);
}
