// A page of one of the admin console's lists, cut in the database: RECORDS_PAGE_SIZE rows, newest
// first as each list orders them, and the total the page count is drawn from.
import { RECORDS_PAGE_SIZE, type Pagination } from "../../shared/contracts/admin.ts";

/** The rows of page `page` (from 1). */
export function paging(page: number) {
  return { limit: RECORDS_PAGE_SIZE, offset: (page - 1) * RECORDS_PAGE_SIZE };
}

/** What the answer says of its page, with `total` from a count query (none: 0). */
export function pagination(page: number, total: { n: number } | undefined): Pagination {
  return { page, pageSize: RECORDS_PAGE_SIZE, total: total?.n ?? 0 };
}
