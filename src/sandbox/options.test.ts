import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, describeSettings, mergeSettings } from './options.ts';
import { parseConfigure, parseOptions, SandboxOptionsError } from './options-schema.ts';

describe('mergeSettings', () => {
  it('merges faults key by key and leaves the rest alone', () => {
    const once = mergeSettings(DEFAULT_SETTINGS, { latencyMs: 20, faults: { hangRate: 0.5 } });
    const twice = mergeSettings(once, { faults: { error500Rate: 0.1 } });
    expect(twice.latencyMs).toBe(20);
    expect(twice.faults).toEqual({ ...DEFAULT_SETTINGS.faults, hangRate: 0.5, error500Rate: 0.1 });
    expect(twice.maxPageSize).toBe(1000);
  });

  it('sets keys, and switches them off with null or ""', () => {
    const on = mergeSettings(DEFAULT_SETTINGS, { secretKey: 's3cret', sessionKey: 'sess' });
    expect([on.secretKey, on.sessionKey]).toEqual(['s3cret', 'sess']);
    const kept = mergeSettings(on, { latencyMs: 1 });
    expect(kept.secretKey).toBe('s3cret');
    const off = mergeSettings(on, { secretKey: null, sessionKey: '' });
    expect([off.secretKey, off.sessionKey]).toEqual([undefined, undefined]);
  });

  it('never shows a key in the description', () => {
    const described = describeSettings(mergeSettings(DEFAULT_SETTINGS, { secretKey: 's3cret' }));
    expect(JSON.stringify(described)).not.toContain('s3cret');
    expect(described).toMatchObject({ secretKey: '[set]', sessionKey: null });
  });
});

describe('option validation', () => {
  it.each([
    [{ latencyMs: -1 }, 'latencyMs: must be >= 0'],
    [{ faults: { hangRate: 2 } }, 'faults.hangRate: must be <= 1'],
    [{ faultOperations: ['create', 'upsert'] }, 'faultOperations[1]: expected one of'],
    [{ imagesFormat: 'csv' }, 'imagesFormat: expected one of "comma", "json"'],
    [{ lattency: 5 }, 'body: unknown field lattency'],
  ])('%o → %s', (input, message) => {
    expect(() => parseConfigure(input)).toThrow(SandboxOptionsError);
    expect(() => parseConfigure(input)).toThrow(message);
  });

  it('accepts port and host at start, not at run time', () => {
    expect(parseOptions({ port: 0, host: '127.0.0.1' })).toEqual({ port: 0, host: '127.0.0.1' });
    expect(() => parseConfigure({ port: 1234 })).toThrow('unknown field port');
  });
});
