import type { Rejection } from '../../ingest/index.ts';
import { withOtherProblems } from '../../render/index.ts';

function cell(value: unknown): string {
  if (value === undefined || value === null) return '';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  // Quoted when needed (RFC 4180); a leading = + - @ is prefixed so a spreadsheet never runs it.
  const safe = /^[=+\-@]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The rejected records of a run as CSV: row, key, field, value, reason, message. Pure. */
export function rejectionsCsv(rejections: readonly Rejection[]): string {
  const lines = [['row', 'key', 'field', 'value', 'reason', 'message'].join(',')];
  for (const r of rejections)
    lines.push([r.row, r.key, r.field, r.value, r.reason, withOtherProblems(r)].map(cell).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
