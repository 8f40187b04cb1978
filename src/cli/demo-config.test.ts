import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { demoFixtures } from './demo-config.ts';
import { CliExit } from './exit-codes.ts';

describe('demoFixtures', () => {
  it("finds the checkout's fixtures/demo/ from the sources and from the built bundle's depth", () => {
    const here = demoFixtures();
    expect(existsSync(join(here, 'feed-sync.yaml'))).toBe(true);
    // dist/src/cli/chunks/<chunk>.js sits two folders deeper than src/cli/demo-config.ts.
    const bundled = new URL('../../dist/src/cli/chunks/heartbeat.js', import.meta.url);
    expect(demoFixtures(bundled)).toBe(here);
  });

  it('says in one line that the demo needs a checkout where there are no fixtures (the image)', () => {
    expect(() => demoFixtures(new URL('file:///app/dist/src/cli/chunks/heartbeat.js'))).toThrow(CliExit);
    expect(() => demoFixtures(new URL('file:///app/dist/src/cli/chunks/heartbeat.js'))).toThrow(
      /fixtures\/demo\/\) are not in this installation: run the demo from a checkout/,
    );
  });
});
