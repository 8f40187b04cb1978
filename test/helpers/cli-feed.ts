import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, vi } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { type Sandbox, type SandboxOptions, startSandbox } from '../../src/sandbox/index.ts';

/** The header of the small MLS-style CSV the CLI tests sync. */
export const HEADER = 'MLS,Status,Type,Price,Beds,Baths,SqFt,Lot,Built,DOM,Parking,Url\n';

/** One row of that CSV: `M-<n>`, a condo at `price`, `beds` bedrooms, its Url on `host`. */
export const csvRow = (
  n: number | string,
  options: { price?: number | string; beds?: number | string; host?: string } = {},
) =>
  `M-${n},Active,Condo,${options.price ?? 300_000},${options.beds ?? 2},1,900,0,1990,3,1,https://${options.host ?? 'cli.example'}/l/M-${n}\n`;

/** A config with one CSV feed (`feed.csv` beside it) mapped field by field, against `url`. */
export function csvFeedConfig(
  url: string,
  options: { id: string; chatbot: string; api?: string; feed?: string },
): string {
  return `
api: { baseUrl: ${url}${options.api ? `, ${options.api}` : ', concurrency: 4, pageSize: 20'} }
stateFile: state.json
feeds:
  - id: ${options.id}
    chatbot: ${options.chatbot}
${options.feed ? `    ${options.feed}\n` : ''}    source: { format: csv, path: feed.csv }
    mapping:
      fields:
        MLSNumber: MLS
        Status: Status
        SaleType: { const: for_sale }
        PropertyType: Type
        SalePrice: Price
        CurrencySymbol: { const: "$" }
        Bedrooms: Beds
        Bathrooms: Baths
        BuildingArea: SqFt
        LotArea: Lot
        YearBuilt: Built
        DaysOnMarket: DOM
        ParkingSpots: Parking
        Url: Url
`;
}

export interface CliFeed {
  dir: string;
  sandbox: Sandbox;
  /** What the CLI wrote to stdout since the last `reset()`. */
  out(): string;
  /** What the CLI wrote to stderr since the last `reset()`. */
  err(): string;
  reset(): void;
  /** `feed-sync ARGS --config <dir>/feed-sync.yaml`, in-process; resolves to the exit code. */
  cli(...args: string[]): Promise<number>;
  /** Replace `feed.csv` with HEADER + rows. */
  feed(rows: string): Promise<void>;
  writeConfig(text: string): Promise<void>;
}

/**
 * A temp folder with a config and a feed file, a sandbox, and stdout/stderr captured, set up
 * before each test and removed after it. Use the returned object inside the tests only.
 */
export function useCliFeed(
  config: (sandboxUrl: string) => string,
  sandboxOptions: SandboxOptions = {},
): CliFeed {
  let out = '';
  let err = '';
  const state = {} as CliFeed;
  beforeEach(async () => {
    state.dir = await mkdtemp(join(tmpdir(), 'feed-sync-cli-'));
    state.sandbox = await startSandbox(sandboxOptions);
    await writeFile(join(state.dir, 'feed-sync.yaml'), config(state.sandbox.url));
    out = '';
    err = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      out += String(chunk);
      return true;
    });
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      err += String(chunk);
      return true;
    });
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await state.sandbox.close();
    await rm(state.dir, { recursive: true, force: true });
  });
  state.out = () => out;
  state.err = () => err;
  state.reset = () => {
    out = '';
    err = '';
  };
  state.cli = (...args) =>
    main(['node', 'feed-sync', ...args, '--config', join(state.dir, 'feed-sync.yaml')]);
  state.feed = (rows) => writeFile(join(state.dir, 'feed.csv'), HEADER + rows);
  state.writeConfig = (text) => writeFile(join(state.dir, 'feed-sync.yaml'), text);
  return state;
}
