import { afterEach, describe, expect, it } from 'vitest';
import { noProxyList, proxyVariableFor, stopProxy, useProxy } from './proxy.ts';

describe('noProxyList', () => {
  it('reads NO_PROXY as curl and Go do, in the forms Node matches, loopback last', () => {
    expect(
      noProxyList(['corp.example', '10.0.0.0/8', '192.168.1.77/24', '.svc', '*.internal', 'db:5432']),
    ).toEqual([
      'corp.example',
      '.corp.example',
      '10.0.0.0/8',
      '10.0.0.0-10.255.255.255',
      '192.168.1.77/24',
      '192.168.1.0-192.168.1.255',
      '.svc',
      '*.internal',
      'db:5432',
      'localhost',
      '127.0.0.1',
      '::1',
    ]);
    expect(noProxyList(['10.1.2.3/32', '0.0.0.0/0', '10.0.0.1'])).toEqual([
      '10.1.2.3/32',
      '10.1.2.3-10.1.2.3',
      '0.0.0.0/0',
      '0.0.0.0-255.255.255.255',
      '10.0.0.1',
      'localhost',
      '127.0.0.1',
      '::1',
    ]);
  });
});

describe('proxyVariableFor', () => {
  afterEach(() => stopProxy());

  it("names the variable whose proxy serves a URL, as Node's agents judge it, and none for a host that goes direct", () => {
    useProxy({
      HTTPS_PROXY: 'http://upper.example:1',
      https_proxy: 'http://lower.example:1',
      NO_PROXY: 'corp.example,10.0.0.0/8,db:5432,*.svc',
    });
    expect(proxyVariableFor('https://platform.example/x')).toBe('https_proxy');
    // No HTTP_PROXY: an http: URL goes direct.
    expect(proxyVariableFor('http://platform.example/x')).toBeUndefined();
    for (const direct of [
      'https://corp.example/x',
      'https://feeds.corp.example/x',
      'https://10.2.3.4/x',
      'https://db:5432/x',
      'https://a.svc/x',
      'https://localhost:3000/x',
      'https://127.0.0.1/x',
      'https://[::1]:8080/x',
    ])
      expect(proxyVariableFor(direct), direct).toBeUndefined();
    for (const proxied of [
      'https://notcorp.example/x',
      'https://11.0.0.1/x',
      'https://db:5433/x',
      'https://127.0.0.2/x',
    ])
      expect(proxyVariableFor(proxied), proxied).toBe('https_proxy');
    stopProxy();
    expect(proxyVariableFor('https://platform.example/x')).toBeUndefined();
  });
});
