// One track's progress as the admin edits it (docs/product.md, "Admin console"): the stored entry
// is JSON or text, and so is the field. Pure, so the rule is tested without a browser.

/**
 * The text a field starts with: nothing when no entry is stored, a text entry as it is, anything
 * else as indented JSON.
 */
export function formatProgressField(data: unknown): string {
  if (data === null || data === undefined) return "";
  if (typeof data === "string") return data;
  return JSON.stringify(data, null, 2);
}

/**
 * What Save stores for a field: its JSON when it parses, else its text as typed. An empty (or
 * blank) field stores an empty map `{}`, the same as a new learner's "nothing watched yet", so
 * clearing a field resets that track instead of saving a blank text.
 */
export function parseProgressField(text: string): unknown {
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
