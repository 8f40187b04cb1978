/** HTML that is already safe to insert (escaped, or built by `html`). */
export class Html {
  readonly value: string;
  constructor(value: string) {
    this.value = value;
  }
  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

function render(value: unknown): string {
  if (value instanceof Html) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === undefined || value === null || value === false) return '';
  return escapeHtml(String(value));
}

/**
 * The one way pages build HTML: every interpolated value is escaped unless it is already `Html`
 * (nested templates, arrays of them). Feed data is untrusted text; it can never become markup.
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += render(value) + (strings[i + 1] ?? '');
  });
  return new Html(out);
}

export interface PageOptions {
  title: string;
  /** Which nav entry is current. */
  section: 'feeds' | 'chatbots';
  body: Html;
  readOnly: boolean;
  /** The config file's last change, refused: a banner on every page until one is applied. */
  configRefused?: { at: string; file: string; issues: readonly string[] } | undefined;
}

/** The page frame: nav, the stylesheet and the small script (progressive enhancement). */
export function page(options: PageOptions): string {
  const nav = (href: string, label: string, current: boolean) =>
    html`<a href="${href}"${current ? new Html(' aria-current="page"') : ''}>${label}</a>`;
  return `<!doctype html>${html`<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.title} · feed-sync</title>
<link rel="stylesheet" href="/assets/dashboard.css">
<script src="/assets/dashboard.js" defer></script>
</head>
<body>
<header class="top">
  <span class="brand">feed-sync</span>
  <nav>${nav('/', 'Feeds', options.section === 'feeds')}${nav('/chatbots', 'Chatbots', options.section === 'chatbots')}<a href="/queues">Queues</a></nav>
  ${options.readOnly ? html`<span class="readonly" title="Set UI_USER and UI_PASSWORD to run feeds from here">read-only</span>` : ''}
</header>
<main>
${
  options.configRefused
    ? html`<section class="card card-alert config-refused"><h3>The config file's last change was refused</h3><p>${options.configRefused.file}, saved ${options.configRefused.at.slice(0, 16).replace('T', ' ')} UTC: the worker runs on with the config it had. Fix the file and save it again:</p><ul>${options.configRefused.issues.map((issue) => html`<li><code>${issue}</code></li>`)}</ul></section>`
    : ''
}${options.body}
</main>
</body>
</html>`}`;
}
