// The columns moved below every folder (src/number-column.ts) so that ingest holds its keys in them
// too (issue 23 §2); this keeps reconcile's imports of them where they were.
export { float64s, int32s, NumberColumn, uint32s } from '../number-column.ts';
