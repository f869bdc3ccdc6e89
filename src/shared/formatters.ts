// Number and date formatting that costs nothing as a module loads (docs/performance.md, "Start-up
// in the browser"): the first Intl formatter a page makes loads the locale's data, tens of
// milliseconds on a slow phone, so formatters are made when first used, and limits written into
// constant messages are grouped without Intl.

/** An Intl formatter made on its first use and kept. */
export function onFirstUse<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}

/** A whole number with its thousands grouped as en-US writes them: 2000 -> "2,000". */
export function groupThousands(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}
