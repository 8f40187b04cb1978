import { describe, expect, it } from 'vitest';
import { listing } from '../../src/testing/listing.ts';
import { BOT, call, post, sandboxFor } from './helpers.ts';

describe('Edit', () => {
  it('merges the fields sent into the stored settings and answers 1', async () => {
    const sandbox = await sandboxFor();
    expect(sandbox.settings(BOT)).toBeUndefined();
    const first = await call(sandbox, 'edit', {
      serialNumber: BOT,
      Name: 'Acme',
      ChatBubbleColor: 'rgb(0,102,204)',
    });
    expect(first).toEqual({ Data: 1, Version: '1.0-sandbox', Success: true, Code: 200, Message: '' });
    await call(sandbox, 'edit', { serialNumber: BOT, MessageLimit: -1, VerifyDomain: true });
    expect(sandbox.settings(BOT)).toEqual({
      Name: 'Acme',
      ChatBubbleColor: 'rgb(0,102,204)',
      MessageLimit: -1,
      VerifyDomain: true,
    });
  });

  it('requires serialNumber and checks the types of spec 2.1', async () => {
    const sandbox = await sandboxFor();
    expect(await call(sandbox, 'edit', { Name: 'Acme' })).toMatchObject({
      Success: false,
      Code: 400,
      Message: 'serialNumber: required',
    });
    const badType = await call(sandbox, 'edit', { serialNumber: BOT, Temperature: 0.5 });
    expect(badType.Message).toBe('Temperature: expected an integer, got 0.5');
    const badColour = await call(sandbox, 'edit', { serialNumber: BOT, ChatBubbleColor: '#0066cc' });
    expect(badColour.Message).toBe('ChatBubbleColor: expected rgb(<r>,<g>,<b>)');
    expect(sandbox.settings(BOT)).toBeUndefined();
  });
});

describe('GetSession and ClientAsk', () => {
  it('opens sessions with integer IDs and answers plainly, naming the listing count', async () => {
    const sandbox = await sandboxFor();
    sandbox.seed(BOT, [listing(1), listing(2), listing(3)]);
    const session = await call(sandbox, 'session', { serialNumber: BOT });
    const other = await call(sandbox, 'session', { serialNumber: 'bot-2' });
    const SessionID = (session.Data as { SessionID: number }).SessionID;
    expect(Number.isInteger(SessionID)).toBe(true);
    expect((other.Data as { SessionID: number }).SessionID).not.toBe(SessionID);

    const answer = await call(sandbox, 'ask', { sessionID: SessionID, content: 'What is for sale?' });
    expect(answer).toMatchObject({ Success: true, Code: 200, Message: '' });
    expect(answer.Data).toEqual({
      messageid: expect.any(Number),
      content: 'Sandbox answer to "What is for sale?": this chatbot has 3 listings.',
      totalToken: expect.any(Number),
      noAnswer: false,
    });
    const again = await call(sandbox, 'ask', { sessionID: SessionID, content: 'What is for sale?' });
    expect((again.Data as { content: string }).content).toBe((answer.Data as { content: string }).content);
  });

  it('refuses an unknown session and the file rules of spec 4.2', async () => {
    const sandbox = await sandboxFor();
    const unknown = await call(sandbox, 'ask', { sessionID: 4242, content: 'hi' });
    expect(unknown).toMatchObject({ Success: false, Code: 400 });
    expect(unknown.Message).toContain('sessionID: no session 4242');
    const { SessionID } = (await call(sandbox, 'session', { serialNumber: BOT })).Data as {
      SessionID: number;
    };
    const cases: [Record<string, unknown>, string][] = [
      [{ content: 'hi', fileIds: [1] }, 'fileIds: allowed only when chatAskType is Image, Audio or Video'],
      [{ content: '' }, 'content: must not be empty when chatAskType is Text'],
      [{ content: '', chatAskType: 'Video', fileIds: [1, 2] }, 'fileIds: Video needs exactly one file'],
      [{ content: 'hi', chatAskType: 'Speech' }, 'chatAskType: expected one of'],
    ];
    for (const [body, message] of cases) {
      const answer = await call(sandbox, 'ask', { sessionID: SessionID, ...body });
      expect(answer.Message).toContain(message);
    }
    const image = await call(sandbox, 'ask', {
      sessionID: SessionID,
      content: '',
      chatAskType: 'Image',
      fileIds: [1, 2],
    });
    expect(image.Success).toBe(true);
  });
});

describe('requests that are not operations', () => {
  it('answers an unknown path with HTTP 404 and the envelope', async () => {
    const sandbox = await sandboxFor();
    const answer = await post(sandbox, '/chat/Chatbot/RealEstateUpsert', {});
    expect(answer.status).toBe(404);
    expect(answer.json).toMatchObject({ Success: false, Code: 404, Version: '1.0-sandbox' });
    expect(sandbox.stats().unknownRequests).toBe(1);
  });

  it('answers invalid JSON and non-object bodies with Code 400', async () => {
    const sandbox = await sandboxFor();
    const broken = await post(sandbox, '/chat/Chatbot/RealEstateList', '{"SerialNumber": ');
    expect(broken.status).toBe(200);
    expect(broken.json).toMatchObject({ Success: false, Code: 400, Data: null });
    expect((broken.json as { Message: string }).Message).toMatch(/^body: invalid JSON/);
    const array = await post(sandbox, '/chat/Chatbot/RealEstateList', '[]');
    expect(array.json).toMatchObject({ Code: 400, Message: 'body: expected a JSON object' });
  });

  it('matches paths case-insensitively and wants POST', async () => {
    const sandbox = await sandboxFor();
    const lower = await post(sandbox, '/chat/chatbot/realestatelist', { SerialNumber: BOT });
    expect(lower.json).toMatchObject({ Success: true, Data: { List: [], VirtualCount: 0 } });
    const get = await fetch(`${sandbox.url}/chat/Chatbot/RealEstateList`);
    expect(get.status).toBe(405);
    expect(await get.json()).toMatchObject({ Success: false, Code: 405 });
  });
});
