// A list paged by the server: its loading, failure and empty states, the table's scrolling box,
// and "Page X of Y" with Previous and Next. The page number lives in the address (?page=2), so a
// reload or a shared link opens the same page.
import { useCallback, useEffect, type ReactNode } from "react";
import { useSearchParams } from "react-router";
import "./pagination.css";

export type PageInfo = { page: number; pageSize: number; total: number };

export function pageCount({ pageSize, total }: Pick<PageInfo, "pageSize" | "total">): number {
  return Math.max(1, Math.ceil(total / Math.max(1, pageSize)));
}

/** `?page=` of the address (1 when absent or not a page number), and a setter that keeps the other params. */
export function usePageParam(): [number, (page: number) => void] {
  const [params, setParams] = useSearchParams();
  const raw = Number(params.get("page"));
  const page = Number.isSafeInteger(raw) && raw >= 1 ? raw : 1;
  const setPage = useCallback(
    (next: number) =>
      setParams((current) => {
        const updated = new URLSearchParams(current);
        if (next > 1) updated.set("page", String(next));
        else updated.delete("page");
        return updated;
      }),
    [setParams],
  );
  return [page, setPage];
}

type PaginationProps = PageInfo & {
  onPageChange: (page: number) => void;
  /** What is paged, for the navigation landmark: "Users" reads "Users pages". */
  label: string;
};

export function Pagination({ page, pageSize, total, onPageChange, label }: PaginationProps) {
  const pages = pageCount({ pageSize, total });
  return (
    <nav className="pagination" aria-label={`${label} pages`}>
      <p className="pagination-status" aria-live="polite">
        Page {Math.min(page, pages)} of {pages}
      </p>
      <div className="pagination-buttons">
        {/* aria-disabled, not disabled: the button keeps the keyboard focus on the first and last page. */}
        <PageButton label="Previous" disabled={page <= 1} onClick={() => onPageChange(page - 1)} />
        <PageButton label="Next" disabled={page >= pages} onClick={() => onPageChange(page + 1)} />
      </div>
    </nav>
  );
}

function PageButton({ label, disabled, onClick }: { label: string; disabled: boolean; onClick: () => void }) {
  return (
    <button
      type="button"
      className="button button-secondary button-small"
      aria-disabled={disabled || undefined}
      onClick={() => {
        if (!disabled) onClick();
      }}
    >
      {label}
    </button>
  );
}

/** The parts of a TanStack query result a paged list looks at. */
type PagedQuery = {
  data: PageInfo | undefined;
  isPending: boolean;
  isError: boolean;
  error: Error | null;
  isFetching: boolean;
  isPlaceholderData: boolean;
  refetch: () => unknown;
};

type PagedTableProps = {
  query: PagedQuery;
  /** Rows on this page; none shows `empty` instead of the table. */
  rowCount: number;
  /** Plural name of the rows, e.g. "Users". */
  label: string;
  loadingText: string;
  empty: ReactNode;
  onPageChange: (page: number) => void;
  /** The <table>; it scrolls inside its own box on a narrow screen, the page never does. */
  children: ReactNode;
};

export function PagedTable({ query, rowCount, label, loadingText, empty, onPageChange, children }: PagedTableProps) {
  const { data } = query;
  const lastPage = data ? pageCount(data) : 1;

  // A page that no longer exists (rows were admitted away, or an old link): show the last one.
  useEffect(() => {
    if (data && !query.isPlaceholderData && data.page > lastPage) onPageChange(lastPage);
  }, [data, query.isPlaceholderData, lastPage, onPageChange]);

  if (query.isPending) {
    return (
      <p role="status" className="muted">
        {loadingText}
      </p>
    );
  }
  if (!data) {
    return (
      <div role="alert" className="form-error load-error">
        <span>{query.error?.message}</span>
        <button type="button" className="button button-secondary button-small" onClick={() => void query.refetch()}>
          Try again
        </button>
      </div>
    );
  }
  const updating = query.isPlaceholderData;
  return (
    <>
      {/* A failed refresh keeps the rows that were loaded and says so above them. */}
      {query.isError && (
        <p role="alert" className="form-error load-error">
          {query.error?.message}
        </p>
      )}
      {rowCount === 0 ? (
        <p className="table-empty table-wrap">{empty}</p>
      ) : (
        // Focusable, so that a keyboard can scroll a table wider than a phone even when no cell
        // holds a control.
        <div
          className={updating ? "table-wrap is-updating" : "table-wrap"}
          role="region"
          aria-label={label}
          tabIndex={0}
          aria-busy={updating || undefined}
        >
          {children}
        </div>
      )}
      {(data.total > 0 || data.page > 1) && (
        <Pagination
          page={data.page}
          pageSize={data.pageSize}
          total={data.total}
          label={label}
          onPageChange={onPageChange}
        />
      )}
    </>
  );
}
