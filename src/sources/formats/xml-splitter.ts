import { FeedSyncError } from '../../errors.ts';
/** Why the splitter stopped: the stream is not the XML it should be. */
export class XmlSplitError extends FeedSyncError {
  readonly unsafe: boolean;
  constructor(message: string, unsafe = false) {
    super(message, { kind: 'FEED_PARSE', code: unsafe ? 'E_FEED_UNSAFE' : 'E_FEED_PARSE' });
    this.unsafe = unsafe;
  }
}

function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon >= 0 ? name.slice(colon + 1) : name;
}

/**
 * Cuts an XML text stream into record elements (the ones at `recordPath`), so each can be parsed on
 * its own and memory stays one record deep whatever the file size. fast-xml-parser is not a
 * streaming parser; this scanner only finds tag boundaries and checks nesting. A DOCTYPE that only
 * names an external DTD is skipped (never fetched); one with an internal subset is refused: it is the
 * only way to declare entities, so a billion-laughs file stops here.
 */
export class XmlRecordSplitter {
  private readonly path: readonly string[];
  private readonly maxRecordChars: number;
  private buf = '';
  private pos = 0;
  private readonly stack: string[] = [];
  private recordStart = -1;
  private recordDepth = 0;
  private sawRoot = false;
  /**
   * The default namespace the root element declares (`<Listings xmlns="http://rets.org/xsd/
   * Syndication/2008-03">`): records cut out below it lose their ancestors, and with them the
   * schema version a format names only there.
   */
  rootNamespace: string | undefined;

  constructor(recordPath: string, maxRecordChars = 8 * 1024 * 1024) {
    this.path = recordPath.split('.').map(localName);
    this.maxRecordChars = maxRecordChars;
  }

  /** Records completed so far, those of a push that failed too: where a malformed file broke. */
  recordsCut = 0;
  /** Line breaks in the text already dropped from `buf`: a problem's line is counted from them. */
  #linesBefore = 0;

  /** Feed text; returns the records completed by it, as XML strings. */
  push(text: string): string[] {
    this.buf += text;
    const records: string[] = [];
    const buf = this.buf;
    try {
      for (;;) {
        const lt = buf.indexOf('<', this.pos);
        if (lt < 0) {
          this.checkText(buf.slice(this.pos));
          this.pos = buf.length;
          break;
        }
        if (!this.sawRoot) this.checkText(buf.slice(this.pos, lt));
        this.pos = lt;
        const end = this.scanTag(buf, lt, records);
        if (end < 0) break;
        this.pos = end;
      }
    } catch (error) {
      // Said with its line, as an editor shows it (`<beds> closed by </bed> at line 125`).
      if (!(error instanceof XmlSplitError)) throw error;
      const line = this.#linesBefore + lineBreaks(buf, 0, this.pos) + 1;
      throw new XmlSplitError(`${error.message} at line ${line}`, error.unsafe);
    } finally {
      this.recordsCut += records.length;
    }
    this.compact();
    return records;
  }

  /** The stream ended: anything still open means the file was cut short. */
  end(): void {
    if (this.stack.length > 0)
      throw new XmlSplitError(`the XML ends inside <${this.stack[this.stack.length - 1]}> (truncated?)`);
    if (!this.sawRoot) throw new XmlSplitError('no XML element found');
  }

  /** Handle the markup at `lt`; returns the index after it, or -1 when it is not complete yet. */
  private scanTag(buf: string, lt: number, records: string[]): number {
    const next = buf[lt + 1];
    if (next === undefined) return -1;
    if (next === '!') {
      if (buf.startsWith('<!--', lt)) return after(buf, '-->', lt + 4);
      if (buf.startsWith('<![CDATA[', lt)) return after(buf, ']]>', lt + 9);
      if (buf.length < lt + 9) return -1;
      const word = buf.slice(lt + 2, lt + 9).toUpperCase();
      if (word.startsWith('DOCTYPE')) return this.doctype(buf, lt);
      if (word.startsWith('ENTITY')) {
        throw new XmlSplitError(
          'the XML declares an ENTITY; entity declarations are refused (entity expansion, external entities)',
          true,
        );
      }
      throw new XmlSplitError(`unexpected markup "${buf.slice(lt, lt + 12)}"`);
    }
    if (next === '?') return after(buf, '?>', lt + 2);
    if (next === '/') {
      const end = buf.indexOf('>', lt + 2);
      if (end < 0) return -1;
      const name = buf.slice(lt + 2, end).trim();
      const open = this.stack.pop();
      if (open !== name) {
        throw new XmlSplitError(
          open ? `malformed XML: <${open}> closed by </${name}>` : `malformed XML: </${name}> closes nothing`,
        );
      }
      if (this.recordStart >= 0 && this.stack.length === this.recordDepth - 1) {
        records.push(buf.slice(this.recordStart, end + 1));
        this.recordStart = -1;
      }
      return end + 1;
    }
    const end = tagEnd(buf, lt + 1);
    if (end < 0) return -1;
    const selfClosing = buf[end - 1] === '/';
    const name = tagName(buf, lt + 1, end);
    if (!name) throw new XmlSplitError(`malformed XML: "${buf.slice(lt, Math.min(end + 1, lt + 20))}"`);
    if (this.stack.length === 0 && this.sawRoot)
      throw new XmlSplitError(`malformed XML: a second root element <${name}>`);
    if (this.stack.length === 0) this.rootNamespace = DEFAULT_NAMESPACE.exec(buf.slice(lt, end))?.[2];
    this.sawRoot = true;
    if (this.recordStart < 0 && this.atRecord(name)) {
      this.recordStart = lt;
      this.recordDepth = this.stack.length + 1;
    }
    if (!selfClosing) this.stack.push(name);
    else if (this.recordStart === lt) {
      records.push(buf.slice(lt, end + 1));
      this.recordStart = -1;
    }
    return end + 1;
  }

