import type { Command } from 'commander';
import { CliExit, withExamples } from '../context.ts';
import { DEFAULT_HEALTH_FILE, HEALTH_MAX_AGE_MS, healthProblem } from '../heartbeat.ts';

/**
 * `feed-sync healthcheck`: exit 0 when the worker's last heartbeat is fresh and healthy (Redis
 * answers, the worker takes jobs), 1 otherwise. The container's HEALTHCHECK: no UI, no port needed.
 */
export function registerHealthcheck(program: Command): void {
  withExamples(program.command('healthcheck'), ['feed-sync healthcheck && echo healthy'])
    .description("check the worker's heartbeat (the container health check; needs no UI)")
    .option('--health-file <file>', "the worker's heartbeat file", DEFAULT_HEALTH_FILE)
    .action(async (options: { healthFile: string }) => {
      const problem = await healthProblem(options.healthFile, Date.now(), HEALTH_MAX_AGE_MS);
      if (problem) throw new CliExit(problem);
      process.stdout.write('healthy\n');
    });
}
