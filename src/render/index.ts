/**
 * Presentation: plans, run reports and progress as text, for the CLI, the job's progress and the
 * dashboard. Pure: data in, strings out.
 */

export { duration } from './duration.ts';
export {
  type ProgressStream,
  percentOf,
  progressLine,
  progressText,
  rateOf,
  throttleProgress,
} from './progress.ts';
export {
  changeText,
  graceLine,
  holdReason,
  imagesDifference,
  PLAN_LIMIT,
  type RenderPlanOptions,
  renderPlan,
  showField,
  summarizePlan,
} from './render-plan.ts';
export {
  feedNotes,
  hintLines,
  phasesText,
  rejectionLine,
  renderReport,
  withOtherProblems,
} from './render-report.ts';
