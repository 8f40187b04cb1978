/**
 * The local sandbox of the chatbot platform, for integration tests, benchmarks and the demo.
 * See start.ts for the server, control.ts for what a test can do to it, inspection.ts for the same
 * over HTTP.
 */
export type { SandboxControl } from './control.ts';
export { SANDBOX_VERSION } from './envelope.ts';
export { INSPECTION_PREFIX } from './inspection.ts';
export { type ListRecord, SALE_TYPE_DISPLAY, toListRecord } from './list-record.ts';
export type { StoredListing } from './listing-store.ts';
export {
  DEFAULT_SETTINGS,
  type FaultOptions,
  type ImagesFormat,
  type SandboxConfigure,
  type SandboxOptions,
  type SandboxSettings,
  type StreamFraming,
} from './options.ts';
export { SandboxOptionsError } from './options-schema.ts';
export { mulberry32 } from './random.ts';
// The servers that play the RESO Web API providers (`feed-sync sandbox --reso PROVIDER`).
export {
  PROVIDERS,
  type ProviderName,
  type ResoProvider,
  type ResoProviderOptions,
  startResoProvider,
} from './reso/index.ts';
export { type Sandbox, startSandbox } from './start.ts';
export { FAULT_KINDS, type FaultKind, type SandboxStats } from './stats.ts';
