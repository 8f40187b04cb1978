import { afterEach, describe, expect, it } from 'vitest';
import { ipv6Bypass, noProxyList, proxyVariableFor, stopProxy, useProxy } from './proxy.ts';

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

describe('ipv6Bypass', () => {
  it("reads NO_PROXY's IPv6 addresses, blocks and bracketed ports in any spelling, and nothing else", () => {
    const direct = ipv6Bypass([
      'fd00::/8',
      '2001:DB8:0:0::7',
      '[2001:db8::9]:8443',
      '[fe80::]/10',
      'corp.example',
      '10.0.0.0/8',
    ]);
    expect(direct.covers('fd12:3456::1', '443')).toBe(true);
    expect(direct.covers('fe00::1', '443')).toBe(false);
    expect(direct.covers('2001:db8::7', '80')).toBe(true);
    expect(direct.covers('2001:db8::8', '80')).toBe(false);
    expect(direct.covers('2001:db8::9', '8443')).toBe(true);
    expect(direct.covers('2001:db8::9', '443')).toBe(false);
    expect(direct.covers('fe80::abcd', '80')).toBe(true);
    expect(direct.covers('10.1.2.3', '80')).toBe(false);
    // No brackets: `2001:db8::9:8443` is an address, not an address and a port.
    expect(ipv6Bypass(['2001:db8::9:8443']).covers('2001:db8::9', '8443')).toBe(false);
    expect(ipv6Bypass(['2001:db8::9:8443']).covers('2001:db8::9:8443', '80')).toBe(true);
    expect(ipv6Bypass(['fd00::/129', 'zz::1']).covers('fd00::1', '80')).toBe(false);
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

  it('sends a URL whose host NO_PROXY names as an IPv6 address or block direct, on the port it names', () => {
    useProxy({ HTTPS_PROXY: 'http://proxy.example:1', NO_PROXY: 'fd00::/8,[2001:db8::1]:443' });
    expect(proxyVariableFor('https://[fd00::1]/x')).toBeUndefined();
    expect(proxyVariableFor('https://[2001:db8::1]/x')).toBeUndefined();
    expect(proxyVariableFor('https://[2001:db8::1]:443/x')).toBeUndefined();
    expect(proxyVariableFor('https://[2001:db8::1]:8443/x')).toBe('HTTPS_PROXY');
    expect(proxyVariableFor('https://[fe00::1]/x')).toBe('HTTPS_PROXY');
  });
});
