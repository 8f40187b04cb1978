import { describe, expect, it } from 'vitest';
import { html, page } from './html.ts';

describe('html', () => {
  it('escapes every interpolated value: feed data never becomes markup', () => {
    const reason = `<script>alert("x")</script> & 'quotes'`;
    expect(html`<td title="${reason}">${reason}</td>`.toString()).toBe(
      '<td title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quotes&#39;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quotes&#39;</td>',
    );
  });

  it('nests templates and arrays as markup, and drops undefined, null and false', () => {
    const rows = ['a<b', 'c'].map((v) => html`<li>${v}</li>`);
    expect(html`<ul>${rows}${undefined}${null}${false}</ul>`.toString()).toBe(
      '<ul><li>a&lt;b</li><li>c</li></ul>',
    );
  });

  it('a page says read-only when it is', () => {
    const text = page({ title: 'Feeds', section: 'feeds', body: html`<p>x</p>`, readOnly: true });
    expect(text.startsWith('<!doctype html><html lang="en">')).toBe(true);
    expect(text).toContain('<a href="/" aria-current="page">Feeds</a>');
    expect(text).toContain('read-only');
  });

  it('a page says the config file’s last change was refused, with its problems, until one is applied', () => {
    const refused = {
      at: '2026-12-03T10:00:00.000Z',
      file: 'feed-sync.yaml',
      issues: ['feed-sync.yaml:3:1: wokrer: unknown key'],
    };
    const text = page({
      title: 'Feeds',
      section: 'feeds',
      body: html`<p>x</p>`,
      readOnly: false,
      configRefused: refused,
    });
    expect(text).toContain("The config file's last change was refused");
    expect(text).toContain(
      'feed-sync.yaml, saved 2026-12-03 10:00 UTC: the worker runs on with the config it had',
    );
    expect(text).toContain('<code>feed-sync.yaml:3:1: wokrer: unknown key</code>');
    expect(page({ title: 'Feeds', section: 'feeds', body: html`<p>x</p>`, readOnly: false })).not.toContain(
      'refused',
    );
  });
});
