// Reading a progress entry. A learner's entry maps module ids to true; an administrator may have
// stored any JSON or text there, which simply counts as nothing watched.

export function watchedModuleIds(data: unknown, moduleIds: readonly string[]): string[] {
  if (typeof data !== "object" || data === null || Array.isArray(data)) return [];
  const entry = data as Record<string, unknown>;
  return moduleIds.filter((id) => entry[id] === true);
}

/** The letter an option starts with: "B) A price area..." -> "B". */
export function optionLetter(option: string): string | null {
  return /^\s*([A-Za-z])\)/.exec(option)?.[1]?.toUpperCase() ?? null;
}
