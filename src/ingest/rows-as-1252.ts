/**
 * Which records were read as Windows-1252: the decoder reports file lines, and each line belongs to
 * the record that starts at or before it (a quoted CSV field can span lines). Records without a row
 * (XML, JSON) are reported by the line itself. Fed the records in file order; pure.
 */
export class RowsAs1252 {
  private readonly lines: readonly number[];
  private next = 0;
  private lastRow: number | undefined;
  private readonly rows: number[] = [];

  /** `lines`: the decoder's list, ascending, filled while the records are read. */
  constructor(lines: readonly number[]) {
    this.lines = lines;
  }

  /** A record starting at `row` was read: every line reported before it belongs to an earlier one. */
  record(row: number | undefined): void {
    if (row === undefined) return;
    for (; this.next < this.lines.length && this.lines[this.next]! < row; this.next++)
      this.add(this.lastRow ?? this.lines[this.next]!);
    this.lastRow = row;
  }

  /** The rows (or lines) read as Windows-1252, ascending, each once. */
  finish(): number[] {
    for (; this.next < this.lines.length; this.next++) this.add(this.lastRow ?? this.lines[this.next]!);
    return this.rows;
  }

  private add(row: number): void {
    if (this.rows[this.rows.length - 1] !== row) this.rows.push(row);
  }
}
