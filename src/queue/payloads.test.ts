import { describe, expect, it } from 'vitest';
import { pushSettingsPayloadSchema, syncFeedPayloadSchema, TRIGGERS } from './payloads.ts';

describe('job payloads', () => {
  it('a sync takes every trigger, resume included, and defaults to manual', () => {
    for (const trigger of TRIGGERS)
      expect(syncFeedPayloadSchema.parse({ feedId: 'acme', trigger }).trigger).toBe(trigger);
    expect(syncFeedPayloadSchema.parse({ feedId: 'acme' }).trigger).toBe('manual');
  });

  it('a settings push takes the triggers but resume, which only a paused sync queues', () => {
    for (const trigger of TRIGGERS.filter((t) => t !== 'resume'))
      expect(pushSettingsPayloadSchema.parse({ chatbot: 'C1', trigger }).trigger).toBe(trigger);
    const resumed = pushSettingsPayloadSchema.safeParse({ chatbot: 'C1', trigger: 'resume' });
    expect(resumed.success).toBe(false);
    expect(resumed.error?.issues[0]?.path).toEqual(['trigger']);
  });

  it('a misspelt option is an error, not ignored', () => {
    expect(syncFeedPayloadSchema.safeParse({ feedId: 'acme', dryrun: true }).success).toBe(false);
    expect(pushSettingsPayloadSchema.safeParse({ chatbot: 'C1', forced: true }).success).toBe(false);
  });
});
