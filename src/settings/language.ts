/**
 * English language names, made on first use: building one loads ICU's language names, ~10 ms that
 * every CLI start paid at load, where only a settings push reads a language (docs/performance.md).
 */
let displayNamesMade: Intl.DisplayNames | undefined;
function displayNames(): Intl.DisplayNames {
  displayNamesMade ??= new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });
  return displayNamesMade;
}
let knownNames: Map<string, string> | undefined;

/** Lower-cased English name → canonical name, for every two-letter ISO 639-1 code Intl knows. */
function names(): Map<string, string> {
  if (knownNames) return knownNames;
  knownNames = new Map();
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  for (const a of letters) {
    for (const b of letters) {
      const name = displayNames().of(a + b);
      if (name) knownNames.set(name.toLowerCase(), name);
    }
  }
  return knownNames;
}

/**
 * `fr` → `French`, `pt-BR` → `Brazilian Portuguese`, `french` → `French`; undefined when the value
 * is neither a language code Intl knows nor one of their English names.
 */
export function toLanguageName(value: string): string | undefined {
  const trimmed = value.trim();
  if (/^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})*$/.test(trimmed)) {
    try {
      const name = displayNames().of(trimmed.replaceAll('_', '-'));
      if (name) return name;
    } catch {
      // Not a well-formed tag: fall through to the name lookup.
    }
  }
  return names().get(trimmed.toLowerCase());
}
