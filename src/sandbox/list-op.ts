import { fail, ok } from './envelope.ts';
import { describeIssues } from './issues.ts';
import { toListRecord } from './list-record.ts';
import type { StoredListing } from './listing-store.ts';
import { listSchema } from './request-schemas.ts';
import { envelopeReply, type Handler } from './state.ts';

const DEFAULT_PAGE_SIZE = 20;

/**
 * List (4.5): filter, order by ID, page. `PageSize` above `maxPageSize` is cut to it without a word,
 * as a real server with an undocumented maximum would; a page past the end is an empty `List`.
 * `VirtualCount` is the number of records matching the filters, on every page.
 */
export const list: Handler = (body, state) => {
  const parsed = listSchema.safeParse(body, { reportInput: true });
  if (!parsed.success) return envelopeReply(fail(400, describeIssues(parsed.error)));
  const request = parsed.data;
  // An empty filter is read as no filter, as form-style APIs usually do.
  const city = request.CityName ? request.CityName.toLowerCase() : undefined;
  const mls = request.MLSNumber || undefined;
  const all = state.listings.all(request.SerialNumber);
  // Without a filter a page is a slice of the chatbot's records, whatever their number: a real
  // server pages an index, and a copy of a million records per page would make the sandbox, not
  // the client, the cost of reading a big chatbot (the benches' page-read floor).
  const filtered = city !== undefined || request.SaleType !== undefined || mls !== undefined;
  const matching = !filtered
    ? all
    : all.filter(
        (record: StoredListing) =>
          (city === undefined || record.City?.toLowerCase() === city) &&
          (request.SaleType === undefined || record.SaleType === request.SaleType) &&
          (mls === undefined || record.MLSNumber === mls),
      );
  const pageSize = Math.min(request.PageSize ?? DEFAULT_PAGE_SIZE, state.settings.maxPageSize);
  const start = ((request.PageNumber ?? 1) - 1) * pageSize;
  const page = matching.slice(start, start + pageSize);
  const List = page.map((record) => toListRecord(record, state.settings.imagesFormat));
  return envelopeReply(ok({ List, VirtualCount: matching.length }));
};
