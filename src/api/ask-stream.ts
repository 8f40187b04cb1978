import { StringDecoder } from 'node:string_decoder';
import { parseJson, unwrapEnvelope } from './envelope.ts';
import { ApiError, PlatformError } from './errors.ts';
import { type AskRequest, askDataSchema, PATHS } from './schemas.ts';
import { type AnswerEvent, AnswerStreamParser } from './stream-parser.ts';
import { httpError, postStream, type TransportOptions } from './transport.ts';

export interface AskInput {
  /** The chatbot; used to open a session (GetSession) when `sessionID` is not given. */
  serialNumber?: string;
  sessionID?: number;
  content: string;
  chatAskType?: 'Text' | 'Audio' | 'Image' | 'Video';
  fileIds?: number[];
}

async function readAll(body: AsyncIterable<Buffer | string>): Promise<string> {
  let text = '';
  for await (const chunk of body) text += chunk.toString();
  return text;
}

/**
 * ClientAsk with `stream: true`: partial pieces as they arrive, then the final object. A server that
 * answers plain JSON instead (an error envelope, or a non-streaming answer) is read as such.
 */
export async function* askStream(
  body: AskRequest,
  options: TransportOptions,
  signal?: AbortSignal,
): AsyncGenerator<AnswerEvent> {
  const response = await postStream('ask', PATHS.ask, body, options, signal);
  const stream = response.body;
  if (response.statusCode < 200 || response.statusCode >= 300) {
    stream.resume();
    throw httpError('ask', response);
  }
  const type = String(response.headers['content-type'] ?? '');
  if (type.includes('application/json')) {
    const data = unwrapEnvelope('ask', parseJson('ask', await readAll(stream)), askDataSchema);
    yield {
      type: 'final',
      answer: data.content,
      ...(data.messageid === undefined ? {} : { answerId: data.messageid }),
    };
    return;
  }
  const parser = new AnswerStreamParser();
  const decoder = new StringDecoder('utf8');
  let final = false;
  const check = (event: AnswerEvent) => {
    if (event.type === 'error') throw new PlatformError('ask', event.code, event.message);
    if (event.type === 'final') final = true;
    return event;
  };
  try {
    for await (const chunk of stream) {
      for (const event of parser.push(decoder.write(chunk as Buffer))) yield check(event);
    }
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw new ApiError('ask', `stream broke: ${(error as Error).message}`, { cause: error, retryable: true });
  }
  for (const event of parser.push(decoder.end())) yield check(event);
  for (const event of parser.end()) yield check(event);
  if (!final) throw new ApiError('ask', 'stream ended without the final answer object', { retryable: true });
}