  /**
   * `<!DOCTYPE propertyList SYSTEM "http://…/propertyList.dtd">` (how most REAXML files start) only
   * names a DTD: it is skipped and never fetched, and the parser never sees it (records are cut out
   * below it). An internal subset (`[ <!ENTITY … ]`) is the only way to declare entities: refused.
   */
  private doctype(buf: string, lt: number): number {
    if (this.sawRoot) throw new XmlSplitError('malformed XML: a DOCTYPE inside the document');
    const end = tagEnd(buf, lt + 2, '[');
    if (end < 0) return -1;
    if (buf[end] === '[') {
      throw new XmlSplitError(
        'the XML declares a DOCTYPE with an internal subset; entity declarations are refused (entity expansion, external entities)',
        true,
      );
    }
    return end + 1;
  }

  private atRecord(name: string): boolean {
    const { path, stack } = this;
    if (stack.length !== path.length - 1) return false;
    for (let i = 0; i < stack.length; i++)
      if (path[i] !== '*' && path[i] !== localName(stack[i]!)) return false;
    const last = path[path.length - 1];
    return last === '*' || last === localName(name);
  }

  /** Text outside the root element must be blank: anything else is not XML. */
  private checkText(text: string): void {
    if (this.sawRoot || text.trim() === '') return;
    throw new XmlSplitError(`not XML: it starts with "${text.trim().slice(0, 20)}"`);
  }

  /** Drop what is behind us, keeping the open record; bound the record's size. */
  private compact(): void {
    const keepFrom = this.recordStart >= 0 ? this.recordStart : this.pos;
    if (keepFrom > 0) {
      this.#linesBefore += lineBreaks(this.buf, 0, keepFrom);
      this.buf = this.buf.slice(keepFrom);
      this.pos -= keepFrom;
      if (this.recordStart >= 0) this.recordStart = 0;
    }
    if (this.recordStart >= 0 && this.buf.length > this.maxRecordChars) {
      throw new XmlSplitError(`a record is larger than ${this.maxRecordChars} characters`);
    }
  }
}

/** `\n` in `text` from `from` to `to`. */
function lineBreaks(text: string, from: number, to: number): number {
  let count = 0;
  for (let i = text.indexOf('\n', from); i >= 0 && i < to; i = text.indexOf('\n', i + 1)) count++;
  return count;
}

/** `xmlns="…"` in a start tag (not `xmlns:prefix`). */
const DEFAULT_NAMESPACE = /\sxmlns\s*=\s*(["'])([^"']*)\1/;

function after(buf: string, terminator: string, from: number): number {
  const end = buf.indexOf(terminator, from);
  return end < 0 ? -1 : end + terminator.length;
}

/**
 * Index of the `>` closing a start tag (or of `also`, when met first), skipping quoted attribute
 * values; -1 when incomplete.
 */
function tagEnd(buf: string, from: number, also = '>'): number {
  let quote = '';
  for (let i = from; i < buf.length; i++) {
    const c = buf[i];
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '>' || c === also) return i;
  }
  return -1;
}

function tagName(buf: string, from: number, end: number): string {
  let i = from;
  while (i < end) {
    const c = buf.charCodeAt(i);
    // whitespace or '/' ends the name
    if (c === 32 || c === 9 || c === 10 || c === 13 || c === 47) break;
    i++;
  }
  return buf.slice(from, i);
}
