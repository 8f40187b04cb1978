import type { SearchResult } from '../../explain/index.ts';
import { type Html, html } from './html.ts';
import { keyLink, listingHref } from './listing-page.ts';

/** The search box of a feed page: a listing key, or part of an address. Works without JavaScript. */
export function searchForm(feedId: string, query = ''): Html {
  return html`<form class="search" method="get" action="/feeds/${encodeURIComponent(feedId)}/listing" role="search"><input type="search" name="q" value="${query}" placeholder="Listing key or part of an address" aria-label="Find a listing of ${feedId}"><button type="submit">Find</button></form>`;
}

/** What a search of the feed found: each listing with where its record is, linked to its page. */
export function searchPage(feedId: string, query: string, result: SearchResult): Html {
  const crumbs = html`<p class="crumbs"><a href="/">Feeds</a> / <a href="/feeds/${encodeURIComponent(feedId)}">${feedId}</a> /</p>`;
  const none =
    result.hits.length === 0
      ? html`<p>No listing of the feed's ${result.records} records or its last run has “${query}” in its key or address.</p>
<p>A listing gone from the feed may still be on the platform: <a href="${listingHref(feedId, query.trim())}">look up ${query.trim()} as a key</a>.</p>`
      : html``;
  const kinds = {
    listing: 'listing',
    remove: 'no longer listed',
    rejected: 'rejected',
    broken: 'in a broken row',
    gone: 'not in the feed',
  };
  return html`${crumbs}<h1>Find a listing of ${feedId}</h1>${searchForm(feedId, query)}${none}${
    result.hits.length
      ? html`<table class="search-results"><thead><tr><th>Listing</th><th>Address</th><th>Record</th><th>In the feed</th><th>Last run</th></tr></thead><tbody>${result.hits.map(
          (h) =>
            html`<tr><td>${h.key ? keyLink(feedId, h.key) : html`<span class="sub">no readable key</span>`}</td><td>${h.address ?? ''}</td><td class="sub">${h.where ?? ''}</td><td>${kinds[h.kind]}</td><td class="sub">${(h.lastRun ?? []).join('; ')}</td></tr>`,
        )}</tbody></table>${result.more ? html`<p class="sub">The first ${result.hits.length} matches; type more of the key or address.</p>` : ''}`
      : ''
  }`;
}
