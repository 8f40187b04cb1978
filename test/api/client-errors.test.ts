import { afterEach, describe, expect, it } from 'vitest';
import {
  AmbiguousCreateError,
  type CallEvent,
  InvalidJsonError,
  NetworkError,
  type PageBytes,
  PlatformError,
  SchemaError,
  TimeoutError,
} from '../../src/api/index.ts';
import { postJson, type TransportOptions } from '../../src/api/transport.ts';
import { HttpStatusError } from '../../src/http/index.ts';
import { listing } from '../../src/testing/listing.ts';
import { platformClient } from '../helpers/platform-client.ts';
import { type Handler, ok, sendJson, type TestServer, withServer } from '../helpers/with-server.ts';

/** A listing as a create or update request carries it. */
const request = { SerialNumber: 'bot-1', ...listing(1) };

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function clientFor(
  handler: Handler,
  extra: { timeoutMs?: number; retries?: number; events?: CallEvent[] } = {},
) {
  server = await withServer(handler);
  return platformClient(
    {
      baseUrl: server.url,
      secretKey: 'sk-test-secret',
      sessionKey: 'sess-test-key',
      timeoutMs: extra.timeoutMs ?? 2000,
      retries: extra.retries ?? 3,
    },
    { backoff: { baseMs: 5, maxMs: 20 }, onCall: (event) => extra.events?.push(event) },
  );
}

