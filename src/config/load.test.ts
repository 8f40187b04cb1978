import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig, problemText } from './load.ts';

const feed = `
feeds:
  - id: acme-mls
    chatbot: 4f1c
    schedule: { cron: "0 */2 * * *", timezone: America/New_York }
    source: { format: csv, path: feeds/acme.csv }
`;

function issuesOf(text: string, env: Record<string, string> = {}): string[] {
  try {
    parseConfig(text, { env });
  } catch (error) {
    if (error instanceof ConfigError) return error.problems.map(problemText);
    throw error;
  }
  return [];
}

function errorOf(text: string, source: string): ConfigError {
  try {
    parseConfig(text, { source });
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('the config was accepted');
}

describe('parseConfig', () => {
  it('fills defaults and interpolates secrets from the environment', () => {
    const config = parseConfig(`api:\n  secretKey: \${KEY}\n${feed}`, {
      env: { KEY: 's3cret' },
      baseDir: '/etc/feed-sync',
    });
    expect(config.api).toMatchObject({
      baseUrl: 'https://usapi.hottask.com',
      secretKey: 's3cret',
      concurrency: 8,
      pageSize: 100,
    });
    expect(config.api.sessionKey).toBeUndefined();
    expect(config.feeds[0]).toMatchObject({
      id: 'acme-mls',
      key: 'MLSNumber',
      ownership: 'tagged',
      maxDeleteShare: 0.2,
    });
    expect(config.feeds[0]?.source.path).toBe('/etc/feed-sync/feeds/acme.csv');
  });

  it('reads a number or a boolean from the environment where the schema wants one, and only there', () => {
    const text = (api: string, extra = '') =>
      `api:\n  secretKey: k\n${api}\nfeeds:\n  - id: acme\n    chatbot: \${BOT}\n    source: { format: csv, path: a.csv }\n${extra}`;
    const pageSize = '  pageSize: ${PAGE_SIZE:-100}\n  concurrency: "${CONCURRENCY}"';
    const enabled = '    enabled: ${ACME_ON}\n';
    const config = parseConfig(text(pageSize, enabled), {
      env: { CONCURRENCY: '4', BOT: '12345', ACME_ON: 'false' },
    });
    expect(config.api).toMatchObject({ pageSize: 100, concurrency: 4 });
    expect(config.feeds[0]).toMatchObject({ enabled: false, chatbot: '12345' });
    expect(
      parseConfig(text(pageSize), { env: { PAGE_SIZE: ' 250 ', CONCURRENCY: '2', BOT: 'b' } }).api,
    ).toMatchObject({ pageSize: 250, concurrency: 2 });
    // Not a number, a reference inside a longer text, a string written in the file: errors as before.
    // Named by its variable (never its value: a variable may hold a key).
    expect(issuesOf(text(pageSize), { PAGE_SIZE: 'abc', CONCURRENCY: '2', BOT: 'b' })).toEqual([
      'api.pageSize: Invalid input: expected number, received string; the value of ${PAGE_SIZE} in the environment',
    ]);
    // The file's own default, taken for an unset or empty variable, is not the environment's.
    for (const env of [{ BOT: 'b' }, { PAGE_SIZE: '', BOT: 'b' }] as Record<string, string>[])
      expect(issuesOf(text('  pageSize: ${PAGE_SIZE:-abc}'), env)).toEqual([
        'api.pageSize: Invalid input: expected number, received string',
      ]);
    expect(issuesOf(text('  pageSize: ${PAGE_SIZE}0'), { PAGE_SIZE: '1', BOT: 'b' })).toEqual([
      expect.stringMatching(/^api\.pageSize: /),
    ]);
    expect(issuesOf(text('  pageSize: "100"'), { BOT: 'b' })).toEqual([
      expect.stringMatching(/^api\.pageSize: /),
    ]);
    expect(issuesOf(text(pageSize, enabled), { CONCURRENCY: '2', BOT: 'b', ACME_ON: 'no' })).toEqual([
      expect.stringMatching(
        /^feeds\[0\]\.enabled: .*expected boolean.*; the value of \$\{ACME_ON\} in the environment$/,
      ),
    ]);
  });

  it('a reference where a union with a number goes, and `:-` given an empty variable, as the shell reads them', () => {
    const text = (extra: string) =>
      `api:\n  secretKey: k\n  pageSize: \${PS:-100}\nfeeds:\n  - id: acme\n    chatbot: b\n    source: { format: csv, path: a.csv }\n${extra}`;
    const worker = 'worker:\n  concurrency: ${WC:-8}\n';
    expect(parseConfig(text(worker), { env: {} }).worker.concurrency).toBe(8);
    expect(parseConfig(text(worker), { env: { WC: '3' } }).worker.concurrency).toBe(3);
    expect(parseConfig(text(worker), { env: { WC: 'auto' } }).worker.concurrency).toBe('auto');
    expect(issuesOf(text(worker), { WC: 'many' })).toEqual([expect.stringMatching(/^worker\.concurrency: /)]);
    expect(issuesOf(text(worker), { WC: '999' })).toEqual([expect.stringMatching(/^worker\.concurrency: /)]);
    // Set but empty: the default, as `${PS:-100}` in a shell or docker compose.
    expect(parseConfig(text(''), { env: { PS: '' } }).api.pageSize).toBe(100);
    // Without a default an empty variable is empty: not a number.
    expect(issuesOf(text('').replace('${PS:-100}', '${PS}'), { PS: '' })).toEqual([
      expect.stringMatching(/^api\.pageSize: /),
    ]);
  });

  it('a reference written bare in a { } map: one problem, saying to quote it', () => {
    const text = `api: { secretKey: k }\nfeeds:\n  - id: acme\n    chatbot: b\n    source: { format: csv, path: a.csv }\n    gone: { action: delete, afterDays: \${GD:-0} }\n`;
    expect(issuesOf(text)).toEqual([
      'not valid YAML: ${GD:-0} inside { } or [ ] must be quoted ("${GD:-0}"): unquoted, YAML reads its braces as a map',
    ]);
    expect(errorOf(text, 'flow.yaml').problems).toEqual([expect.objectContaining({ line: 6, column: 40 })]);
    // Quoted, it is read (a whole reference where a number goes: the number).
    const quoted = text.replace('${GD:-0}', '"${GD:-0}"');
    expect(parseConfig(quoted, { env: { GD: '3' } }).feeds[0]?.gone).toMatchObject({ afterDays: 3 });
  });

  it('names the key path of every error', () => {
    const issues = issuesOf(
      `api:\n  concurrency: 0\n  baseUrl: not a url\nfeeds:\n  - id: a\n    source: { format: tsv, path: x }\n`,
    );
    expect(issues).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^api\.baseUrl: /),
        expect.stringMatching(/^api\.concurrency: /),
        expect.stringMatching(/^feeds\[0\]\.chatbot: /),
        expect.stringMatching(/^feeds\[0\]\.source\.format: /),
      ]),
    );
  });

  it('names a missing environment variable, never a value', () => {
    expect(issuesOf('api:\n  secretKey: ${NOPE}\n')).toEqual([
      'api.secretKey: environment variable NOPE is not set',
    ]);
  });

  it('refuses duplicate feed ids', () => {
    const issues = issuesOf(
      `api: { secretKey: k }${feed}  - id: acme-mls\n    chatbot: x\n    source: { format: csv, path: b.csv }\n`,
    );
    expect(issues).toEqual(['feeds[1].id: duplicate feed id "acme-mls"']);
  });

  it('refuses an unknown key anywhere, naming its path and the nearest valid key', () => {
    const issues = issuesOf(
      [
        'api: { baseURL: "https://x.example", secretKey: k }',
        'wokrer: { concurrency: 2 }',
        'worker: { alerts: { webhookUrl: "https://hooks.example/t", rejectedshare: 0.2 } }',
        'chatbots:',
        '  - serialNumber: s1',
        '    settings: { Nmae: Acme }',
        'feeds:',
        '  - id: a',
        '    chatbot: s1',
        '    maxDeleteShar: 0.05',
        '    schedule: { cron: "0 * * * *", tz: UTC }',
        '    source: { format: csv, path: a.csv, encodng: latin1, csv: { delimter: ";" } }',
        '    mapping: { preset: reso, fields: { SalePrice: { form: ListPrice }, Bedroms: Beds }, zzzzzzzz: 1 }',
        '  - id: b',
        '    chatbot: s1',
        '    source: { format: xml, path: b.xml, xml: { recordpath: a.b }, auth: { type: basic, username: u, pasword: p } }',
        '  - id: c',
        '    chatbot: s1',
        '    source: { format: reso, url: "https://mls.example/odata", reso: { mdoe: full } }',
      ].join('\n'),
    );
    expect(issues.sort()).toEqual(
      [
        'api.baseURL: unknown key; did you mean baseUrl?',
        'wokrer: unknown key; did you mean worker?',
        'worker.alerts.rejectedshare: unknown key; did you mean rejectedShare?',
        'chatbots[0].settings.Nmae: unknown key; did you mean Name?',
        // Renamed to chatbot (as feeds[].chatbot): the old name points at the new one.
        'chatbots[0].serialNumber: unknown key; did you mean chatbot?',
        'feeds[0].maxDeleteShar: unknown key; did you mean maxDeleteShare?',
        'feeds[0].schedule.tz: unknown key',
        'feeds[0].source.encodng: unknown key; did you mean encoding?',
        'feeds[0].source.csv.delimter: unknown key; did you mean delimiter?',
        'feeds[0].mapping.fields.SalePrice.form: unknown key; did you mean from?',
        'feeds[0].mapping.zzzzzzzz: unknown key',
        'feeds[0].mapping.fields.Bedroms: unknown key; did you mean Bedrooms?',
        'feeds[1].source.xml.recordpath: unknown key; did you mean recordPath?',
        'feeds[1].source.auth.pasword: unknown key; did you mean password?',
        'feeds[2].source.reso.mdoe: unknown key; did you mean mode?',
      ].sort(),
    );
  });

  it('a value of a few left out is required, naming them; misspelled, only the misspelling is said', () => {
    const base = 'api: { secretKey: k }\nfeeds:\n  - id: a\n    chatbot: s1\n';
    expect(issuesOf(`${base}    source: { path: a.csv }\n`)).toEqual([
      'feeds[0].source.format: required: one of "csv"|"xml"|"reso"|"blm"',
    ]);
    // `format:` with nothing after it (YAML's null) is left out too.
    expect(issuesOf(`${base}    source:\n      format:\n      path: a.csv\n`)).toEqual([
      'feeds[0].source.format: required: one of "csv"|"xml"|"reso"|"blm"',
    ]);
    expect(issuesOf(`${base}    source: { formt: csv, path: a.csv }\n`)).toEqual([
      'feeds[0].source.formt: unknown key; did you mean format?',
    ]);
    // A value given but not one of them is said as zod says it, with the nearest.
    expect(issuesOf(`${base}    source: { format: cvs, path: a.csv }\n`)[0]).toMatch(
      /^feeds\[0\]\.source\.format: Invalid option: expected one of "csv"\|"xml"\|"reso"\|"blm"/,
    );
  });

  it('a mapping field named as feeds name their columns gets the listing field it means', () => {
    const issues = issuesOf(
      `api: { secretKey: k }${feed}    mapping: { fields: { MLSNumber: MLS, Area: sqft, Beds: beds, Zip: zip, Price: p, Type: t, Currency: cur, Colour: c } }\n`,
    );
    expect(issues).toEqual([
      'feeds[0].mapping.fields.Area: unknown key; did you mean BuildingArea?',
      'feeds[0].mapping.fields.Beds: unknown key; did you mean Bedrooms?',
      'feeds[0].mapping.fields.Zip: unknown key; did you mean ZIP?',
      'feeds[0].mapping.fields.Price: unknown key; did you mean SalePrice?',
      // The column's value as it is (PropertyType), not a table of it (SaleType: for_rent on Lease).
      'feeds[0].mapping.fields.Type: unknown key; did you mean PropertyType?',
      'feeds[0].mapping.fields.Currency: unknown key; did you mean CurrencySymbol?',
      // Nothing reads a column of that name: no guess.
      'feeds[0].mapping.fields.Colour: unknown key',
    ]);
    // The other objects of the mapping keyed by listing field, too.
    expect(
      issuesOf(
        `api: { secretKey: k }${feed}    mapping: { defaults: { Beds: 2 }, missing: { Sqft: unknown } }\n`,
      ),
    ).toEqual([
      'feeds[0].mapping.defaults.Beds: unknown key; did you mean Bedrooms?',
      'feeds[0].mapping.missing.Sqft: unknown key; did you mean BuildingArea?',
    ]);
  });

  it('a key written one level too high gets the object that takes it', () => {
    const issues = issuesOf(
      'api: { secretKey: k }\nfeeds:\n  - id: x\n    chatbot: c\n    source: { format: xml, path: x.xml, recordPath: Listings.Listing }\n',
    );
    expect(issues).toEqual(['feeds[0].source.recordPath: unknown key; did you mean xml.recordPath?']);
    // On a CSV source it is no XML option to move: no hint.
    expect(
      issuesOf(
        'api: { secretKey: k }\nfeeds:\n  - id: x\n    chatbot: c\n    source: { format: csv, path: x.csv, recordPath: a.b }\n',
      ),
    ).toEqual(['feeds[0].source.recordPath: unknown key']);
  });

  it('adoptFrom: one former id, written alone or as a list', () => {
    expect(parseConfig(`api: { secretKey: k }${feed}    adoptFrom: acme\n`).feeds[0]?.adoptFrom).toEqual([
      'acme',
    ]);
    expect(
      parseConfig(`api: { secretKey: k }${feed}    adoptFrom: [acme, old]\n`).feeds[0]?.adoptFrom,
    ).toEqual(['acme', 'old']);
    expect(issuesOf(`api: { secretKey: k }${feed}    adoptFrom: acme-mls\n`)).toEqual([
      'feeds[0].adoptFrom[0]: "acme-mls" is this feed: adoptFrom names a former id, no feed has it now',
    ]);
    expect(issuesOf(`api: { secretKey: k }${feed}    adoptFrom: "not an id!"\n`)).toEqual([
      'feeds[0].adoptFrom[0]: letters, digits, . _ - (max 64)',
    ]);
    expect(issuesOf(`api: { secretKey: k }${feed}    adoptFrom: 42\n`)).toEqual([
      'feeds[0].adoptFrom: Invalid input: expected array, received number',
    ]);
  });

  it('gone: the shorthand, the defaults, and each typo an error with a hint', () => {
    const keyed = `api: { secretKey: k }${feed}`;
    const gone = (value: string) => `${keyed}    gone: ${value}\n`;
    expect(parseConfig(keyed).feeds[0]?.gone).toEqual({ action: 'delete', afterDays: 0 });
    expect(parseConfig(gone('markSold')).feeds[0]?.gone).toEqual({ action: 'markSold', afterDays: 30 });
    expect(parseConfig(gone('{ afterDays: 3 }')).feeds[0]?.gone).toEqual({ action: 'delete', afterDays: 3 });
    expect(issuesOf(gone('{ action: markSOLD }'))).toEqual([
      'feeds[0].gone.action: Invalid option: expected one of "delete"|"markSold"; did you mean markSold?',
    ]);
    expect(issuesOf(gone('{ afterdays: 3 }'))).toEqual([
      'feeds[0].gone.afterdays: unknown key; did you mean afterDays?',
    ]);
    expect(issuesOf(gone('{ afterDays: -1 }'))[0]).toMatch(/^feeds\[0\]\.gone\.afterDays: Too small/);
    expect(issuesOf(gone('{ afterDays: 1e12 }'))[0]).toMatch(/^feeds\[0\]\.gone\.afterDays: Too big/);
    expect(issuesOf(gone('{ action: markSold, afterDays: 0 }'))).toEqual([
      'feeds[0].gone: markSold with afterDays: 0 would delete at once and never mark a listing Sold; give afterDays > 0, or action: delete',
    ]);
  });

  it('reports every problem at once: unset variables, typos, bad values, duplicate ids', () => {
    const issues = issuesOf(
      `api: { secretKey: "\${NOPE}", pageSise: 50 }\n${feed}    maxDeleteShare: 2\n  - id: acme-mls\n    chatbot: x\n    source: { format: tsv, path: b.csv }\n`,
    );
    expect(issues.sort()).toEqual(
      [
        'api.secretKey: environment variable NOPE is not set',
        'api.pageSise: unknown key; did you mean pageSize?',
        'feeds[0].maxDeleteShare: Too big: expected number to be <=1',
        'feeds[1].source.format: Invalid option: expected one of "csv"|"xml"|"reso"|"blm"; did you mean csv?',
        'feeds[1].id: duplicate feed id "acme-mls"',
      ].sort(),
    );
  });

  it('checks cron expressions and time zones when the config loads', () => {
    const schedule = (cron: string, timezone = 'UTC') =>
      issuesOf(
        `api: { secretKey: k }\nfeeds:\n  - id: a\n    chatbot: s\n    schedule: { cron: "${cron}", timezone: ${timezone} }\n    source: { format: csv, path: a.csv }\n`,
      );
    expect(schedule('0 */2 * * *', 'America/New_York')).toEqual([]);
    expect(schedule('*/30 * * * * *')).toEqual([]);
    expect(schedule('@daily')).toEqual([]);
    expect(schedule('0 9 * * MON-FRI')).toEqual([]);
    expect(schedule('0 */2 * *')).toEqual([
      expect.stringMatching(/^feeds\[0\]\.schedule\.cron: .*has 4 fields/),
    ]);
    expect(schedule('61 * * * *')).toEqual([
      expect.stringMatching(/^feeds\[0\]\.schedule\.cron: "61 \* \* \* \*" is not a valid cron/),
    ]);
    expect(schedule('every hour')).toEqual([expect.stringMatching(/^feeds\[0\]\.schedule\.cron: /)]);
    expect(schedule('0 0 30 2 *')).toEqual([expect.stringMatching(/^feeds\[0\]\.schedule\.cron: /)]);
    expect(schedule('0 * * * *', 'Mars/Olympus')).toEqual([
      'feeds[0].schedule.timezone: "Mars/Olympus" is not an IANA time zone (e.g. America/New_York)',
    ]);
    expect(schedule('0 * * * *', '"+01:00"')).toEqual([
      expect.stringMatching(/^feeds\[0\]\.schedule\.timezone: /),
    ]);
  });

  it('refuses an empty or blank platform key; an absent one is not sent', () => {
    expect(issuesOf('api:\n  secretKey: ${KEY}\n', { KEY: '' })).toEqual([
      expect.stringMatching(/^api\.secretKey: is empty or blank/),
    ]);
    expect(issuesOf('api:\n  sessionKey: "  "\n')).toEqual([
      expect.stringMatching(/^api\.sessionKey: is empty or blank/),
    ]);
    expect(issuesOf('api:\n  sessionKey: ${S:-}\n')).toEqual([
      expect.stringMatching(/^api\.sessionKey: is empty/),
    ]);
    expect(parseConfig('api: { baseUrl: "http://127.0.0.1:4010" }').api.secretKey).toBeUndefined();
  });

  it('refuses a config with neither key, unless the platform is a sandbox on loopback', () => {
    const refused =
      /^api: neither api\.secretKey nor api\.sessionKey is set, so every request to (\S+) would be refused/;
    expect(issuesOf('feeds: []\n')).toEqual([expect.stringMatching(refused)]);
    expect(issuesOf('api: { baseUrl: "https://usapi.example.com" }')[0]).toMatch(
      /to usapi\.example\.com would/,
    );
    expect(issuesOf('api: { sessionKey: s }')).toEqual([]);
    expect(issuesOf('api: { secretKey: k }')).toEqual([]);
    for (const sandbox of ['http://127.0.0.1:4010', 'http://localhost:4010', 'http://[::1]:4010'])
      expect(issuesOf(`api: { baseUrl: "${sandbox}" }`), sandbox).toEqual([]);
    // Not while the section has a typo: that is the problem to fix first.
    expect(issuesOf('api: { baseURL: "https://x.example" }')).toEqual([
      'api.baseURL: unknown key; did you mean baseUrl?',
    ]);
  });

  it('wants https for the platform, but for loopback or with allowInsecureHttp', () => {
    const base = (url: string, extra = '') => issuesOf(`api: { baseUrl: "${url}", secretKey: k${extra} }`);
    for (const ok of [
      'https://usapi.example.com',
      'http://127.0.0.1:4010',
      'http://127.9.9.9',
      'http://[::1]:4010',
      'http://localhost:4010',
    ])
      expect(base(ok), ok).toEqual([]);
    for (const bad of [
      'http://usapi.example.com',
      'http://127.evil.example',
      'http://10.0.0.5:4010',
      'ftp://127.0.0.1',
    ])
      expect(base(bad), bad).toEqual([expect.stringMatching(/^api\.baseUrl: must be https:\/\//)]);
    expect(base('http://sandbox:4010', ', allowInsecureHttp: true')).toEqual([]);
  });

  it('places every problem at its file, line and column, in file order (YAML)', () => {
    const text = [
      'api:', // 1
      '  baseURL: https://usapi.example.com', // 2: a typo
      'feeds:', // 3
      '  - id: a', // 4
      '    chatbot: s1', // 5
      '    source: { format: csv, path: a.csv }', // 6
      '    maxDeleteShar: 0.05', // 7: a typo
      '  - id: b', // 8: chatbot left out
      '    source: { format: csv, path: b.csv }', // 9
      '    schedule: { cron: "0 * * * *", timezon: UTC }', // 10: a typo in a flow map
      '    maxDeleteShare: 3', // 11: too big
      '    mapping: { fields: { Url: { template: "${NOPE}" } } }', // 12: unset variable
    ].join('\n');
    const error = errorOf(text, 'feed-sync.yaml');
    expect(error.problems.map((p) => [p.line, p.column, p.path])).toEqual([
      [2, 3, 'api.baseURL'],
      [7, 5, 'feeds[0].maxDeleteShar'],
      [8, 5, 'feeds[1].chatbot'],
      [10, 36, 'feeds[1].schedule.timezon'],
      [11, 21, 'feeds[1].maxDeleteShare'],
      [12, 43, 'feeds[1].mapping.fields.Url.template'],
    ]);
    expect(error.problems[1]).toEqual({
      path: 'feeds[0].maxDeleteShar',
      message: 'unknown key',
      hint: 'did you mean maxDeleteShare?',
      line: 7,
      column: 5,
    });
    expect(error.issues[1]).toBe(
      'feed-sync.yaml:7:5: feeds[0].maxDeleteShar: unknown key; did you mean maxDeleteShare?',
    );
    expect(error.issues[2]).toBe('feed-sync.yaml:8:5: feeds[1].chatbot: required');
    expect(error.message).toContain('feed-sync.yaml:2:3: api.baseURL: unknown key; did you mean baseUrl?');
  });

  it('places problems in a JSON config too (a tab is one column, as editors count)', () => {
    const text = [
      '{', // 1
      '\t"api": { "baseURL": "https://x.example" },', // 2
      '\t"feeds": [', // 3
      '\t\t{', // 4
      '\t\t\t"id": "a",', // 5
      '\t\t\t"chatbot": "s1",', // 6
      '\t\t\t"source": { "format": "tsv", "path": "a.csv" },', // 7
      '\t\t\t"maxDeleteShar": 0.05', // 8
      '\t\t}', // 9
      '\t]', // 10
      '}', // 11
    ].join('\n');
    expect(errorOf(text, 'feed-sync.json').issues).toEqual([
      'feed-sync.json:2:11: api.baseURL: unknown key; did you mean baseUrl?',
      'feed-sync.json:7:26: feeds[0].source.format: Invalid option: expected one of "csv"|"xml"|"reso"|"blm"; did you mean csv?',
      'feed-sync.json:8:4: feeds[0].maxDeleteShar: unknown key; did you mean maxDeleteShare?',
    ]);
  });

  it('places a syntax error, and lists every one', () => {
    expect(errorOf('feeds:\n  - id: a\n  - id: b\n    id: c\n', 'x.yaml').issues).toEqual([
      'x.yaml:4:5: not valid YAML or JSON: Map keys must be unique',
    ]);
    expect(errorOf('{\n  "api": {\n    "pageSize": 5,\n  }\n  "feeds": []\n}', 'x.json').issues).toEqual([
      expect.stringMatching(/^x\.json:5:3: not valid YAML or JSON: /),
    ]);
  });

  it('accepts JSON too, and reports bad syntax in one line', () => {
    expect(parseConfig('{"api": {"secretKey": "k"}, "feeds": []}').feeds).toEqual([]);
    expect(issuesOf('feeds: [\n')[0]).toMatch(/^not valid YAML or JSON/);
  });
});
