export type TextEncodingOption = 'auto' | 'utf-8' | 'windows-1252' | 'latin1';

/**
 * Bytes → text, chunk by chunk, without splitting a UTF-8 sequence. `auto` reads UTF-8 and switches
 * to Windows-1252 at the first invalid sequence (exports from Excel on Windows), calling `onFallback`
 * once. A leading BOM is removed: left in, it glues onto the first CSV header name.
 */
export async function* decodeText(
  chunks: AsyncIterable<Uint8Array>,
  encoding: TextEncodingOption = 'auto',
  onFallback?: () => void,
): AsyncGenerator<string> {
  let mode: 'utf-8' | 'windows-1252' | 'latin1' = encoding === 'auto' ? 'utf-8' : encoding;
  const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  let carry: Uint8Array = new Uint8Array(0);
  let first = true;
  for await (const chunk of chunks) {
    let bytes: Uint8Array = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
    let text: string;
    if (mode === 'utf-8') {
      const cut = completeUtf8Length(bytes);
      carry = bytes.slice(cut);
      bytes = bytes.subarray(0, cut);
      try {
        text = strict.decode(bytes);
      } catch (error) {
        if (encoding !== 'auto') throw error;
        mode = 'windows-1252';
        onFallback?.();
        bytes = Buffer.concat([bytes, carry]);
        carry = new Uint8Array(0);
        text = new TextDecoder(mode).decode(bytes);
      }
    } else {
      text = new TextDecoder(mode).decode(bytes);
      carry = new Uint8Array(0);
    }
    if (first && text.length > 0) {
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      else if (text.startsWith('ï»¿')) text = text.slice(3);
      first = false;
    }
    if (text.length > 0) yield text;
  }
  if (carry.length > 0) {
    if (encoding !== 'auto') yield new TextDecoder(mode, { fatal: true }).decode(carry);
    else yield new TextDecoder('windows-1252').decode(carry);
  }
}

/** Length of the prefix of `bytes` that ends on a UTF-8 character boundary. */
function completeUtf8Length(bytes: Uint8Array): number {
  const end = bytes.length;
  for (let back = 1; back <= Math.min(3, end); back++) {
    const byte = bytes[end - back]!;
    if ((byte & 0xc0) === 0x80) continue; // continuation byte
    const need = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return need > back ? end - back : end;
  }
  return end;
}