describe('platform client errors', () => {
  it('sends both auth headers raw and the JSON body', async () => {
    const client = await clientFor((_req, res) => sendJson(res, 200, ok({ SuccessCount: 2 })));
    await expect(
      client.deleteListings({ SerialNumber: 'bot-1', Keys: ['1', '2'], KeyType: 'NewOaks' }),
    ).resolves.toBe(2);
    const [request] = server!.requests;
    expect(request?.path).toBe('/chat/Chatbot/RealEstateDelete');
    expect(request?.headers.authorization).toBe('sk-test-secret');
    expect(request?.headers['chatrobot-sessionkey']).toBe('sess-test-key');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.body).toEqual({ SerialNumber: 'bot-1', Keys: ['1', '2'], KeyType: 'NewOaks' });
  });

  it("sends each call with its settings' headers and URL, made once and made again when a setting changes", async () => {
    server = await withServer((_req, res) => sendJson(res, 200, ok(1)));
    const options: TransportOptions = { baseUrl: `${server.url}/`, secretKey: 'sk-1', timeoutMs: 2000 };
    await postJson('create', '/chat/Chatbot/RealEstateCreate', { a: 1 }, options);
    await postJson('create', '/chat/Chatbot/RealEstateCreate', { a: 2 }, options);
    options.secretKey = 'sk-2';
    options.sessionKey = 'sess-2';
    await postJson('create', '/chat/Chatbot/RealEstateCreate', { a: 3 }, options);
    options.baseUrl = `${server.url}/v2//`;
    await postJson('delete', '/chat/Chatbot/RealEstateDelete', { a: 4 }, options);
    const sent = server.requests.map((r) => [
      r.path,
      r.headers.authorization,
      r.headers['chatrobot-sessionkey'],
      r.body,
    ]);
    expect(sent).toEqual([
      ['/chat/Chatbot/RealEstateCreate', 'sk-1', undefined, { a: 1 }],
      ['/chat/Chatbot/RealEstateCreate', 'sk-1', undefined, { a: 2 }],
      ['/chat/Chatbot/RealEstateCreate', 'sk-2', 'sess-2', { a: 3 }],
      ['/v2/chat/Chatbot/RealEstateDelete', 'sk-2', 'sess-2', { a: 4 }],
    ]);
  });

  it('turns Success: false into a PlatformError with Code and Message, without the key', async () => {
    const client = await clientFor((_req, res) =>
      sendJson(res, 200, { Data: null, Success: false, Code: 401, Message: 'invalid key', Version: '1' }),
    );
    const error = await client.listListings({ SerialNumber: 'bot-1' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlatformError);
    expect(error).toMatchObject({
      code: 'E_PLATFORM',
      operation: 'list',
      platformCode: 401,
      platformMessage: 'invalid key',
      retryable: false,
    });
    expect(String((error as Error).message)).not.toContain('sk-test-secret');
    expect(server!.requests).toHaveLength(1);
  });

  it('retries 429 honouring Retry-After, then succeeds', async () => {
    const started = Date.now();
    const events: CallEvent[] = [];
    const client = await clientFor(
      (_req, res, _body, n) =>
        n === 1
          ? sendJson(res, 429, ok(null), { 'retry-after': '1' })
          : sendJson(res, 200, ok({ List: [], VirtualCount: 0 })),
      { events },
    );
    await expect(client.listListings({ SerialNumber: 'bot-1' })).resolves.toMatchObject({
      List: [],
      VirtualCount: 0,
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(events.map((e) => e.outcome)).toEqual(['E_HTTP', 'ok']);
  });

  it('retries 5xx with backoff and gives up with an HttpStatusError after the retries', async () => {
    const client = await clientFor((_req, res) => sendJson(res, 503, 'busy'), { retries: 2 });
    const error = await client
      .updateListing({ ...request, Key: '1', KeyType: 'NewOaks' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpStatusError);
    expect(error).toMatchObject({ code: 'E_HTTP', kind: 'API_TRANSPORT', status: 503, retryable: true });
    expect((error as Error).message).toBe('update: HTTP 503');
    expect(server!.requests).toHaveLength(3);
  });

  it('reports malformed JSON as InvalidJsonError', async () => {
    const client = await clientFor((_req, res) => sendJson(res, 200, '{"Data": {"List": ['), { retries: 0 });
    await expect(client.listListings({ SerialNumber: 'bot-1' })).rejects.toBeInstanceOf(InvalidJsonError);
  });

  it('reports a response that does not fit as SchemaError naming the field', async () => {
    const client = await clientFor((_req, res) => sendJson(res, 200, ok({ List: [{ Name: 'no ID' }] })));
    const error = await client.listListings({ SerialNumber: 'bot-1' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SchemaError);
    expect((error as SchemaError).field).toBe('Data.List.0.ID');
  });

  it("hands a list page to the caller's decode, retrying what it throws as its own failures", async () => {
    let answers = 0;
    const client = await clientFor((_req, res) => {
      answers++;
      // The first answer is cut short, the second a 503 in the envelope, the third whole.
      if (answers === 1) return sendJson(res, 200, '{"Data": {"List": [');
      if (answers === 2)
        return sendJson(res, 200, { Data: null, Success: false, Code: 503, Message: 'busy' });
      return sendJson(res, 200, ok({ List: [], VirtualCount: 0 }));
    });
    const texts: string[] = [];
    const decode = async (bytes: Uint8Array) => {
      const text = Buffer.from(bytes).toString('utf8');
      texts.push(text);
      // What the decode thread does (reconcile/remote-page.ts), here on this thread.
      const body = JSON.parse(text);
      if (body.Success === false) throw new PlatformError('list', body.Code, body.Message);
      return body.Data.VirtualCount as number;
    };
    const wrapped = async (bytes: PageBytes) => {
      try {
        return await decode(Buffer.concat(bytes));
      } catch (error) {
        throw error instanceof PlatformError ? error : new InvalidJsonError('list', error);
      }
    };
    await expect(client.listListingsDecoded({ SerialNumber: 'bot-1' }, wrapped)).resolves.toBe(0);
    expect(texts).toHaveLength(3);
    expect(server!.requests.map((r) => r.path)).toEqual(Array(3).fill('/chat/Chatbot/RealEstateList'));
    // A failure that is not worth a retry ends the call at once.
    answers = 2;
    const refused = async () => {
      throw new SchemaError('list', 'Data.List.0.ID', 'expected number');
    };
    await expect(client.listListingsDecoded({ SerialNumber: 'bot-1' }, refused)).rejects.toBeInstanceOf(
      SchemaError,
    );
    expect(server!.requests).toHaveLength(4);
  });

  it('times out a hanging request with TimeoutError, and retries it', async () => {
    const client = await clientFor(() => {}, { timeoutMs: 150, retries: 1 });
    const error = await client.listListings({ SerialNumber: 'bot-1' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(server!.requests).toHaveLength(2);
  });

  it('never retries a create blindly: a 5xx after sending is ambiguous', async () => {
    const client = await clientFor((_req, res) => sendJson(res, 502, 'bad gateway'));
    const error = await client.createListing(request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AmbiguousCreateError);
    expect(error).toMatchObject({ code: 'E_AMBIGUOUS', operation: 'create' });
    expect(server!.requests).toHaveLength(1);
  });

  it('does retry a create refused with 429: the server did nothing', async () => {
    const client = await clientFor((_req, res, _b, n) =>
      n === 1 ? sendJson(res, 429, ok(null), { 'retry-after': '0' }) : sendJson(res, 200, ok('981')),
    );
    await expect(client.createListing(request)).resolves.toBe('981');
    expect(server!.requests).toHaveLength(2);
  });

  it('rejects an invalid request before sending it', async () => {
    const client = await clientFor((_req, res) => sendJson(res, 200, ok('1')));
    const error = await client
      .createListing({ ...request, SaleType: 'auction' as 'for_sale' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SchemaError);
    expect((error as SchemaError).field).toBe('request.SaleType');
    expect(server!.requests).toHaveLength(0);
  });

  it('sends a listing checked at ingest as it is, and still checks the fields the write adds', async () => {
    const client = await clientFor((_req, res) => sendJson(res, 200, ok('1')));
    // A field the listing schema would refuse is not looked at again: the run checked it at ingest.
    const unchecked = { ...request, Extra: 'kept as sent' } as typeof request;
    await expect(client.createListing(unchecked, { listingChecked: true })).resolves.toBe('1');
    expect(server!.requests[0]?.body).toEqual(unchecked);
    // Checked whole, the same request loses the field the schema does not know.
    await expect(client.createListing(unchecked)).resolves.toBe('1');
    expect(server!.requests[1]?.body).toEqual(request);
    // The fields a write adds to the listing are checked either way: nothing is sent.
    const noChatbot = await client
      .createListing({ ...request, SerialNumber: '' }, { listingChecked: true })
      .catch((e: unknown) => e);
    expect((noChatbot as SchemaError).field).toBe('request.SerialNumber');
    const badKey = await client
      .updateListing({ ...request, Key: '7', KeyType: 'Nope' as 'NewOaks' }, { listingChecked: true })
      .catch((e: unknown) => e);
    expect((badKey as SchemaError).field).toBe('request.KeyType');
    // A list request is checked whole whatever the option says.
    const list = await client
      .listListings({ SerialNumber: 'bot-1', PageSize: -1 }, { listingChecked: true })
      .catch((e: unknown) => e);
    expect(list).toBeInstanceOf(SchemaError);
    expect(server!.requests).toHaveLength(2);
  });

  it('sends a listing kept as JSON text as it is, behind the SerialNumber it checks', async () => {
    const client = await clientFor((_req, res) => sendJson(res, 200, ok('1')));
    const kept = JSON.stringify({ ...listing(1), Description: 'Ünïcode, "quotes" and a \\ backslash' });
    await expect(client.createListingJson('bot-1', kept, { listingChecked: true })).resolves.toBe('1');
    const [sent] = server!.requests;
    expect(sent?.path).toBe('/chat/Chatbot/RealEstateCreate');
    // The same request `createListing` sends for the parsed listing, SerialNumber first.
    expect(sent?.body).toEqual({ SerialNumber: 'bot-1', ...(JSON.parse(kept) as object) });
    expect(Object.keys(sent?.body as object)[0]).toBe('SerialNumber');
    // Not checked at ingest: checked whole, as `createListing` checks it (a field it does not know
    // is left out, a bad value refused unsent).
    await expect(
      client.createListingJson('bot-1', JSON.stringify({ ...listing(2), Extra: 1 })),
    ).resolves.toBe('1');
    expect(server!.requests[1]?.body).toEqual({ ...listing(2), SerialNumber: 'bot-1' });
    const bad = await client
      .createListingJson('bot-1', JSON.stringify({ ...listing(3), Bedrooms: -1 }))
      .catch((e: unknown) => e);
    expect((bad as SchemaError).field).toBe('request.Bedrooms');
    // A create in doubt is ambiguous whichever way it was sent.
    await server!.close();
    server = undefined;
    const failing = await clientFor((_req, res) => sendJson(res, 502, 'bad gateway'));
    expect(
      await failing.createListingJson('bot-1', kept, { listingChecked: true }).catch((e: unknown) => e),
    ).toBeInstanceOf(AmbiguousCreateError);
    // What is checked before sending: the chatbot, that the text is an object with fields, and that
    // it has no SerialNumber of its own (a second key, which most parsers read last).
    const checked = { listingChecked: true };
    const noChatbot = await failing.createListingJson('', kept, checked).catch((e: unknown) => e);
    expect((noChatbot as SchemaError).field).toBe('request.SerialNumber');
    const own = JSON.stringify({ SerialNumber: 'bot-2', ...listing(1) });
    expect(
      ((await failing.createListingJson('bot-1', own, checked).catch((e: unknown) => e)) as SchemaError)
        .field,
    ).toBe('request.SerialNumber');
    for (const text of ['{}', '[1]', '"text"', '{"MLSNumber":"M-1"', 'not json']) {
      expect(await failing.createListingJson('bot-1', text, checked).catch((e: unknown) => e)).toBeInstanceOf(
        SchemaError,
      );
      expect(await failing.createListingJson('bot-1', text).catch((e: unknown) => e)).toBeInstanceOf(
        SchemaError,
      );
    }
    expect(server!.requests).toHaveLength(1);
  });

  it('updates to a listing kept as JSON text as it is, its SerialNumber, Key and KeyType after it', async () => {
    const client = await clientFor((_req, res) => sendJson(res, 200, ok(1)));
    const kept = JSON.stringify({ ...listing(1), Description: 'Ünïcode, "quotes" and a \\ backslash' });
    const checked = { listingChecked: true };
    await expect(client.updateListingJson('bot-1', '77', kept, checked)).resolves.toBe(1);
    const [sent] = server!.requests;
    expect(sent?.path).toBe('/chat/Chatbot/RealEstateUpdate');
    // The request `updateListing` sends for the parsed listing, with its own fields where the spread put them.
    const whole = { ...(JSON.parse(kept) as object), SerialNumber: 'bot-1', Key: '77', KeyType: 'NewOaks' };
    expect(sent?.body).toEqual(whole);
    expect(Object.keys(sent?.body as object).slice(-3)).toEqual(['SerialNumber', 'Key', 'KeyType']);
    // A Key of the listing's own (none checked at ingest has one) is read before ours: ours wins.
    await client.updateListingJson('bot-1', '78', JSON.stringify({ Key: '1', ...listing(1) }), checked);
    expect(server!.requests[1]?.body).toMatchObject({ Key: '78' });
    // Not checked at ingest: checked whole, as `updateListing` checks it.
    const bad = await client
      .updateListingJson('bot-1', '77', JSON.stringify({ ...listing(3), Bedrooms: -1 }))
      .catch((e: unknown) => e);
    expect((bad as SchemaError).field).toBe('request.Bedrooms');
    // Checked before sending: the chatbot, the key, the text's shape, no SerialNumber of its own.
    const refused = async (
      serial: string,
      key: string,
      text: string,
      options?: { listingChecked: boolean },
    ) => (await client.updateListingJson(serial, key, text, options).catch((e: unknown) => e)) as SchemaError;
    expect((await refused('', '77', kept, checked)).field).toBe('request.SerialNumber');
    expect((await refused('bot-1', '', kept, checked)).field).toBe('request.Key');
    const own = JSON.stringify({ SerialNumber: 'bot-2', ...listing(1) });
    expect((await refused('bot-1', '77', own, checked)).field).toBe('request.SerialNumber');
    for (const text of ['{}', '[1]', '"text"', '{"MLSNumber":"M-1"', 'not json']) {
      expect(await refused('bot-1', '77', text, checked)).toBeInstanceOf(SchemaError);
      // Checked whole, `{}` is an update of no field, as `updateListing` takes it.
      if (text !== '{}') expect(await refused('bot-1', '77', text)).toBeInstanceOf(SchemaError);
    }
    expect(server!.requests).toHaveLength(2);
  });

  it('reads an answer that starts with a byte-order mark', async () => {
    const client = await clientFor((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.end(`\uFEFF${JSON.stringify(ok('77'))}`);
    });
    await expect(client.createListing(request)).resolves.toBe('77');
  });

  it('never follows a redirect: the keys reach no other host', async () => {
    const elsewhere = await withServer((_req, res) => sendJson(res, 200, ok('1')));
    try {
      const client = await clientFor(
        (_req, res) => {
          res.writeHead(307, { location: `${elsewhere.url}/chat/Chatbot/RealEstateCreate` });
          res.end();
        },
        { retries: 0 },
      );
      const error = await client.listListings({ SerialNumber: 'bot-1' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(HttpStatusError);
      expect((error as HttpStatusError).status).toBe(307);
      expect(elsewhere.requests).toHaveLength(0);
    } finally {
      await elsewhere.close();
    }
  });

  it('maps a refused connection to NetworkError, marked as not sent', async () => {
    const client = platformClient({ baseUrl: 'http://127.0.0.1:9', timeoutMs: 1000, retries: 0 });
    const error = await client.listListings({ SerialNumber: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ code: 'E_NETWORK', requestSent: false });
  });
});
