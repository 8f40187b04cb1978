import { z } from 'zod';

/**
 * The data of the two job kinds, validated where a job starts (jobs/) and described to the UI's
 * add-job form (src/ui). Defined here, below both, so neither imports the other.
 */
export const TRIGGERS = ['schedule', 'manual', 'config', 'repair', 'resume'] as const;
export type Trigger = (typeof TRIGGERS)[number];
/** A settings push has no provider budget to wait for: no `resume`. */
const PUSH_TRIGGERS = ['schedule', 'manual', 'config', 'repair'] as const;

export const syncFeedPayloadSchema = z.strictObject({
  feedId: z.string().min(1),
  trigger: z.enum(TRIGGERS).default('manual'),
  /** Ignore the RESO watermark and conditional GET: read the whole feed. */
  forceFull: z.boolean().optional(),
  /** Plan only; the report says what a real run would do. */
  dryRun: z.boolean().optional(),
  /** Let this one run delete past the feed's `maxDeleteShare`. */
  allowMassDelete: z.boolean().optional(),
  /**
   * Let this run delete the listings a run held, and only those: `digest` is that run's
   * `heldDeletesDigest`, `count` how many it held (said when they differ).
   */
  allowDeletes: z
    .strictObject({ digest: z.string().regex(/^[0-9a-f]{64}$/), count: z.number().int().min(0) })
    .optional(),
  /** Let this run's replaces past `maxDeleteShare` through, and nothing else. */
  allowMassReplace: z.boolean().optional(),
  /** Let this run replace the listings a run's guard `mass-replace` held, and only those (its `held`). */
  allowReplaces: z
    .strictObject({ digest: z.string().regex(/^[0-9a-f]{64}$/), count: z.number().int().min(0) })
    .optional(),
});
/** What a producer queues (`trigger` defaults to `manual`). */
export type SyncFeedPayload = z.input<typeof syncFeedPayloadSchema>;
/** What a job reads, defaults filled in. */
export type SyncFeedJobData = z.output<typeof syncFeedPayloadSchema>;

export const pushSettingsPayloadSchema = z.strictObject({
  /** The chatbot's id (serial number). */
  chatbot: z.string().min(1),
  trigger: z.enum(PUSH_TRIGGERS).default('manual'),
  /** Push even when unchanged since the last push. */
  force: z.boolean().optional(),
});
export type PushSettingsPayload = z.input<typeof pushSettingsPayloadSchema>;
export type PushSettingsJobData = z.output<typeof pushSettingsPayloadSchema>;
