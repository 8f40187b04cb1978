import type { ChatStore } from './chat-store.ts';
import type { Envelope } from './envelope.ts';
import type { ListingStore } from './listing-store.ts';
import type { SandboxSettings } from './options.ts';
import type { RateWindow } from './rate-window.ts';
import type { StatsRecorder } from './stats.ts';

/** Everything a running sandbox holds. `settings` and `random` are replaced by `configure`. */
export interface SandboxState {
  settings: SandboxSettings;
  /** The seeded PRNG faults are drawn from. */
  random: () => number;
  readonly listings: ListingStore;
  readonly chat: ChatStore;
  readonly stats: StatsRecorder;
  /** Admitted starts of the last second, for `rateLimitPerSecond`. */
  readonly rate: RateWindow;
}

/** A streamed answer of ClientAsk: the partial pieces, then the final object (spec 4.2). */
export interface StreamAnswer {
  pieces: string[];
  final: { QuestionID: number; AnswerID: number; Answer: string; TotalToken: number };
}

/** What an operation answers: an envelope, or a stream. */
export type Reply = { kind: 'envelope'; envelope: Envelope } | { kind: 'stream'; stream: StreamAnswer };

/** One operation of the platform: the parsed JSON body in, the reply out. Synchronous: the store is memory. */
export type Handler = (body: Record<string, unknown>, state: SandboxState) => Reply;

export function envelopeReply(envelope: Envelope): Reply {
  return { kind: 'envelope', envelope };
}
