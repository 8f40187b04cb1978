import { describe, expect, it } from 'vitest';
import { withConfigInCommands } from './context.ts';

describe('withConfigInCommands', () => {
  const hint = 'fix the feed (`feed-sync validate --feed acme` says what its records lack)';

  it('adds the config file a run was given to the commands its report suggests (a tester ran one and read another file)', () => {
    expect(withConfigInCommands(hint, 'configs/brokers.yaml')).toBe(
      'fix the feed (`feed-sync validate -c configs/brokers.yaml --feed acme` says what its records lack)',
    );
    expect(withConfigInCommands(hint, "my feeds/it's.yaml")).toContain(
      "`feed-sync validate -c 'my feeds/it'\\''s.yaml' --feed acme`",
    );
  });

  it('leaves them as they are for the default file, and for none', () => {
    expect(withConfigInCommands(hint, 'feed-sync.yaml')).toBe(hint);
    expect(withConfigInCommands(hint, undefined)).toBe(hint);
  });
});
