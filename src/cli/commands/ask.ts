import type { Command } from 'commander';

export function registerAsk(program: Command): void {
  program.command('ask').description('(being written)');
}
