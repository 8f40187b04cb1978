import { describe, expect, it } from 'vitest';
import { BOT, call, sandboxFor } from './helpers.ts';

const SECRET = 'sk-test-secret';
const SESSION = 'sess-test-key';
const list = { SerialNumber: BOT };

describe('authentication', () => {
  it('accepts either matching header on every operation', async () => {
    const sandbox = await sandboxFor({ secretKey: SECRET, sessionKey: SESSION });
    const both: Record<string, string>[] = [{ Authorization: SECRET }, { 'chatrobot-sessionkey': SESSION }];
    for (const headers of both) {
      expect(await call(sandbox, 'list', list, headers)).toMatchObject({ Success: true, Code: 200 });
      expect(await call(sandbox, 'edit', { serialNumber: BOT, Name: 'x' }, headers)).toMatchObject({
        Data: 1,
      });
      expect(await call(sandbox, 'session', { serialNumber: BOT }, headers)).toMatchObject({ Success: true });
    }
    const oneRightOneWrong = { Authorization: 'wrong', 'chatrobot-sessionkey': SESSION };
    expect(await call(sandbox, 'list', list, oneRightOneWrong)).toMatchObject({ Success: true });
  });

  it('answers HTTP 200 with Code 401 when neither header matches, and never echoes a key', async () => {
    const sandbox = await sandboxFor({ secretKey: SECRET, sessionKey: SESSION });
    const wrong: Record<string, string>[] = [
      {},
      { Authorization: `Bearer ${SECRET}` },
      { 'chatrobot-sessionkey': SECRET },
    ];
    for (const headers of wrong) {
      const answer = await call(sandbox, 'list', list, headers);
      expect(answer).toMatchObject({ Success: false, Code: 401, Data: null, Version: '1.0-sandbox' });
      expect(answer.Message).not.toContain(SECRET);
    }
    expect(await call(sandbox, 'create', { SerialNumber: BOT }, {})).toMatchObject({ Code: 401 });
    expect(sandbox.listings(BOT)).toEqual([]);
  });

  it('with only a secret key configured, the session header is no way in', async () => {
    const sandbox = await sandboxFor({ secretKey: SECRET });
    expect(await call(sandbox, 'list', list, { 'chatrobot-sessionkey': SECRET })).toMatchObject({
      Code: 401,
    });
    expect(await call(sandbox, 'list', list, { Authorization: SECRET })).toMatchObject({ Code: 200 });
  });

  it('accepts every request when no key is configured (the demo runs without credentials)', async () => {
    const sandbox = await sandboxFor();
    expect(await call(sandbox, 'list', list)).toMatchObject({ Success: true, Code: 200 });
    expect(await call(sandbox, 'list', list, { Authorization: 'anything' })).toMatchObject({ Success: true });
  });

  it('takes keys changed at run time', async () => {
    const sandbox = await sandboxFor();
    sandbox.configure({ sessionKey: SESSION });
    expect(await call(sandbox, 'list', list)).toMatchObject({ Code: 401 });
    expect(await call(sandbox, 'list', list, { 'chatrobot-sessionkey': SESSION })).toMatchObject({
      Code: 200,
    });
    sandbox.configure({ sessionKey: null });
    expect(await call(sandbox, 'list', list)).toMatchObject({ Code: 200 });
  });
});
