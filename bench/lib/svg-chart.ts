/**
 * A hand-written SVG line chart: one or more panels side by side, each with a log-scale x axis
 * (listings) and its own y axis, one line per series, an optional dashed bound. No plotting
 * dependency: the chart is a few dozen elements.
 */

export interface Series {
  name: string;
  color: string;
  /** [x, y] points; y NaN is skipped. */
  points: readonly (readonly [number, number])[];
}

export interface Panel {
  title: string;
  yLabel: string;
  series: readonly Series[];
  /** A horizontal dashed line, e.g. the memory goal. */
  bound?: { y: number; label: string };
  logY?: boolean;
  /** The top of the y axis (default: the data's, rounded up). */
  yMax?: number;
  /** The x axis: default listings on a log scale. */
  x?: { label: string; linear?: boolean };
}

const W = 460;
const H = 300;
const M = { left: 62, right: 16, top: 34, bottom: 46 };

export function lineChart(panels: readonly Panel[], caption: string): string {
  const width = W * panels.length;
  const legend = panels[0]?.series ?? [];
  const height = H + 28 + 22;
  const parts = panels.map((p, i) => panel(p, i * W));
  const legendItems = legend.map((s, i) => {
    const x = 16 + i * 170;
    return `<line x1="${x}" y1="${H + 14}" x2="${x + 24}" y2="${H + 14}" stroke="${s.color}" stroke-width="2.5"/><text x="${x + 30}" y="${H + 18}">${esc(s.name)}</text>`;
  });
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" role="img" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<title>${esc(panels.map((p) => p.title).join('; '))}</title>`,
    `<rect width="100%" height="100%" fill="white"/>`,
    ...parts,
    ...legendItems,
    `<text x="16" y="${H + 42}" fill="#555" font-size="11">${esc(caption)}</text>`,
    '</svg>',
    '',
  ].join('\n');
}

function panel(p: Panel, dx: number): string {
  const xs = p.series.flatMap((s) => s.points.map(([x]) => x));
  const ys = p.series.flatMap((s) => s.points.map(([, y]) => y)).filter((y) => Number.isFinite(y));
  if (p.bound) ys.push(p.bound.y);
  const [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  const yMax = p.yMax ?? niceCeil(Math.max(...ys) * 1.08);
  const yMin = p.logY ? niceFloor(Math.min(...ys)) : 0;
  const plotW = W - M.left - M.right;
  const plotH = H - M.top - M.bottom;
  const sx = (x: number) =>
    dx +
    M.left +
    (x1 === x0
      ? 0
      : p.x?.linear
        ? ((x - x0) / (x1 - x0)) * plotW
        : ((Math.log10(x) - Math.log10(x0)) / (Math.log10(x1) - Math.log10(x0))) * plotW);
  const sy = (y: number) =>
    M.top +
    plotH -
    (p.logY
      ? ((Math.log10(Math.max(y, yMin)) - Math.log10(yMin)) / (Math.log10(yMax) - Math.log10(yMin))) * plotH
      : (y / yMax) * plotH);
  const out: string[] = [];
  out.push(`<text x="${dx + M.left}" y="20" font-weight="bold">${esc(p.title)}</text>`);
  const yTicks = p.logY ? logTicks(yMin, yMax) : linearTicks(yMax);
  for (const t of yTicks) {
    const y = sy(t).toFixed(1);
    out.push(`<line x1="${dx + M.left}" y1="${y}" x2="${dx + W - M.right}" y2="${y}" stroke="#e5e5e5"/>`);
    out.push(
      `<text x="${dx + M.left - 6}" y="${y}" text-anchor="end" dominant-baseline="middle">${label(t)}</text>`,
    );
  }
  const xTicks = p.x?.linear
    ? linearTicks(x1).filter((t) => t >= x0)
    : [...new Set(xs)].sort((a, b) => a - b);
  for (const x of xTicks) {
    const px = sx(x).toFixed(1);
    out.push(`<line x1="${px}" y1="${M.top}" x2="${px}" y2="${M.top + plotH}" stroke="#f0f0f0"/>`);
    out.push(`<text x="${px}" y="${M.top + plotH + 16}" text-anchor="middle">${label(x)}</text>`);
  }
  out.push(
    `<rect x="${dx + M.left}" y="${M.top}" width="${plotW}" height="${plotH}" fill="none" stroke="#999"/>`,
    `<text x="${dx + M.left + plotW / 2}" y="${H - 8}" text-anchor="middle">${esc(p.x?.label ?? 'listings (log scale)')}</text>`,
    `<text transform="translate(${dx + 14},${M.top + plotH / 2}) rotate(-90)" text-anchor="middle">${esc(p.yLabel)}</text>`,
  );
  if (p.bound) {
    const y = sy(p.bound.y).toFixed(1);
    out.push(
      `<line x1="${dx + M.left}" y1="${y}" x2="${dx + W - M.right}" y2="${y}" stroke="#c00" stroke-dasharray="6 4"/>`,
      `<text x="${dx + W - M.right - 4}" y="${Number(y) - 5}" text-anchor="end" fill="#c00">${esc(p.bound.label)}</text>`,
    );
  }
  for (const s of p.series) {
    const pts = s.points.filter(([, y]) => Number.isFinite(y));
    const d = pts
      .map(([x, y], i) => `${i === 0 ? 'M' : 'L'}${sx(x).toFixed(1)},${sy(y).toFixed(1)}`)
      .join(' ');
    out.push(`<path d="${d}" fill="none" stroke="${s.color}" stroke-width="2"/>`);
    for (const [x, y] of pts)
      out.push(`<circle cx="${sx(x).toFixed(1)}" cy="${sy(y).toFixed(1)}" r="3" fill="${s.color}"/>`);
  }
  return out.join('\n');
}

function niceCeil(v: number): number {
  if (v <= 0) return 1;
  const e = 10 ** Math.floor(Math.log10(v));
  return ([1, 2, 2.5, 5, 10].find((m) => m * e >= v) ?? 10) * e;
}

function niceFloor(v: number): number {
  if (v <= 0) return 0.01;
  return 10 ** Math.floor(Math.log10(v));
}

function linearTicks(max: number): number[] {
  const step = niceCeil(max / 5);
  return Array.from({ length: Math.floor(max / step) + 1 }, (_, i) => i * step);
}

function logTicks(min: number, max: number): number[] {
  const ticks: number[] = [];
  for (let t = min; t <= max * 1.0001; t *= 10) ticks.push(t);
  return ticks;
}

function label(v: number): string {
  if (v >= 1000 && v % 1000 === 0) return `${v / 1000}k`;
  return String(Number(v.toPrecision(3)));
}

function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
