import { expect, it } from 'vitest';
import { SANDBOX_PROVIDERS } from '../../src/cli/commands/sandbox-reso.ts';
import { PROVIDERS } from '../../src/sandbox/index.ts';

it('`sandbox --reso` offers every provider the sandbox plays, and only those', () => {
  expect([...SANDBOX_PROVIDERS].sort()).toEqual([...PROVIDERS].sort());
});
