import type { ChatbotConfig } from '../../config/index.ts';
import { type Html, html } from './html.ts';
import { ago } from './schedule.ts';

/** The last settings push of a chatbot that did something, from the queue's finished jobs. */
export interface LastPush {
  at: Date;
  outcome: string;
  fields: string[];
  error?: string;
}

export interface ChatbotsView {
  chatbots: readonly ChatbotConfig[];
  /** Feeds per chatbot. */
  feeds: Map<string, string[]>;
  lastPush: Map<string, LastPush>;
  /** Chatbots with a push queued or running. */
  pending: Set<string>;
  readOnly: boolean;
  now: Date;
}

function row(chatbot: ChatbotConfig, view: ChatbotsView): Html {
  const configured = Object.keys(chatbot.settings ?? {});
  const id = chatbot.chatbot;
  const push = view.lastPush.get(id);
  return html`<tr>
  <td class="mono">${id}<div class="sub">${(view.feeds.get(id) ?? []).join(', ') || 'no feed'}</div></td>
  <td>${configured.length ? configured.join(', ') : html`<span class="sub">none in the config</span>`}</td>
  <td>${
    push
      ? html`<span class="badge badge-${push.outcome === 'failed' ? 'failed' : 'ok'}">${push.outcome}</span> <span class="sub">${ago(push.at, view.now)}</span>${
          push.fields.length ? html`<div class="sub">${push.fields.join(', ')}</div>` : ''
        }${push.error ? html`<div class="reason">${push.error}</div>` : ''}`
      : html`<span class="sub">not pushed by this worker yet</span>`
  }</td>
  <td class="actions">${
    view.pending.has(id)
      ? html`<span class="sub">push queued…</span>`
      : view.readOnly || !chatbot.settings
        ? ''
        : html`<form method="post" action="/chatbots/${encodeURIComponent(id)}/push"><button type="submit">Push now</button></form>`
  }</td>
</tr>`;
}

/** Chatbots: the settings the config sets, the last push (when, which fields), Push now. */
export function chatbotsPage(view: ChatbotsView): Html {
  return html`<div class="title-row"><h1>Chatbots</h1><p class="lede">${view.chatbots.length} chatbots with settings in the config</p></div>
<table class="chatbots"><thead><tr><th>Chatbot</th><th>Settings in the config</th><th>Last push</th><th></th></tr></thead>
<tbody>${view.chatbots.length ? view.chatbots.map((c) => row(c, view)) : html`<tr><td colspan="4" class="empty">No chatbot in the config.</td></tr>`}</tbody></table>`;
}
