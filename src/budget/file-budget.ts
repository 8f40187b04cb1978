import { randomUUID } from 'node:crypto';
import {
  announcedTo,
  type BudgetBook,
  checkBook,
  doneInBook,
  emptyBook,
  headroom,
  MINUTE_MS,
  pruned,
  SAME_WINDOW_MS,
  takeFromBook,
  usageOfBook,
} from './budget-book.ts';
import type { BudgetAnswer, BudgetLimits, BudgetStore, Ceiling } from './budget-types.ts';

/** Requests reserved at once in the state file: one write per this many requests, at most. */
const RESERVE = 20;

/** Where a file-backed budget reads and changes its books (the CLI's state file, `budgets`). */
export interface BudgetFile {
  read(): Promise<Record<string, BudgetBook>>;
  /**
   * Change the books as the file holds them now, no other process writing meanwhile (the state
   * file's lock): `change` is given them and returns them changed.
   */
  update(change: (books: Record<string, BudgetBook>) => Record<string, BudgetBook>): Promise<void>;
}

/** What this process sent of one key, and what the file holds of it. */
interface Own {
  /** Requests it started, by minute number. */
  minutes: Record<string, number>;
  /** Its requests of the last second, by ticket (`BudgetBook.seconds`). */
  seconds: Record<string, number>;
  /** What the file holds of its requests, by minute (those started and those reserved), as last written. */
  written: Record<string, number>;
  /** Requests counted in the file and not started yet, in the minute they are counted in. */
  reserved: { n: number; minute: number };
}

const noOwn = (): Own => ({ minutes: {}, seconds: {}, written: {}, reserved: { n: 0, minute: 0 } });

/** `book` with `minutes` added (`sign` -1: taken away; never below 0). Pure. */
function withMinutes(book: BudgetBook, minutes: Record<string, number>, sign: 1 | -1): BudgetBook {
  const out = { ...book.minutes };
  for (const [minute, n] of Object.entries(minutes)) {
    const total = (out[minute] ?? 0) + sign * n;
    if (total > 0) out[minute] = total;
    else delete out[minute];
  }
  return { ...book, minutes: out };
}

/** What the file holds of `own`: the requests it started and those it reserved, by minute. Pure. */
function holding(own: Own): Record<string, number> {
  const held = { ...own.minutes };
  const { n, minute } = own.reserved;
  if (n > 0) held[minute] = (held[minute] ?? 0) + n;
  return held;
}

/**
 * Two processes' knowledge of the provider's announced ceilings, among those not reset yet: of a
 * window both know (resets less than `SAME_WINDOW_MS` apart), the lower remaining and the later
 * reset (stricter than either, never looser); of two windows, the later one's, as `announcedTo`
 * reads a new announcement: a spent window about to reset in one process does not hold back the
 * next window another has already heard of. Pure.
 */
function mergedCeilings(a: BudgetBook['ceilings'], b: BudgetBook['ceilings'], now: number) {
  const out: BudgetBook['ceilings'] = {};
  for (const side of [a, b])
    for (const [name, c] of Object.entries(side)) {
      if (c.until <= now) continue;
      const known = out[name];
      if (known === undefined || Math.abs(known.until - c.until) >= SAME_WINDOW_MS) {
        if (known === undefined || c.until > known.until) out[name] = { ...c };
        continue;
      }
      out[name] = {
        remaining: Math.min(known.remaining, c.remaining),
        until: Math.max(known.until, c.until),
      };
    }
  return out;
}

/**
 * The one-shot CLI's budgets, kept in its state file so that the next run, a run after a crash, and
 * a run at the same time in another process (two feeds of one MLS key, each by its own cron line)
 * count what this one sent. Writing the file for every request would rewrite the run history twice
 * a second, so requests are reserved ahead: the file counts up to `RESERVE` requests before they are
 * sent, the process then uses them from memory, and `flush` writes the true count. A process killed
 * meanwhile leaves its unused reservation counted: too strict for an hour, never too loose.
 *
 * Each write changes the books as the file holds them then (under the state file's lock): this
 * process's requests are added to what the others wrote, never written over it, and a reservation
 * is sized, and its first request checked, against that fresh count. So two processes on one key
 * never count fewer requests in the hour and the day than both sent. This process's side is taken
 * as written only once the write succeeded. For a key with a per-second limit (MLS Grid: 2, and it
 * suspends the key), the second is shared too: each request is checked against the file as it is,
 * and written when it starts (in flight) and when it is answered (two writes a request, at two
 * requests a second). Without one, only answered requests of the second are written, for a process
 * that starts next. The provider's announced ceilings are merged, the lower remaining winning; a
 * spent one (a 429) is written at once and read before each request, reserved or not.
 */
