import { compileFirst, type RawFields } from './field-path.ts';

const PLACEHOLDER = /\{([^{}]+)\}/g;

/**
 * Compile `https://acme.example/listing/{ListingId}`. Any placeholder without a value leaves the whole
 * result unset, so a required field reports what is missing rather than holding a broken URL.
 */
export function compileTemplate(
  template: string,
  encode: boolean,
): {
  render: (record: RawFields) => string | undefined;
  paths: string[];
} {
  const parts: (string | ((record: RawFields) => unknown))[] = [];
  const paths: string[] = [];
  let last = 0;
  for (const match of template.matchAll(PLACEHOLDER)) {
    parts.push(template.slice(last, match.index));
    parts.push(compileFirst(match[1]!.trim()));
    paths.push(match[1]!.trim());
    last = match.index + match[0].length;
  }
  parts.push(template.slice(last));
  return {
    paths,
    render(record) {
      let out = '';
      for (const part of parts) {
        if (typeof part === 'string') {
          out += part;
          continue;
        }
        const value = part(record);
        if (value === undefined) return undefined;
        const text = String(value).trim();
        out += encode ? encodeURIComponent(text) : text;
      }
      return out;
    },
  };
}
