/**
 * Parser of the streamed answer of ClientAsk (spec 4.2). The spec does not show the framing, so
 * this reads every framing seen in the wild: SSE (`data: {...}` lines, `event:`/`id:` fields,
 * `:` comments, `[DONE]`), bare JSON per line (NDJSON), JSON objects back to back on one line,
 * and objects split across lines or across chunks. Field names are matched case-insensitively.
 * Pure: feed it text as it arrives, read the events it returns.
 */

export type AnswerEvent =
  | { type: 'piece'; content: string }
  | { type: 'final'; answer: string; questionId?: number; answerId?: number; totalToken?: number }
  | { type: 'error'; code?: number; message: string };

const SSE_FIELD = /^(event|id|retry)\s*:/i;

export class AnswerStreamParser {
  #line = '';
  #json = '';

  /** Feed the next chunk of text; returns the events completed by it. */
  push(text: string): AnswerEvent[] {
    const events: AnswerEvent[] = [];
    const lines = (this.#line + text).split('\n');
    this.#line = lines.pop() ?? '';
    for (const line of lines) this.#readLine(line, events);
    return events;
  }

  /** The stream ended: flush what is left. */
  end(): AnswerEvent[] {
    const events: AnswerEvent[] = [];
    if (this.#line) this.#readLine(this.#line, events);
    this.#line = '';
    this.#json = '';
    return events;
  }

  #readLine(rawLine: string, events: AnswerEvent[]): void {
    let line = rawLine.replace(/\r$/, '').trim();
    if (!line || line.startsWith(':') || SSE_FIELD.test(line)) return;
    if (/^data\s*:/i.test(line)) line = line.replace(/^data\s*:\s?/i, '').trim();
    if (!line || line === '[DONE]') return;
    this.#json += this.#json ? `\n${line}` : line;
    this.#drainObjects(events);
  }

  /** Take every complete top-level JSON object out of the pending text. */
  #drainObjects(events: AnswerEvent[]): void {
    let depth = 0;
    let inString = false;
    let escaped = false;
    let start = -1;
    const text = this.#json;
    for (let i = 0; i < text.length; i++) {
      const ch = text[i];
      if (inString) {
        if (escaped) escaped = false;
        else if (ch === '\\') escaped = true;
        else if (ch === '"') inString = false;
        continue;
      }
      if (ch === '"') inString = depth > 0;
      else if (ch === '{') {
        if (depth === 0) start = i;
        depth++;
      } else if (ch === '}' && depth > 0) {
        depth--;
        if (depth === 0) {
          const event = toEvent(text.slice(start, i + 1));
          if (event) events.push(event);
        }
      }
    }
    // Text outside any object (a stray `[DONE]`, garbage) is dropped; an open object waits for more.
    this.#json = depth > 0 ? text.slice(start) : '';
  }
}

function lowerKeys(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k.toLowerCase(), v]));
}

function int(value: unknown): number | undefined {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
}

function toEvent(json: string): AnswerEvent | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
  const o = lowerKeys(parsed as Record<string, unknown>);
  if (
    o.success === false ||
    (o.code !== undefined && int(o.code) !== 200 && !('content' in o) && !('answer' in o))
  ) {
    return { type: 'error', code: int(o.code), message: String(o.message ?? 'stream error') };
  }
  // An envelope around the payload: unwrap it.
  if (o.data && typeof o.data === 'object' && !('content' in o) && !('answer' in o)) {
    return toEvent(JSON.stringify(o.data));
  }
  if ('answer' in o || 'answerid' in o || 'questionid' in o) {
    const event: AnswerEvent = { type: 'final', answer: String(o.answer ?? '') };
    const questionId = int(o.questionid);
    const answerId = int(o.answerid);
    const totalToken = int(o.totaltoken);
    if (questionId !== undefined) event.questionId = questionId;
    if (answerId !== undefined) event.answerId = answerId;
    if (totalToken !== undefined) event.totalToken = totalToken;
    return event;
  }
  if (typeof o.content === 'string') return { type: 'piece', content: o.content };
  return undefined;
}
