import type { StoredListing } from './listing-store.ts';
import { describeSettings, mergeSettings, type SandboxConfigure } from './options.ts';
import { parseConfigure } from './options-schema.ts';
import { mulberry32 } from './random.ts';
import type { SandboxListing } from './request-schemas.ts';
import type { SandboxState } from './state.ts';
import type { SandboxStats } from './stats.ts';

/** What tests and benchmarks can do to a running sandbox, in process or over `/__sandbox/…`. */
export interface SandboxControl {
  /** Counters since start or the last reset. */
  stats(): SandboxStats;
  resetStats(): void;
  /**
   * Change settings at run time (latency, faults, keys, formats…); they apply to the next request.
   * Giving `seed` restarts the fault sequence. Returns the settings now in force, keys redacted.
   */
  configure(change: SandboxConfigure): Record<string, unknown>;
  /** Copies of a chatbot's stored listings (ID, SerialNumber and the create input), in ID order. */
  listings(serialNumber: string): StoredListing[];
  /** Store listings directly, without validation, faults or stats. Returns their IDs, as create answers them. */
  seed(serialNumber: string, listings: readonly SandboxListing[]): string[];
  /** A copy of what Edit stored for a chatbot, or undefined when it was never edited. */
  settings(serialNumber: string): Record<string, unknown> | undefined;
}

export function createControl(state: SandboxState): SandboxControl {
  return {
    stats: () => state.stats.snapshot(),
    resetStats: () => state.stats.reset(),
    configure(change) {
      const parsed = parseConfigure(change);
      state.settings = mergeSettings(state.settings, parsed);
      if (parsed.seed !== undefined) state.random = mulberry32(parsed.seed);
      return describeSettings(state.settings);
    },
    listings: (serialNumber) => structuredClone([...state.listings.all(serialNumber)]),
    seed: (serialNumber, listings) =>
      listings.map((listing) => String(state.listings.add(serialNumber, structuredClone(listing)).ID)),
    settings: (serialNumber) => state.chat.settings(serialNumber),
  };
}
