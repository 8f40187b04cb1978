#!/usr/bin/env node
import { Command, CommanderError } from 'commander';
import { COMMANDS } from './commands/index.ts';
import { describeError } from './context.ts';
import { exitCodeOfError } from './exit-codes.ts';

export function buildProgram(): Command {
  const program = new Command('feed-sync')
    .description("Keep a chatbot platform's real estate listings equal to their MLS, CSV and XML feeds.")
    .showHelpAfterError()
    .exitOverride();
  for (const register of COMMANDS) register(program);
  return program;
}

export async function main(argv: string[] = process.argv): Promise<number> {
  try {
    await buildProgram().parseAsync(argv);
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    process.stderr.write(`feed-sync: ${describeError(error)}\n`);
    return exitCodeOfError(error);
  }
}

if (import.meta.main) process.exitCode = await main();
