import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { type AddressInfo, connect, createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FeedSyncError } from '../../src/errors.ts';
import {
  classifyRequestError,
  createHttp,
  phaseTimeouts,
  postForBytes,
  postForStream,
  stopProxy,
  useProxy,
} from '../../src/http/index.ts';
import { startSandbox } from '../../src/sandbox/index.ts';
import { csvFeedConfig, csvRow, HEADER } from '../helpers/cli-feed.ts';
import { platformClient } from '../helpers/platform-client.ts';
import { hasOpenssl, runTrusting, selfSigned } from '../helpers/tls-cert.ts';
import { withServer } from '../helpers/with-server.ts';

/**
 * An HTTP proxy as corporate networks run them (squid, a forward proxy): `CONNECT host:port` opens a
 * tunnel, an absolute-form request (`POST http://host/path`) is forwarded. Written from RFC 9110
 * §9.3.6 and §7.1, not from our client. `auth`: the `Proxy-Authorization` it asks for (else 407);
 * `refuseTunnels`: every CONNECT answered 407.
 */
async function startProxy(options: { auth?: string; refuseTunnels?: boolean } = {}) {
  const seen: { method: string; target: string; auth: string | undefined }[] = [];
  const allowed = (auth: string | undefined) =>
    options.auth === undefined || auth === `Basic ${Buffer.from(options.auth).toString('base64')}`;
  const server: Server = createServer((req, res) => {
    seen.push({ method: req.method ?? '', target: req.url ?? '', auth: req.headers['proxy-authorization'] });
    if (!allowed(req.headers['proxy-authorization'])) {
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="proxy"' }).end();
      return;
    }
    const url = new URL(req.url ?? '');
    const { 'proxy-authorization': _auth, 'proxy-connection': _pc, ...headers } = req.headers;
    const upstream = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method: req.method,
        headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  server.on('connect', (req, socket, head) => {
    seen.push({ method: 'CONNECT', target: req.url ?? '', auth: req.headers['proxy-authorization'] });
    if (options.refuseTunnels || !allowed(req.headers['proxy-authorization'])) {
      socket.end('HTTP/1.1 407 Proxy Authentication Required\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    seen,
    onConnection: (listener: (socket: import('node:net').Socket) => void) =>
      server.on('connection', listener),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const json = { 'content-type': 'application/json' };

afterEach(() => stopProxy());

describe('an HTTP proxy from the environment', () => {
  it("sends the platform's calls and got's requests through it, with its credentials; NO_PROXY goes direct", async () => {
    const proxy = await startProxy({ auth: 'team:s3cret' });
    const sandbox = await startSandbox({ host: '127.0.0.2' });
    const feed = await withServer((_req, res) => void res.end('MLS\nM-1\n'), { host: '127.0.0.2' });
    const feedUrl = `${feed.url}/feed.csv`;
    try {
      useProxy({ HTTP_PROXY: `http://team:s3cret@127.0.0.1:${proxy.port}` });
      const body = JSON.stringify({ SerialNumber: 'PROXY-BOT', PageSize: 10, PageNumber: 1 });
      const list = await postForBytes(`${sandbox.url}/chat/Chatbot/RealEstateList`, {
        headers: json,
        body,
        timeoutMs: 5000,
      });
      expect(list.statusCode).toBe(200);
      expect(JSON.parse(list.body.toString('utf8'))).toMatchObject({ Success: true });
      const http = await createHttp();
      const downloaded = await http.get(feedUrl).text();
      expect(downloaded).toBe('MLS\nM-1\n');
      const auth = `Basic ${Buffer.from('team:s3cret').toString('base64')}`;
      expect(proxy.seen).toEqual([
        { method: 'POST', target: `${sandbox.url}/chat/Chatbot/RealEstateList`, auth },
        { method: 'GET', target: feedUrl, auth },
      ]);

      // The hosts NO_PROXY names are reached directly, by both.
      useProxy({
        HTTP_PROXY: `http://team:s3cret@127.0.0.1:${proxy.port}`,
        NO_PROXY: 'example.com,127.0.0.2',
      });
      const direct = await postForBytes(`${sandbox.url}/chat/Chatbot/RealEstateList`, {
        headers: json,
        body,
        timeoutMs: 5000,
      });
      expect(direct.statusCode).toBe(200);
      expect(await (await createHttp()).get(feedUrl).text()).toBe('MLS\nM-1\n');
      expect(proxy.seen).toHaveLength(2);

      // This host's loopback is never proxied (no proxy could reach it): a proxy that is not there
      // does not stop the calls to a platform on 127.0.0.1 (the demo's sandbox).
      const local = await startSandbox();
      try {
        useProxy({ HTTP_PROXY: 'http://127.0.0.1:9', HTTPS_PROXY: 'http://127.0.0.1:9' });
        for (const url of [local.url, local.url.replace('127.0.0.1', 'localhost')]) {
          const answer = await postForBytes(`${url}/chat/Chatbot/RealEstateList`, {
            headers: json,
            body,
            timeoutMs: 5000,
          });
          expect(answer.statusCode).toBe(200);
        }
      } finally {
        await local.close();
      }
    } finally {
      await feed.close();
      await sandbox.close();
      await proxy.close();
    }
  });

  it('through it as directly: a streamed answer, the size bound, the timeout', async () => {
    const proxy = await startProxy();
    const platform = await withServer(
      (req, res) => {
        if (req.url === '/silent') return; // never answers
        if (req.url === '/stalls') return void res.writeHead(200, { 'content-length': '100' }).write('{"Da');
        res.end(req.url === '/big' ? 'x'.repeat(5000) : 'data: one\n\ndata: two\n\n');
      },
      { host: '127.0.0.2' },
    );
    const base = platform.url;
    try {
      useProxy({ http_proxy: `http://127.0.0.1:${proxy.port}` });
      const streamed = await postForStream(`${base}/ask`, { headers: json, body: '{}', timeoutMs: 5000 });
      let text = '';
      for await (const chunk of streamed.body) text += String(chunk);
      expect(text).toBe('data: one\n\ndata: two\n\n');
      const failed = (call: Promise<unknown>) =>
        call.then(
          () => undefined,
          (e: unknown) => (e as { code?: string }).code,
        );
      expect(
        await failed(
          postForBytes(`${base}/big`, { headers: json, body: '{}', timeoutMs: 5000, maxBytes: 1000 }),
        ),
      ).toBe('ERR_RESPONSE_TOO_LARGE');
      expect(
        await failed(postForBytes(`${base}/silent`, { headers: json, body: '{}', timeoutMs: 300 })),
      ).toBe('ETIMEDOUT');
      // An answer that stops halfway: the timeout ends it as well.
      expect(
        await failed(postForBytes(`${base}/stalls`, { headers: json, body: '{}', timeoutMs: 300 })),
      ).toBe('ETIMEDOUT');
      expect(proxy.seen.map((r) => r.target)).toEqual([
        `${base}/ask`,
        `${base}/big`,
        `${base}/silent`,
        `${base}/stalls`,
      ]);
    } finally {
      await platform.close();
      await proxy.close();
    }
  });

  it('closes a connection to the proxy left idle, as the wire closes its own', async () => {
    const proxy = await startProxy();
    const platform = await withServer((_req, res) => void res.end('{}'), { host: '127.0.0.2' });
    const url = `${platform.url}/chat`;
    const closed: number[] = [];
    try {
      useProxy({ HTTP_PROXY: `http://127.0.0.1:${proxy.port}` });
      const started = Date.now();
      proxy.onConnection((socket) => socket.on('close', () => closed.push(Date.now() - started)));
      expect((await postForBytes(url, { headers: json, body: '{}', timeoutMs: 5000 })).statusCode).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 5500));
      expect(closed).toHaveLength(1);
      expect(closed[0]).toBeGreaterThanOrEqual(3900);
    } finally {
      await platform.close();
      await proxy.close();
    }
  });

  it('a proxy that will not open the tunnel: a failure naming it, and the request known unsent', async () => {
    const proxy = await startProxy({ refuseTunnels: true });
    try {
      useProxy({ HTTPS_PROXY: `http://127.0.0.1:${proxy.port}` });
      const error = await postForBytes('https://platform.example/chat/Chatbot/RealEstateCreate', {
        headers: json,
        body: '{}',
        timeoutMs: 5000,
      }).then(
        () => undefined,
        (e: unknown) => e as Error & { code: string },
      );
      expect(error?.code).toBe('ERR_PROXY_TUNNEL');
      expect(error?.message).toMatch(/407/);
      // Never reached the platform: a create that failed so is sent again, not looked up as in doubt.
      // Refused by the proxy (407): not tried again, the next try would be refused the same.
      expect(classifyRequestError(error)).toMatchObject({
        kind: 'network',
        requestSent: false,
        retryable: false,
      });
      expect(proxy.seen).toEqual([{ method: 'CONNECT', target: 'platform.example:443', auth: undefined }]);
    } finally {
      await proxy.close();
    }
  });

  it('a proxy that takes the connection and never answers: each attempt ends in its time, and the process can exit', async () => {
    // Accepts, reads, answers nothing: neither the CONNECT nor an absolute-form request.
    const silent = createNetServer((socket) => socket.resume());
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as AddressInfo).port;
    try {
      const script = `import { createHttp, phaseTimeouts, postForBytes, useProxy } from ${JSON.stringify(join(process.cwd(), 'src/http/index.ts'))};
useProxy({ HTTPS_PROXY: 'http://127.0.0.1:${port}', HTTP_PROXY: 'http://127.0.0.1:${port}' });
const codeOf = (call) => call.then(() => 'answered', (e) => e.code);
const started = Date.now();
const platform = await codeOf(postForBytes('https://127.0.0.2:9/chat/Chatbot/RealEstateList', { headers: {}, body: '{}', timeoutMs: 300 }));
const plain = await codeOf(postForBytes('http://127.0.0.2:9/chat/Chatbot/RealEstateList', { headers: {}, body: '{}', timeoutMs: 300 }));
const http = await createHttp({ timeout: phaseTimeouts(300) });
const feed = await codeOf(http.get('https://127.0.0.2:9/feed.csv').text());
process.stdout.write(JSON.stringify({ platform, plain, feed, ms: Date.now() - started }));`;
      const child = spawn(process.execPath, ['--input-type=module', '-e', script]);
      let out = '';
      child.stdout.on('data', (d) => {
        out += String(d);
      });
      // The process ends by itself once the three have failed: no tunnel left waiting.
      const killer = setTimeout(() => child.kill(), 15_000);
      const [code, signal] = await once(child, 'exit');
      clearTimeout(killer);
      expect(signal).toBeNull();
      expect(code).toBe(0);
      const result = JSON.parse(out);
      expect(result).toMatchObject({ platform: 'ETIMEDOUT', plain: 'ETIMEDOUT', feed: 'ERR_PROXY_TUNNEL' });
      expect(result.ms).toBeLessThan(10_000);
    } finally {
      silent.close();
    }
  });

  it('a proxy URL spelled otherwise (HTTP://, http:/host) is the proxy it stands for, never ignored', async () => {
    const proxy = await startProxy();
    const platform = await withServer((_req, res) => void res.end('{}'), { host: '127.0.0.2' });
    const url = `${platform.url}/chat`;
    try {
      for (const spelling of [
        `HTTP://127.0.0.1:${proxy.port}`,
        `http:/127.0.0.1:${proxy.port}`,
        `127.0.0.1:${proxy.port}`,
      ]) {
        useProxy({ HTTP_PROXY: spelling });
        expect((await postForBytes(url, { headers: json, body: '{}', timeoutMs: 5000 })).statusCode).toBe(
          200,
        );
      }
      expect(proxy.seen.map((r) => r.target)).toEqual([url, url, url]);
    } finally {
      await platform.close();
      await proxy.close();
    }
  });

  it('NO_PROXY read as curl reads it: an IPv4 block, a domain and its subdomains', async () => {
    const proxy = await startProxy();
    const platform = await withServer((_req, res) => void res.end('{}'), { host: '127.0.0.2' });
    try {
      useProxy({ HTTP_PROXY: `http://127.0.0.1:${proxy.port}`, NO_PROXY: 'corp.example, 127.0.0.0/30' });
      const answer = await postForBytes(`${platform.url}/chat`, {
        headers: json,
        body: '{}',
        timeoutMs: 5000,
      });
      expect(answer.statusCode).toBe(200);
      expect(proxy.seen).toEqual([]);
      useProxy({ HTTP_PROXY: `http://127.0.0.1:${proxy.port}`, no_proxy: '127.0.0.4/30' });
      await postForBytes(`${platform.url}/chat`, { headers: json, body: '{}', timeoutMs: 5000 });
      expect(proxy.seen).toHaveLength(1);
    } finally {
      await platform.close();
      await proxy.close();
    }
  });

  it("NO_PROXY's IPv6 entries, which Node's agents do not read, send a feed's request direct; others go through", async () => {
    const proxy = await startProxy();
    const feed = 'http://[fd00::5]:8080/feed.csv';
    const get = async () => {
      const http = await createHttp({ timeout: phaseTimeouts(500) });
      // Direct, an address this machine has no route to fails (unreachable, or in 500 ms); through
      // the proxy, the proxy answers 502.
      return http.get(feed).then(
        (answer) => answer.statusCode,
        (error: unknown) => (error as NodeJS.ErrnoException).code,
      );
    };
    try {
      for (const entry of ['fd00::/8', '[fd00::]/16', 'fd00:0:0::5', '[fd00::5]:8080']) {
        useProxy({ HTTP_PROXY: `http://127.0.0.1:${proxy.port}`, NO_PROXY: `corp.example,${entry}` });
        expect(await get(), entry).not.toBe(502);
        expect(proxy.seen, entry).toEqual([]);
      }
      for (const entry of ['fd01::/16', '[fd00::5]:8081', 'fd00::6']) {
        useProxy({ HTTP_PROXY: `http://127.0.0.1:${proxy.port}`, NO_PROXY: entry });
        expect(await get(), entry).toBe(502);
        expect(proxy.seen.pop()?.target, entry).toBe(feed);
      }
    } finally {
      await proxy.close();
    }
  });

  it("under NODE_USE_ENV_PROXY, a request NO_PROXY sends direct goes direct, not by Node's own reading of it", async () => {
    const proxy = await startProxy();
    const feed = await withServer((_req, res) => void res.end('MLSNumber\n'), { host: '127.0.0.2' });
    const NODE = join(process.cwd(), 'node_modules/.bin/node');
    const HTTP = join(process.cwd(), 'src/http/index.ts');
    // Node reads no CIDR block in NO_PROXY: its global agent would send this through the proxy.
    const script = `import { createHttp, phaseTimeouts, useProxy } from ${JSON.stringify(HTTP)};
      useProxy(process.env);
      const http = await createHttp({ timeout: phaseTimeouts(5000) });
      const answer = await http.get(${JSON.stringify(`${feed.url}/feed.csv`)});
      const streamed = await postForStreamStatus();
      process.stdout.write(JSON.stringify([answer.statusCode, answer.body, streamed]));
      async function postForStreamStatus() {
        const { postForStream } = await import(${JSON.stringify(HTTP)});
        const answer = await postForStream(${JSON.stringify(`${feed.url}/ask`)}, { headers: {}, body: '{}', timeoutMs: 5000 });
        answer.body.resume();
        return answer.statusCode;
      }`;
    const { LOG_LEVEL: _l, HTTP_PROXY: _h, HTTPS_PROXY: _s, NO_PROXY: _n, ...env } = process.env;
    try {
      const out = await new Promise<string>((resolve, reject) =>
        execFile(
          NODE,
          ['--input-type=module', '-e', script],
          {
            timeout: 20_000,
            env: {
              ...env,
              NODE_USE_ENV_PROXY: '1',
              HTTP_PROXY: `http://127.0.0.1:${proxy.port}`,
              NO_PROXY: '127.0.0.0/30',
            },
          },
          (error, stdout, stderr) =>
            error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout),
        ),
      );
      expect(JSON.parse(out)).toEqual([200, 'MLSNumber\n', 200]);
      expect(proxy.seen).toEqual([]);
    } finally {
      await feed.close();
      await proxy.close();
    }
  });

  it('a proxy that is down: the failure says a proxy is set, for the platform and for a feed', async () => {
    const dead = 'http://127.0.0.1:9';
    useProxy({ HTTP_PROXY: dead });
    const client = platformClient({ baseUrl: 'http://127.0.0.2:4999', retries: 1 });
    const error = await client.listListings({ SerialNumber: 'BOT', PageSize: 1, PageNumber: 1 }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toBe(
      'list: cannot reach http://127.0.0.2:4999 (HTTP_PROXY is set) after 2 attempts: ECONNREFUSED',
    );
    useProxy({ HTTP_PROXY: dead, NO_PROXY: 'feeds.example' });
    const http = await createHttp({ timeout: phaseTimeouts(1000) });
    const { withFeedRetries } = await import('../../src/sources/transports/feed-http.ts');
    const feedError = await withFeedRetries(
      { feedId: 'acme', source: { retries: 0 } as never },
      'http://127.0.0.2:4999/feed.csv',
      () => http.get('http://127.0.0.2:4999/feed.csv').text(),
      { retryMessage: 'retry' },
    ).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(feedError?.message).toMatch(
      /^feed acme: cannot fetch http:\/\/127\.0\.0\.2:4999\/feed\.csv \(HTTP_PROXY is set\) after 1 attempt: ECONNREFUSED/,
    );
  });

  it('a value that is no proxy URL is a config error naming the variable, never its value', () => {
    expect(() => useProxy({ HTTPS_PROXY: 'socks5://team:s3cret@proxy.corp:1080' })).toThrow(FeedSyncError);
    expect(() => useProxy({ HTTPS_PROXY: 'htp:/team:s3cret@proxy.corp:3128' })).toThrow(FeedSyncError);
    // Without a scheme, http:// (as curl and Go read it).
    expect(() => useProxy({ HTTPS_PROXY: 'team:s3cret@proxy.corp:3128' })).not.toThrow();
    try {
      useProxy({ HTTPS_PROXY: 'socks5://team:s3cret@proxy.corp:1080' });
    } catch (error) {
      expect((error as FeedSyncError).kind).toBe('CONFIG_INVALID');
      expect((error as Error).message).toMatch(/^HTTPS_PROXY is not a proxy URL/);
      expect((error as Error).message).not.toMatch(/s3cret|proxy\.corp/);
    }
    // Empty is unset (as curl reads it): direct.
    expect(() => useProxy({ HTTPS_PROXY: '', HTTP_PROXY: ' ' })).not.toThrow();
  });

  it.skipIf(!hasOpenssl)(
    'reaches an https platform through a CONNECT tunnel, its certificate checked end to end',
    async () => {
      const tlsCert = selfSigned('IP:127.0.0.2');
      const proxy = await startProxy();
      try {
        const tls = createHttpsServer({ key: tlsCert.key, cert: tlsCert.cert }, (req, res) =>
          req.resume().on('end', () => res.end(JSON.stringify({ Data: req.url }))),
        );
        await new Promise<void>((resolve) => tls.listen(0, '127.0.0.2', resolve));
        const port = (tls.address() as AddressInfo).port;
        try {
          const script = `import { postForBytes, useProxy } from ${JSON.stringify(join(process.cwd(), 'src/http/index.ts'))};
useProxy({ HTTPS_PROXY: 'http://127.0.0.1:${proxy.port}' });
const answer = await postForBytes('https://127.0.0.2:${port}/chat/Chatbot/Edit', { headers: { 'content-type': 'application/json' }, body: '{}', timeoutMs: 5000 });
process.stdout.write(answer.statusCode + ' ' + answer.body.toString('utf8'));`;
          const { code, out } = await runTrusting(tlsCert.certFile, script);
          expect(out).toBe('200 {"Data":"/chat/Chatbot/Edit"}');
          expect(code).toBe(0);
          // The proxy saw the host, never the request.
          expect(proxy.seen).toEqual([{ method: 'CONNECT', target: `127.0.0.2:${port}`, auth: undefined }]);
        } finally {
          tls.closeAllConnections();
          await new Promise<void>((resolve) => tls.close(() => resolve()));
        }
      } finally {
        await proxy.close();
        tlsCert.remove();
      }
    },
  );
});

describe('`feed-sync sync` behind a proxy', () => {
  const NODE = join(process.cwd(), 'node_modules/.bin/node');
  const BIN = join(process.cwd(), 'bin/feed-sync.js');
  const { LOG_LEVEL: _level, HTTP_PROXY: _h, HTTPS_PROXY: _s, NO_PROXY: _n, ...env } = process.env;
  const run = (
    dir: string,
    extra: Record<string, string>,
    args = ['sync', '--feed', 'proxied', '-c', join(dir, 'feed-sync.yaml'), '--json'],
  ) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        NODE,
        [BIN, ...args],
        { timeout: 30_000, env: { ...env, ...extra } },
        (error, stdout, stderr) =>
          resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });

  it('syncs every listing through HTTP_PROXY; a proxy URL with a typo stops it in one line, exit 2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'proxy-cli-'));
    const proxy = await startProxy();
    const sandbox = await startSandbox({ host: '127.0.0.2' });
    try {
      writeFileSync(
        join(dir, 'feed-sync.yaml'),
        csvFeedConfig(sandbox.url, {
          id: 'proxied',
          chatbot: 'PROXY-CLI',
          api: 'concurrency: 4, pageSize: 100',
        }),
      );
      writeFileSync(join(dir, 'feed.csv'), HEADER + [1, 2, 3].map((n) => csvRow(n)).join(''));
      const typo = await run(dir, { HTTP_PROXY: 'htp:/127.0.0.1:3128' });
      expect(typo.code).toBe(2);
      expect(typo.stderr.trim()).toBe(
        'feed-sync: HTTP_PROXY is not a proxy URL: expected http://host:port (or https://, with user:password@ when the proxy asks for it)',
      );
      expect(sandbox.listings('PROXY-CLI')).toHaveLength(0);
      // The health check sends no request: a proxy setting is not its to judge.
      const health = await run(dir, { HTTP_PROXY: 'htp:/127.0.0.1:3128' }, [
        'healthcheck',
        '--health-file',
        join(dir, 'no-heartbeat.json'),
      ]);
      expect(health.stderr).not.toMatch(/PROXY/);
      expect(health.stderr).toMatch(/heartbeat/);

      const synced = await run(dir, { HTTP_PROXY: `http://127.0.0.1:${proxy.port}` });
      expect(synced.code).toBe(0);
      expect(JSON.parse(synced.stdout)).toMatchObject({ feedId: 'proxied', outcome: 'ok', created: 3 });
      expect(sandbox.listings('PROXY-CLI')).toHaveLength(3);
      const creates = proxy.seen.filter((r) => r.target.endsWith('/RealEstateCreate'));
      expect(creates).toHaveLength(3);
      expect(creates.every((r) => r.method === 'POST' && r.target.startsWith(sandbox.url))).toBe(true);
    } finally {
      await sandbox.close();
      await proxy.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
