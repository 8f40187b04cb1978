import { describe, expect, it } from 'vitest';
import { withConfigInCommands } from './context.ts';

describe('withConfigInCommands', () => {
  const hint = 'fix the feed (`feed-sync validate --feed acme` says what its records lack)';

  it('adds the config file a run was given to the commands its report suggests (a tester ran one and read another file)', () => {
    expect(withConfigInCommands(hint, 'configs/brokers.yaml', {})).toBe(
      'fix the feed (`feed-sync validate -c configs/brokers.yaml --feed acme` says what its records lack)',
    );
    expect(withConfigInCommands(hint, "my feeds/it's.yaml", {})).toContain(
      "`feed-sync validate -c 'my feeds/it'\\''s.yaml' --feed acme`",
    );
  });

  it('leaves them as they are for the file they would read anyway, and for none', () => {
    expect(withConfigInCommands(hint, 'feed-sync.yaml', {})).toBe(hint);
    expect(withConfigInCommands(hint, 'other.yaml', { FEED_SYNC_CONFIG: 'other.yaml' })).toBe(hint);
    expect(withConfigInCommands(hint, undefined, {})).toBe(hint);
  });

  it('names the file where FEED_SYNC_CONFIG names another, keeps a $ in its name, and rewrites a bare command (a reviewer)', () => {
    expect(withConfigInCommands(hint, 'feed-sync.yaml', { FEED_SYNC_CONFIG: 'other.yaml' })).toContain(
      '`feed-sync validate -c feed-sync.yaml --feed acme`',
    );
    expect(withConfigInCommands(hint, 'a$1 b.yaml', {})).toContain(
      "`feed-sync validate -c 'a$1 b.yaml' --feed acme`",
    );
    expect(withConfigInCommands('run `feed-sync plan` first', 'x.yaml', {})).toBe(
      'run `feed-sync plan -c x.yaml` first',
    );
  });
});
