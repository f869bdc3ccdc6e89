// The tick and the cross drawn next to a text that already says the same (Watched, Correct):
// decoration only, hidden from screen readers.
const PATHS = {
  tick: "M5 12.5l4.5 4.5L19 7.5",
  cross: "M6.5 6.5l11 11M17.5 6.5l-11 11",
};

export function MarkIcon({ mark }: { mark: keyof typeof PATHS }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" width="18" height="18">
      <path
        d={PATHS[mark]}
        fill="none"
        stroke="currentColor"
        strokeWidth="2.5"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}
