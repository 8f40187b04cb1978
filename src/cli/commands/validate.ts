import type { Command } from 'commander';

export function registerValidate(program: Command): void {
  program.command('validate').description('(being written)');
}
