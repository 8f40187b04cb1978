import type { Command } from 'commander';
import { CliExit, withExamples } from '../context.ts';
import { HEALTH_MAX_AGE_MS, healthDir, healthProblem, workersProblem } from '../heartbeat.ts';

/**
 * `feed-sync healthcheck`: exit 0 when every running worker's last heartbeat is fresh and healthy
 * (the store answers, the worker takes jobs), 1 otherwise or when no worker runs. The container's
 * HEALTHCHECK: no UI, no port needed. Each worker keeps its own file in the temp folder
 * (`feed-sync-worker.<pid>.health`); `--health-file` checks one given file.
 */
export function registerHealthcheck(program: Command): void {
  withExamples(program.command('healthcheck'), [
    'feed-sync healthcheck && echo healthy',
    'feed-sync healthcheck --health-file /run/feed-sync/worker.health',
  ])
    .description("check the workers' heartbeats (the container health check; needs no UI)")
    .option(
      '--health-file <file>',
      "one worker's heartbeat file (default: every worker's in the temp folder)",
    )
    .action(async (options: { healthFile?: string }) => {
      const problem = options.healthFile
        ? await healthProblem(options.healthFile, Date.now(), HEALTH_MAX_AGE_MS)
        : await workersProblem(healthDir(), Date.now());
      if (problem) throw new CliExit(problem);
      process.stdout.write('healthy\n');
    });
}
