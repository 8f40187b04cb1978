/** Printing for the benches: aligned tables, durations, ratios, the machine. */
import { cpus } from 'node:os';

export function printTable(head: readonly string[], body: readonly (readonly string[])[]): void {
  process.stdout.write(tableText(head, body));
}

export function tableText(head: readonly string[], body: readonly (readonly string[])[]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => (b[i] ?? '').length)));
  return [head, ...body]
    .map(
      (line) =>
        `${line
          .map((c, i) => c.padEnd(widths[i] ?? 0))
          .join('  ')
          .trimEnd()}\n`,
    )
    .join('');
}

/** The same table in Markdown, for bench/results and the README. */
export function markdownTable(head: readonly string[], body: readonly (readonly string[])[]): string {
  const row = (cells: readonly string[]) => `| ${cells.join(' | ')} |\n`;
  return row(head) + row(head.map(() => '---')) + body.map(row).join('');
}

export const fmtMs = (ms: number) =>
  ms >= 10_000
    ? `${(ms / 1000).toFixed(1)} s`
    : ms >= 1000
      ? `${(ms / 1000).toFixed(2)} s`
      : `${Math.round(ms)} ms`;
export const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;

/** The median of the rounds' figures: the middle one, or the mean of the two middle ones. */
export function median(xs: readonly number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}
export const out = (text = '') => process.stdout.write(`${text}\n`);

/** Where a bench ran: written beside every result so figures are read against their machine. */
export function machine(): string {
  return `${cpuModel()}, ${navigator.hardwareConcurrency} CPUs visible, Node ${process.versions.node}`;
}

function cpuModel(): string {
  return cpus()[0]?.model.trim().replace(/\s+/g, ' ') ?? 'unknown CPU';
}
