import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type AnswerEvent,
  type CreateRequest,
  canonicalizeRemote,
  type DeleteRequest,
  type ListRequest,
  type PlatformClient,
  type UpdateRequest,
} from '../../src/api/index.ts';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.ts';
import { platformClient } from '../helpers/platform-client.ts';
import {
  type Exchange,
  idNames,
  loadRecording,
  type Recording,
  replayServer,
  shapeOf,
} from '../helpers/recorded.ts';
import { ok, sendJson, withServer } from '../helpers/with-server.ts';

/**
 * Contract tests: the same recorded scenarios (test/api/recorded, written from the spec) run
 * against the recording itself, standing for the real platform, and against the sandbox. The
 * client must send exactly the recorded requests and read the recorded answers; the sandbox must
 * answer the recorded requests as the recording does. A client or a sandbox that drifts from the
 * spec's shapes fails here, whichever of the two it is.
 */
const KEYS = { secretKey: 'sk-contract', sessionKey: 'sess-contract' };
const RECORDINGS = ['listings.json', 'chat.json'].map(loadRecording);

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function sandbox(): Promise<Sandbox> {
  const started = await startSandbox(KEYS);
  closers.push(() => started.close());
  return started;
}

/** Recorded IDs (create's Data, SessionID) → this backend's, put into later requests. */
function substitute(request: Record<string, unknown>, ids: Map<string, unknown>): Record<string, unknown> {
  const known = (value: unknown) => (ids.has(String(value)) ? ids.get(String(value)) : value);
  const out = { ...request };
  if ('sessionID' in out) out.sessionID = known(out.sessionID);
  if (out.KeyType === 'NewOaks') {
    if ('Key' in out) out.Key = String(known(out.Key));
    if (Array.isArray(out.Keys)) out.Keys = out.Keys.map((key) => String(known(key)));
  }
  return out;
}

/** One exchange through the client; the result with IDs named by order of appearance. */
async function step(
  client: PlatformClient,
  exchange: Exchange,
  request: Record<string, unknown>,
  ids: Map<string, unknown>,
  name: (id: unknown) => string,
): Promise<unknown> {
  const recorded = exchange.response.body.Data;
  switch (exchange.operation) {
    case 'create': {
      const id = await client.createListing(request as CreateRequest);
      ids.set(String(recorded), id);
      return name(id);
    }
    case 'list': {
      const page = await client.listListings(request as ListRequest);
      const List = page.List.map((record) => {
        const { id, listing } = canonicalizeRemote(record);
        return { id: name(id), listing };
      });
      return { List, VirtualCount: page.VirtualCount };
    }
    case 'update':
      return client.updateListing(request as UpdateRequest);
    case 'delete':
      return client.deleteListings(request as DeleteRequest);
    case 'edit': {
      const { serialNumber, ...settings } = request;
      return client.editSettings(String(serialNumber), settings);
    }
    case 'session': {
      const id = await client.getSession(String(request.serialNumber));
      ids.set(String((recorded as { SessionID: unknown }).SessionID), id);
      return name(id);
    }
    case 'ask': {
      const { sessionID, ...answer } = await client.ask({
        sessionID: Number(request.sessionID),
        content: String(request.content),
      });
      return { sessionID: name(sessionID), answer: exchange.compare === 'shape' ? shapeOf(answer) : answer };
    }
  }
}

async function throughClient(client: PlatformClient, recording: Recording): Promise<unknown[]> {
  const ids = new Map<string, unknown>();
  const name = idNames();
  const results: unknown[] = [];
  for (const exchange of recording.exchanges)
    results.push(await step(client, exchange, substitute(exchange.request, ids), ids, name));
  return results;
}

/** An answer with its IDs named by order of appearance and the API version left out. */
function comparable(exchange: Exchange, body: Record<string, unknown>, name: (id: unknown) => string) {
  const { Version, Data, ...rest } = body as { Version: unknown; Data: unknown };
  let data = Data;
  if (exchange.operation === 'create') data = name(Data);
  if (exchange.operation === 'session')
    data = { ...(Data as object), SessionID: name((Data as { SessionID: unknown }).SessionID) };
  if (exchange.operation === 'list') {
    const page = Data as { List: { ID: unknown }[] };
    data = { ...page, List: page.List.map((record) => ({ ...record, ID: name(record.ID) })) };
  }
  if (exchange.compare === 'shape') data = shapeOf(data);
  return { ...rest, Version: typeof Version, Data: data };
}

