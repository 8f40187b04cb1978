import { describe, expect, it } from 'vitest';
import { absoluteMediaUrl, isCanonical } from './media-url.ts';

/** What the parser itself gives, the slow path every URL took before. */
const parsed = (text: string) => {
  try {
    return new URL(text).href;
  } catch {
    return undefined;
  }
};

describe('absoluteMediaUrl fast path', () => {
  it('takes a URL as it is only when the URL parser would give it back unchanged', () => {
    const hosts = [
      'img.example.com',
      'a-b.example',
      'xn--bcher-kva.example',
      'localhost',
      'EXAMPLE.com',
      '0x7f.1',
      '127.0.0.1',
      'a..b',
      'example.com.',
      'host:8080',
      'host:443',
      'user@host',
    ];
    const paths = [
      '/',
      '/1.jpg',
      '/a/b/c.JPG',
      '/a b.jpg',
      '/a/./b.jpg',
      '/a/../b.jpg',
      '/%2e%2E/x',
      '/x%20y.jpg',
      '/x%zz',
      "/it's(1).jpg",
      '/ñ.jpg',
      '/a\\b.jpg',
      '/q?x=1',
      '/f#top',
      '/"q".jpg',
      '/a`b',
      '/{x}',
      '',
      '/a/..',
      '/a/.',
    ];
    let fast = 0;
    for (const scheme of ['http://', 'https://', 'HTTPS://'])
      for (const host of hosts)
        for (const path of paths) {
          const text = `${scheme}${host}${path}`;
          if (isCanonical(text)) {
            fast++;
            expect(parsed(text), text).toBe(text);
          }
          expect(absoluteMediaUrl(text, undefined), text).toBe(parsed(text));
        }
    // The fast path is taken for the common forms (so this test can fail if it never is).
    expect(fast).toBeGreaterThan(30);
    expect(isCanonical('https://img.bench.example/42/1.jpg')).toBe(true);
  });
});
