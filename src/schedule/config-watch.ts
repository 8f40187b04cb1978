import { type FSWatcher, watch } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import type { Config } from '../config/index.ts';
import { ConfigError, loadConfig } from '../config/index.ts';
import type { Logger } from '../logger.ts';

export interface ConfigWatchHandlers {
  /** A changed file that validates. */
  onValid(config: Config): Promise<void> | void;
  /** A changed file that does not: the running config stays. */
  onInvalid(error: ConfigError): void;
  /** A changed file that validates to the running config (a refused change undone). */
  onUnchanged?(): void;
}

export interface WatchOptions {
  env?: NodeJS.ProcessEnv;
  debounceMs?: number;
  /**
   * What the running config is made from the file, when it is not the file as it stands (the demo of
   * `feed-sync start` runs its copied config against its own sandbox, on its own schedule).
   */
  adapt?: (config: Config) => Config;
}

/**
 * Watch the config file and reload it when it changes. Watches the directory, not the file:
 * editors and Kubernetes ConfigMaps replace the file (rename), which a file watch would lose.
 * Changes within `debounceMs` are one reload.
 */
export function watchConfig(
  file: string,
  running: Config,
  handlers: ConfigWatchHandlers,
  options: WatchOptions = {},
): () => void {
  // The loader reads the environment when `env` is not given: it is the only reader of process.env.
  const { env, debounceMs = 150, adapt = (config: Config) => config } = options;
  const path = resolve(file);
  const name = basename(path);
  let timer: NodeJS.Timeout | undefined;
  let last = JSON.stringify(running);
  let chain: Promise<void> = Promise.resolve();
  // Changes seen so far: a change during a load means the file was still being written (a save
  // that truncates, then writes), so what was read may be half a file; the next reload decides.
  let changes = 0;
  /** The last refusal said: a file saved twice as it was (an editor's write, then its rename) is refused once. */
  let refused: string | undefined;

  const reload = () => {
    chain = chain.then(async () => {
      const seen = changes;
      let config: Config;
      try {
        config = adapt(await loadConfig(path, env));
      } catch (error) {
        if (changes !== seen) return;
        if (error instanceof ConfigError && error.message !== refused) {
          refused = error.message;
          handlers.onInvalid(error);
        }
        return;
      }
      if (changes !== seen) return;
      refused = undefined;
      const text = JSON.stringify(config);
      // Saved back as it runs (a typo undone): nothing to apply, but the file is valid again.
      if (text === last) return void handlers.onUnchanged?.();
      last = text;
      await handlers.onValid(config);
    });
  };

  const watcher: FSWatcher = watch(dirname(path), (_event, changed) => {
    // ConfigMaps swap a `..data` symlink rather than the file itself, so any change may be ours.
    if (changed && changed !== name && !String(changed).startsWith('..')) return;
    changes++;
    clearTimeout(timer);
    timer = setTimeout(reload, debounceMs);
  });
  return () => {
    clearTimeout(timer);
    watcher.close();
  };
}

/**
 * The worker's reload: a valid change is applied (schedulers, settings pushes, limits); an invalid
 * one is refused with its errors logged, and the running config stays.
 */
export function reloadOnChange(
  file: string,
  service: {
    config(): Config;
    applyConfig(next: Config): Promise<void>;
    noteConfigRefused?(refusal: { at: string; file: string; issues: string[] } | undefined): void;
  },
  logger: Logger,
  options: WatchOptions = {},
): () => void {
  return watchConfig(
    file,
    service.config(),
    {
      onValid: async (next) => {
        try {
          await service.applyConfig(next);
          service.noteConfigRefused?.(undefined);
          logger.info({ file }, 'config reloaded and applied');
        } catch (error) {
          logger.error({ file, err: (error as Error).message }, 'config reloaded but not applied');
        }
      },
      onUnchanged: () => service.noteConfigRefused?.(undefined),
      onInvalid: (error) => {
        // Said on the dashboard too: an operator who saved a typo and looks there only saw "healthy".
        service.noteConfigRefused?.({ at: new Date().toISOString(), file, issues: [...error.issues] });
        logger.error({ file, issues: error.issues }, 'config change refused: the running config stays');
      },
    },
    options,
  );
}
