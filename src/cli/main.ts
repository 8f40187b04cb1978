#!/usr/bin/env node
import { Command, CommanderError } from 'commander';
import { COMMANDS } from './commands/index.ts';
import { CliExit, describeError } from './context.ts';

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
    const exitCode = error instanceof CliExit ? error.exitCode : 1;
    process.stderr.write(`feed-sync: ${describeError(error)}\n`);
    return exitCode;
  }
}

if (import.meta.main) process.exitCode = await main();
