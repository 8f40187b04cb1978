import type { Command } from 'commander';
import { registerAsk } from './ask.ts';
import { registerDemo } from './demo.ts';
import { registerExplain } from './explain.ts';
import { registerHealthcheck } from './healthcheck.ts';
import { registerPlan } from './plan.ts';
import { registerPushSettings } from './push-settings.ts';
import { registerSandbox } from './sandbox.ts';
import { registerStart } from './start.ts';
import { registerSync } from './sync.ts';
import { registerUi } from './ui.ts';
import { registerValidate } from './validate.ts';
import { registerWorker } from './worker.ts';

/** Every command of the `feed-sync` binary. One file per command; add yours here. */
export const COMMANDS: ((program: Command) => void)[] = [
  registerAsk,
  registerValidate,
  registerPushSettings,
  registerSandbox,
  registerWorker,
  registerUi,
  registerPlan,
  registerSync,
  registerExplain,
  registerDemo,
  registerHealthcheck,
  registerStart,
];
