import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type TestServer, withServer } from './with-server.ts';

/**
 * A small RESO Web API (OData) server for the RESO source's tests, written from the providers'
 * published rules as the tests need them (not from feed-sync's query code): `$filter` with `and`
 * and `or` (and parentheses) of `eq ne gt ge lt le` on strings, booleans, numbers and timestamps; `$select`, `$top`, `$orderby`
 * (one or two fields), `$expand=Media`; paging by `$skip` links, or by opaque tokens that expire
 * (Trestle's replication); an optional check of each query (MLS Grid's required filter, a `$top`
 * ceiling); rate headers; and a fault per request. Records are read from `dataset()` at each query.
 */
export interface ODataServerOptions {
  dataset: () => Record<string, unknown>[];
  /** Order when the query names none: MLS Grid by ModificationTimestamp, Spark by ListingKey. */
  defaultOrder?: 'timestamp' | 'key';
  /** Paging links: `$skip` in the query (default) or an opaque token on `/{resource}/replication`. */
  paging?: 'skip' | 'token';
  /** Token links expire this long after their last use (Trestle: 5 min). */
  linkTtlMs?: number;
  /** Token paging: the last page is an empty one that still carries a nextLink (Trestle). */
  emptyLastPage?: boolean;
  /** Refuse a query (400 with this message) the provider's rules do not allow. */
  check?: (params: URLSearchParams) => string | undefined;
  /** Headers of every answer (rate limits), given the count of data requests so far. */
  headers?: (n: number) => Record<string, string>;
  /** A fault for the n-th data request (1-based), instead of the answer. */
  fault?: (n: number, url: URL) => { status: number; headers?: Record<string, string> } | undefined;
  /** Media URLs signed afresh on every read (`?sig=<n>`), as Trestle's are. */
  signMedia?: boolean;
  /** Media arrives without `$expand` (Bridge). */
  mediaInline?: boolean;
  /** Each data request is answered this much later (ms): runs of several processes overlap. */
  latencyMs?: number;
}

export interface ODataServer extends TestServer {
  /** Data requests (not the token endpoint), as URLs, in order. */
  queries: URL[];
}

interface Cursor {
  rows: Record<string, unknown>[];
  at: number;
  top: number;
  usedAt: number;
}

export async function startOData(options: ODataServerOptions): Promise<ODataServer> {
  const queries: URL[] = [];
  const cursors = new Map<string, Cursor>();
  const server = await withServer(async (req, res) => {
    const url = new URL(req.url!, `http://${req.headers.host}`);
    queries.push(url);
    if (options.latencyMs) await new Promise((resolve) => setTimeout(resolve, options.latencyMs));
    const n = queries.length;
    const headers = options.headers?.(n) ?? {};
    const fault = options.fault?.(n, url);
    if (fault)
      return void send(res, fault.status, { error: { message: 'fault' } }, { ...headers, ...fault.headers });
    if (url.pathname.endsWith('/replication')) return void page(req, res, url, headers);
    const problem = options.check?.(url.searchParams);
    if (problem) return void send(res, 400, { error: { message: problem } }, headers);
    let rows: Record<string, unknown>[];
    try {
      rows = query(options, url.searchParams);
    } catch (error) {
      return void send(res, 400, { error: { message: (error as Error).message } }, headers);
    }
    // Bridge asks its page size with OData's `Prefer: odata.maxpagesize`.
    const prefer = /odata\.maxpagesize=(\d+)/.exec(String(req.headers.prefer ?? ''))?.[1];
    const top = Number(prefer ?? url.searchParams.get('$top') ?? 10);
    if ((options.paging ?? 'skip') === 'token') {
      const id = randomUUID();
      cursors.set(id, { rows, at: 0, top, usedAt: Date.now() });
      return void page(req, res, new URL(`${url.origin}${url.pathname}/replication?id=${id}`), headers);
    }
    const skip = Number(url.searchParams.get('$skip') ?? 0);
    const value = rows.slice(skip, skip + top);
    const next = new URL(url);
    next.searchParams.set('$skip', String(skip + top));
    const more = skip + top < rows.length;
    send(res, 200, { value, ...(more ? { '@odata.nextLink': next.toString() } : {}) }, headers);
  });

  function page(_req: IncomingMessage, res: ServerResponse, url: URL, headers: Record<string, string>) {
    const id = url.searchParams.get('id') ?? '';
    const cursor = cursors.get(id);
    const ttl = options.linkTtlMs;
    if (!cursor || (ttl !== undefined && Date.now() - cursor.usedAt > ttl)) {
      cursors.delete(id);
      return void send(res, 404, { error: { message: 'replication link expired' } }, headers);
    }
    cursor.usedAt = Date.now();
    const value = cursor.rows.slice(cursor.at, cursor.at + cursor.top);
    cursor.at += value.length;
    const done = cursor.at >= cursor.rows.length;
    const link = `${url.origin}${url.pathname}?id=${id}`;
    const withLink = !done || (options.emptyLastPage && value.length > 0);
    send(res, 200, { value, ...(withLink ? { '@odata.nextLink': link } : {}) }, headers);
  }

  let reads = 0;
  function query(o: ODataServerOptions, params: URLSearchParams): Record<string, unknown>[] {
    const filter = params.get('$filter');
    let rows = o.dataset().filter((r) => (filter ? matches(r, filter) : true));
    rows = sorted(rows, params.get('$orderby') ?? undefined, o.defaultOrder ?? 'timestamp');
    const select = params.get('$select')?.split(',');
    const expand = params.get('$expand') === 'Media' || o.mediaInline;
    reads++;
    return rows.map((r) => {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(r)) {
        if (k === 'Media' && !expand) continue;
        if (select && !select.includes(k)) continue;
        out[k] = k === 'Media' && o.signMedia ? signed(v, reads) : v;
      }
      return out;
    });
  }

  return { ...server, queries };
}

