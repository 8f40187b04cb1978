/**
 * Cuts a streamed RESO JSON document (`{"@odata.context": …, "value": [ {…}, {…} ]}`, or a bare array)
 * into the objects of its records array, so a large file is parsed one record at a time.
 */
export class JsonArraySplitter {
  private buf = '';
  private pos = 0;
  private depth = 0;
  private inString = false;
  private escaped = false;
  private lastKey = '';
  private stringStart = -1;
  private arrayDepth = -1;
  private recordStart = -1;
  private sawValue = false;

  push(text: string): string[] {
    this.buf += text;
    const out: string[] = [];
    const buf = this.buf;
    for (let i = this.pos; i < buf.length; i++) {
      const c = buf[i];
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === '\\') this.escaped = true;
        else if (c === '"') {
          this.inString = false;
          if (this.depth === 1 && this.recordStart < 0) this.lastKey = buf.slice(this.stringStart + 1, i);
        }
        continue;
      }
      if (c === '"') {
        this.inString = true;
        this.stringStart = i;
      } else if (c === '{' || c === '[') {
        if (
          c === '[' &&
          this.arrayDepth < 0 &&
          (this.depth === 0 || (this.depth === 1 && this.lastKey === 'value'))
        ) {
          this.arrayDepth = this.depth + 1;
          this.sawValue = true;
        } else if (c === '{' && this.depth === this.arrayDepth && this.recordStart < 0) this.recordStart = i;
        this.depth++;
      } else if (c === '}' || c === ']') {
        this.depth--;
        if (this.depth < 0) throw new SyntaxError('unbalanced JSON');
        if (c === '}' && this.recordStart >= 0 && this.depth === this.arrayDepth) {
          out.push(buf.slice(this.recordStart, i + 1));
          this.recordStart = -1;
        }
        if (c === ']' && this.depth === this.arrayDepth - 1) this.arrayDepth = -2;
      }
    }
    const keepFrom = this.recordStart >= 0 ? this.recordStart : this.inString ? this.stringStart : buf.length;
    this.buf = buf.slice(keepFrom);
    if (this.recordStart >= 0) this.recordStart = 0;
    if (this.inString) this.stringStart = 0;
    // Resume scanning where we stopped, relative to the kept text.
    this.pos = buf.length - keepFrom;
    return out;
  }

  end(): void {
    if (this.depth !== 0 || this.inString) throw new SyntaxError('the JSON ends early (truncated?)');
    if (!this.sawValue) throw new SyntaxError('no "value" array of records found');
  }
}