describe.each(RECORDINGS)('contract: $scenario', (recording) => {
  it('the client sends exactly the recorded requests and reads the recorded answers', async () => {
    const replay = await replayServer(recording);
    closers.push(() => replay.close());
    const client = platformClient({ baseUrl: replay.url, ...KEYS, retries: 0 });
    await throughClient(client, recording);
    expect(replay.mismatches).toEqual([]);
    expect(replay.remaining()).toBe(0);
  });

  it('the sandbox answers the recorded requests as the recording does', async () => {
    const { url } = await sandbox();
    const ids = new Map<string, unknown>();
    const [recordedName, sandboxName] = [idNames(), idNames()];
    for (const exchange of recording.exchanges) {
      const response = await fetch(url + exchange.path, {
        method: 'POST',
        headers: exchange.headers,
        body: JSON.stringify(substitute(exchange.request, ids)),
      });
      expect(response.status, exchange.operation).toBe(exchange.response.status);
      const body = (await response.json()) as { Data: unknown } & Record<string, unknown>;
      const recorded = exchange.response.body.Data;
      if (exchange.operation === 'create') ids.set(String(recorded), body.Data);
      if (exchange.operation === 'session')
        ids.set(
          String((recorded as { SessionID: unknown }).SessionID),
          (body.Data as { SessionID?: unknown })?.SessionID,
        );
      expect(comparable(exchange, body, sandboxName), exchange.operation).toEqual(
        comparable(exchange, exchange.response.body, recordedName),
      );
    }
  });

  it('the same scenario through the client gives the same results on the sandbox as on the recording', async () => {
    const replay = await replayServer(recording);
    closers.push(() => replay.close());
    const { url } = await sandbox();
    const onRecording = await throughClient(platformClient({ baseUrl: replay.url, ...KEYS }), recording);
    const onSandbox = await throughClient(platformClient({ baseUrl: url, ...KEYS }), recording);
    expect(onSandbox).toEqual(onRecording);
  });
});

describe('contract: the quirks of spec 2.4 undone', () => {
  it('a listing read back from the recorded list is the listing sent, less the fields list does not return', async () => {
    const recording = RECORDINGS[0]!;
    const replay = await replayServer(recording);
    closers.push(() => replay.close());
    const results = await throughClient(platformClient({ baseUrl: replay.url, ...KEYS }), recording);
    const firstList = results[2] as { List: { listing: unknown }[] };
    const sent = recording.exchanges.slice(0, 2).map(({ request }) => {
      const { SerialNumber, AreaUnit, Location, ...returned } = request;
      return returned;
    });
    expect(firstList.List.map((entry) => entry.listing)).toEqual(sent);
  });
});

describe.each(['sse', 'ndjson'] as const)('contract: a streamed answer (%s framing)', (framing) => {
  /** What the client makes of a stream, whoever sent it: several pieces that add up to the final answer. */
  async function summary(client: PlatformClient) {
    const events: AnswerEvent[] = [];
    for await (const event of client.askStream({ serialNumber: 'bot-1', content: 'How many listings?' }))
      events.push(event);
    const pieces = events.flatMap((event) => (event.type === 'piece' ? [event.content] : []));
    const final = events.at(-1);
    return {
      types: [...new Set(events.map((event) => event.type))],
      severalPieces: pieces.length > 1,
      piecesAddUp: final?.type === 'final' && pieces.join('') === final.answer,
      final: shapeOf(final),
    };
  }

  it('the client reads the recorded stream and the sandbox stream alike', async () => {
    const recorded = readFileSync(new URL(`recorded/${framing}.txt`, import.meta.url), 'utf8');
    const replay = await withServer((req, res) => {
      if (req.url === '/chat/Chatbot/GetSession') return sendJson(res, 200, ok({ SessionID: 88 }));
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(recorded);
    });
    closers.push(() => replay.close());
    const started = await startSandbox({ ...KEYS, streamFraming: framing });
    closers.push(() => started.close());
    const onRecording = await summary(platformClient({ baseUrl: replay.url, ...KEYS }));
    const onSandbox = await summary(platformClient({ baseUrl: started.url, ...KEYS }));
    expect(onRecording).toEqual({
      types: ['piece', 'final'],
      severalPieces: true,
      piecesAddUp: true,
      final: {
        type: 'string',
        answer: 'string',
        questionId: 'number',
        answerId: 'number',
        totalToken: 'number',
      },
    });
    expect(onSandbox).toEqual(onRecording);
  });
});