function signed(media: unknown, n: number): unknown {
  if (!Array.isArray(media)) return media;
  return media.map((m: Record<string, unknown>) => ({ ...m, MediaURL: `${String(m.MediaURL)}?sig=${n}` }));
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string>) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

/** Split a filter at its top-level `and`s (or `or`s: `word`), outside parentheses and quotes. */
function clauses(filter: string, word = 'and'): string[] {
  const sep = ` ${word} `;
  const out: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < filter.length; i++) {
    const c = filter[i];
    if (c === "'") quoted = !quoted;
    if (quoted) continue;
    if (c === '(') depth++;
    if (c === ')') depth--;
    if (depth === 0 && filter.startsWith(sep, i)) {
      out.push(filter.slice(start, i));
      start = i + sep.length;
    }
  }
  out.push(filter.slice(start));
  return out.map((c) => c.trim());
}

function matches(record: Record<string, unknown>, filter: string): boolean {
  const alternatives = clauses(filter, 'or');
  if (alternatives.length > 1) return alternatives.some((alternative) => matches(record, alternative));
  return clauses(filter).every((clause) => {
    if (clause.startsWith('(') && clause.endsWith(')')) return matches(record, clause.slice(1, -1));
    const m = /^(\w+) (eq|ne|gt|ge|lt|le) (.+)$/.exec(clause);
    if (!m) throw new Error(`unsupported clause: ${clause}`);
    const [, field, op, literal] = m as unknown as [string, string, string, string];
    const have = record[field!];
    let want: unknown;
    if (literal.startsWith("'")) want = literal.slice(1, -1).replace(/''/g, "'");
    else if (literal === 'true' || literal === 'false') want = literal === 'true';
    else if (/^\d{4}-\d\d-\d\d/.test(literal)) want = Date.parse(literal);
    else want = Number(literal);
    const a =
      typeof want === 'number' && typeof have === 'string' && field!.endsWith('Timestamp')
        ? Date.parse(have)
        : have;
    const cmp = (a as number | string) < (want as number | string) ? -1 : a === want ? 0 : 1;
    switch (op) {
      case 'eq':
        return a === want;
      case 'ne':
        return a !== want;
      case 'gt':
        return cmp > 0;
      case 'ge':
        return cmp >= 0;
      case 'lt':
        return cmp < 0;
      default:
        return cmp <= 0;
    }
  });
}

const ts = (r: Record<string, unknown>) => Date.parse(String(r.ModificationTimestamp));
const key = (r: Record<string, unknown>) => String(r.ListingKey);

function sorted(
  rows: Record<string, unknown>[],
  orderby: string | undefined,
  fallback: 'timestamp' | 'key',
): Record<string, unknown>[] {
  const by = orderby ?? (fallback === 'key' ? 'ListingKey asc' : 'ModificationTimestamp asc');
  const fields = by.split(',').map((f) => f.trim().split(' ')[0]);
  return [...rows].sort((a, b) => {
    for (const f of fields) {
      const d =
        f === 'ModificationTimestamp' ? ts(a) - ts(b) : key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;
      if (d !== 0) return d;
    }
    // Ties in the server's own order: not by key, so a client cannot lean on an order nobody promised.
    return orderby ? 0 : key(b) < key(a) ? -1 : 1;
  });
}

/** A RESO Property record numbered `n` (ListingKey `ACT<n>`, ListingId `L<n>`), as MLS Grid sends them. */
export function resoRecord(n: number, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const id = String(n).padStart(6, '0');
  return {
    ListingKey: `ACT${id}`,
    ListingId: `L${id}`,
    OriginatingSystemName: 'actris',
    MlgCanView: true,
    StandardStatus: 'Active',
    PropertyType: 'Residential',
    PropertySubType: 'SingleFamilyResidence',
    ListPrice: 300_000 + n,
    BedroomsTotal: 3,
    BathroomsTotalInteger: 2,
    LivingArea: 1500 + (n % 500),
    LivingAreaUnits: 'Square Feet',
    LotSizeAcres: 0.25,
    YearBuilt: 1990 + (n % 30),
    DaysOnMarket: n % 90,
    ParkingTotal: 2,
    UnparsedAddress: `${n} Test Street`,
    City: 'Austin',
    StateOrProvince: 'TX',
    PostalCode: '78701',
    ListingURL: `https://broker.example/L${id}`,
    ModificationTimestamp: '2024-05-01T10:00:00.000Z',
    PhotosChangeTimestamp: '2024-04-01T10:00:00.000Z',
    Media: [
      { Order: 2, MediaURL: `https://media.example/${id}/2.jpg`, MediaCategory: 'Photo' },
      { Order: 1, MediaURL: `https://media.example/${id}/1.jpg`, MediaCategory: 'Photo' },
      { Order: 3, MediaURL: `https://media.example/${id}/plan.pdf`, MediaCategory: 'FloorPlan' },
    ],
    ...overrides,
  };
}