export function createFileBudget(file: BudgetFile): BudgetStore {
  /** The others' requests as the file last showed them, with this process's own: what `take` checks. */
  let views: Promise<Map<string, BudgetBook>> | undefined;
  const owns = new Map<string, Own>();
  /** The keys this process took from or was told a ceiling of: `flush` writes each. */
  const touched = new Set<string>();
  /**
   * The keys with a per-second limit: their second is shared through the file, every request written
   * when it starts (in flight) and when it is answered.
   */
  const perSecond = new Set<string>();
  /** The latest clock reading seen: `flush` prunes by the run's clock, which tests inject. */
  let lastNow = 0;
  /**
   * Each key's changes one after another within this process: a change reads this process's side,
   * waits for the file, and sets the side after it, so two at once (a run's requests in parallel,
   * two feeds of one key in a worker) would each add to the side as it was before the other, and
   * the file would count one of them (45 takes at once were counted as 1).
   */
  const queues = new Map<string, Promise<unknown>>();
  const serial = <T>(key: string, change: () => Promise<T>): Promise<T> => {
    const result = (queues.get(key) ?? Promise.resolve()).then(change, change);
    const settled = result.then(
      () => undefined,
      () => undefined,
    );
    queues.set(key, settled);
    void settled.then(() => {
      if (queues.get(key) === settled) queues.delete(key);
    });
    return result;
  };
  const load = () => {
    views ??= file.read().then((books) => new Map(Object.entries(books)));
    return views;
  };
  /**
   * The file's book of `key` less what it holds of this process's (`theirs`), and with this
   * process's side on it (`view`: what a request is checked against). Pure.
   */
  const viewOf = (found: BudgetBook | undefined, own: Own, local: BudgetBook | undefined, now: number) => {
    const book = found ?? emptyBook();
    const theirSeconds = Object.fromEntries(
      Object.entries(book.seconds ?? {}).filter(([ticket]) => own.seconds[ticket] === undefined),
    );
    const theirs = withMinutes({ ...book, seconds: theirSeconds }, own.written, -1);
    const view = withMinutes(
      {
        seconds: { ...theirSeconds, ...own.seconds },
        minutes: theirs.minutes,
        ceilings: mergedCeilings(theirs.ceilings, local?.ceilings ?? {}, now),
      },
      own.minutes,
      1,
    );
    return { theirs, view: pruned(view, now) };
  };
  /**
   * In the file as it is now: the others' requests (the file's less what it holds of ours), `act`
   * on the view (theirs and ours) giving this process's side after it, then that side written back.
   * Returns what `act` returned.
   */
  const merge = async <T>(
    key: string,
    now: number,
    act: (view: BudgetBook, own: Own) => { view: BudgetBook; own: Own; value: T },
  ): Promise<T> => {
    const books = await load();
    const own = owns.get(key) ?? noOwn();
    let acted: { view: BudgetBook; own: Own; value: T } | undefined;
    await file.update((inFile) => {
      const { theirs, view } = viewOf(inFile[key], own, books.get(key), now);
      const theirSeconds = theirs.seconds;
      acted = act(view, own);
      const next = acted.own;
      // What no window sees any more is forgotten, in this process as in the file.
      const kept = pruned({ seconds: next.seconds, minutes: next.minutes, ceilings: {} }, now);
      acted.own = { ...next, seconds: kept.seconds, minutes: kept.minutes };
      // The file: theirs and ours (started and reserved); of the second, the requests answered, and
      // those in flight where the second is shared.
      const shared = perSecond.has(key);
      const ours = Object.fromEntries(
        Object.entries(acted.own.seconds).filter(([, t]) => shared || t <= now),
      );
      const written = withMinutes(
        { seconds: { ...theirSeconds, ...ours }, minutes: theirs.minutes, ceilings: acted.view.ceilings },
        holding(acted.own),
        1,
      );
      return { ...inFile, [key]: pruned(written, now) };
    });
    // Written: only now does the file hold this process's side as it is.
    const done = acted as { view: BudgetBook; own: Own; value: T };
    owns.set(key, { ...done.own, written: holding(done.own) });
    books.set(key, done.view);
    return done.value;
  };
  return {
    take: (key, limits, now) => serial(key, () => take(key, limits, now)),
    done: (key, ticket, now) => serial(key, () => done(key, ticket, now)),
    announce: (key, ceiling, now) => serial(key, () => announce(key, ceiling, now)),
    async usage(key, now) {
      return usageOfBook((await load()).get(key) ?? emptyBook(), now);
    },
    async flush() {
      if (!views) return;
      const now = lastNow || Date.now();
      // The true count: what was reserved and not used is given back.
      for (const key of touched)
        await serial(key, () =>
          merge(key, now, (view, own) => ({
            view,
            own: { ...own, reserved: { n: 0, minute: own.reserved.minute } },
            value: undefined,
          })),
        );
    },
  };

  async function take(key: string, limits: BudgetLimits, now: number): Promise<BudgetAnswer> {
    lastNow = Math.max(lastNow, now);
    touched.add(key);
    const books = await load();
    const minute = Math.floor(now / MINUTE_MS);
    const local = books.get(key) ?? emptyBook();
    /** Take the request from `book`: the book after it, the answer, and this process's side after it. */
    const start = (book: BudgetBook, own: Own) => {
      const taken = takeFromBook(book, limits, now, randomUUID());
      if (!taken.answer.ok) return { ...taken, own };
      const { ticket } = taken.answer;
      const minutes = { ...own.minutes, [minute]: (own.minutes[minute] ?? 0) + 1 };
      const seconds = { ...own.seconds, [ticket]: taken.book.seconds[ticket] as number };
      return { ...taken, own: { ...own, minutes, seconds } };
    };
    const own = owns.get(key) ?? noOwn();
    if (limits.perSecond) {
      // A shared second: the others' requests of the last second as the file holds them now (read
      // without the lock: the file is replaced whole), then each request written as it starts.
      perSecond.add(key);
      const { view } = viewOf((await file.read())[key], own, local, now);
      const known = checkBook(view, limits, now);
      if (!known.ok) {
        books.set(key, view);
        return known;
      }
      return merge(key, now, (fresh, mine) => {
        const taken = start(fresh, mine);
        return { view: taken.book, own: { ...taken.own, reserved: { n: 0, minute } }, value: taken.answer };
      });
    }
    if (own.reserved.n > 0 && own.reserved.minute === minute) {
      // A ceiling another process heard (a 429's Retry-After) holds this one back from its next
      // request, not its next reservation: the file's ceilings, read without the lock (the file is
      // replaced whole), merged into what this process knows, the stricter winning.
      const theirs = (await file.read())[key]?.ceilings ?? {};
      const book = { ...local, ceilings: mergedCeilings(local.ceilings, theirs, now) };
      const taken = start(book, own);
      books.set(key, taken.book);
      if (taken.answer.ok) owns.set(key, { ...taken.own, reserved: { n: own.reserved.n - 1, minute } });
      return taken.answer;
    }
    // Refused by what this process knows already: said without a write (a run polling a spent
    // second or hour would otherwise rewrite the state file on every poll).
    const known = checkBook(pruned(local, now), limits, now);
    if (!known.ok) return known;
    // A new reservation: the request is checked, and the reservation sized, against the file now.
    return merge(key, now, (view, mine) => {
      const taken = start(view, mine);
      const n = taken.answer.ok ? Math.min(RESERVE - 1, headroom(taken.book, limits, now)) : 0;
      return { view: taken.book, own: { ...taken.own, reserved: { n, minute } }, value: taken.answer };
    });
  }

  async function done(key: string, ticket: string, now: number): Promise<void> {
    const books = await load();
    const book = books.get(key);
    const own = owns.get(key);
    if (own?.seconds[ticket] !== undefined)
      owns.set(key, { ...own, seconds: { ...own.seconds, [ticket]: now } });
    if (book) books.set(key, doneInBook(book, ticket, now));
    // A shared second: the answer's time is written, so the others count it from now, not as in
    // flight for two minutes.
    if (perSecond.has(key) && own?.seconds[ticket] !== undefined)
      await merge(key, now, (view, mine) => ({
        view: doneInBook(view, ticket, now),
        own: mine,
        value: undefined,
      }));
  }

  async function announce(key: string, ceiling: Ceiling, now: number): Promise<void> {
    touched.add(key);
    lastNow = Math.max(lastNow, now);
    const books = await load();
    books.set(key, announcedTo(books.get(key) ?? emptyBook(), ceiling, now));
    // Nothing left (a 429's Retry-After, a spent window): every process on the key holds back from
    // now, not from this one's next write.
    if (ceiling.remaining <= 0 && ceiling.resetAt > now)
      await merge(key, now, (view, own) => ({ view, own, value: undefined }));
  }
}
