/**
 * Servers that play the RESO Web API providers (MLS Grid, Trestle, Bridge, Spark) from their
 * published documentation, for tests and `feed-sync sandbox --reso PROVIDER`. Written from the docs,
 * never from feed-sync's client: see docs/reso-providers.md.
 */
export type { Limit } from './budget.ts';
export { manualClock, type ResoClock, systemClock } from './clock.ts';
export type { ResetParts, ResoConfigure, ResoControl, ResoSnapshot } from './control.ts';
export { CONTROL_PREFIX } from './control-http.ts';
export { ResoOptionsError, type ResoProviderOptions } from './options.ts';
export { defaultLimits, PROVIDERS, type ProviderName } from './settings.ts';
export { apiPath, type ResoProvider, startResoProvider } from './start.ts';
export type { Email, LogEntry } from './state.ts';
