import { decodeHTMLStrict } from 'entities';

/**
 * Description markup (BLM allows `<br>`, `<p>`, `<b>`; OpenImmo texts often carry it too) as plain
 * text: block ends become line breaks, other tags go, entities are decoded (every HTML5 name:
 * `&eacute;`, `&ndash;`, `&sup2;` as the Spanish, French and UK exporters write them), and spaces
 * collapse within each line. Only what reads as a tag goes (`<` then a letter, `/` or `!`): a text
 * that says `<3 bedrooms>` or `price < 200k > 100k` (Kyero's `&lt;…&gt;`) keeps its words.
 */
export function htmlToText(html: string): string {
  if (!/[<&]/.test(html)) return collapse(html);
  const text = html
    .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<br\s*\/?>|<\/(p|div|li|h[1-6]|tr)\s*>/gi, '\n')
    .replace(/<li\b[^>]*>/gi, '• ')
    // Table cells apart (`3 beds` | `2 baths` ran together as `3 beds2 baths`).
    .replace(/<\/(td|th)\s*>/gi, ' ')
    // An address in brackets is text, not a tag: `Contact Jane <jane@agency.example>`.
    .replace(/<\/?[a-z][^<>]*>|<![^<>]*>/gi, (tag) => (/^<[^\s<>"'=]+@[^\s<>"'=]+>$/.test(tag) ? tag : ''));
  // Strict: an entity ends with `;`, so `?lang=es&region=3` and `&notes` stay as written.
  return collapse(text.includes('&') ? decodeHTMLStrict(text) : text);
}

function collapse(text: string): string {
  return text
    .split(/\r\n|\r|\n/)
    .map((line) => line.replace(/[ \t\u00a0]+/g, ' ').trim())
    .filter((line, i, lines) => line !== '' || (i > 0 && lines[i - 1] !== ''))
    .join('\n')
    .trim();
}
