import type { ServerResponse } from 'node:http';
import { pause } from './http-io.ts';
import type { StreamFraming } from './options.ts';
import type { StreamAnswer } from './state.ts';

export interface StreamWriteOptions {
  framing: StreamFraming;
  /** Pause between writes, so pieces leave as separate chunks (the server sets no-delay on its sockets). */
  delayMs: number;
  /** Malformed-JSON fault: cut the final object in half and end there. */
  truncateFinal: boolean;
  signal: AbortSignal;
}

/**
 * Write a streamed answer (4.2). The spec shows no framing, so both plausible ones are offered:
 * 'sse' writes `data: <json>\n\n` per object then `data: [DONE]\n\n`; 'ndjson' writes one JSON per line.
 * Either way the Content-Type is text/event-stream, as the spec says.
 */
export async function writeStream(
  res: ServerResponse,
  answer: StreamAnswer,
  options: StreamWriteOptions,
): Promise<void> {
  if (res.destroyed) return;
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
  res.flushHeaders();
  for (const content of answer.pieces) {
    res.write(frame(JSON.stringify({ content }), options.framing));
    if (!(await pause(options.delayMs, options.signal))) return;
  }
  const final = JSON.stringify(answer.final);
  if (options.truncateFinal) {
    res.end(frame(final.slice(0, Math.floor(final.length / 2)), options.framing));
    return;
  }
  res.write(frame(final, options.framing));
  res.end(options.framing === 'sse' ? 'data: [DONE]\n\n' : undefined);
}

export function frame(json: string, framing: StreamFraming): string {
  return framing === 'sse' ? `data: ${json}\n\n` : `${json}\n`;
}
