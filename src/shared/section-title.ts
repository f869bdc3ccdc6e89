// How learners see a module's title (docs/product.md, "Track page"): numbered by its place in the
// program, "Section 2: Risk management". The number comes from the position, never from the title.

const TYPED_NUMBER = /^\s*section\s+\d+\s*[:.\-–—]\s*/i;

/**
 * "Section {position}: {title}". A title typed with its own "Section N:" in front (before the
 * admin form said the number is added) is shown once, with the number of its place.
 */
export function sectionTitle(position: number, title: string): string {
  return `Section ${position}: ${title.replace(TYPED_NUMBER, "")}`;
}
