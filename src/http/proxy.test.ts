import { describe, expect, it } from 'vitest';
import { noProxyList } from './proxy.ts';

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
