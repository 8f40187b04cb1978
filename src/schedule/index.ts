/**
 * From config to jobs: the job schedulers a config asks for (and their repair when the store lost
 * them), the runs a config change starts, and the watcher that reloads the config file.
 */
export { type ConfigRun, runsForConfigChange } from './config-runs.ts';
export { type ConfigWatchHandlers, reloadOnChange, watchConfig } from './config-watch.ts';
export { missingSchedulers, restoreSchedulers } from './scheduler-guard.ts';
export { applySchedulers, type SchedulerChanges, wantedSchedulers } from './schedulers.ts';
