import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ChatStore } from './chat-store.ts';
import { createControl, type SandboxControl } from './control.ts';
import { ListingStore } from './listing-store.ts';
import { DEFAULT_SETTINGS, mergeSettings, type SandboxOptions } from './options.ts';
import { parseOptions } from './options-schema.ts';
import { mulberry32 } from './random.ts';
import { RateWindow } from './rate-window.ts';
import { createListener } from './server.ts';
import type { SandboxState } from './state.ts';
import { StatsRecorder } from './stats.ts';

/** A running sandbox: its address, the controls of `SandboxControl`, and `close`. */
export interface Sandbox extends SandboxControl {
  /** Base URL to give the client, e.g. `http://127.0.0.1:41234` (no trailing slash). */
  readonly url: string;
  readonly port: number;
  /** Stop listening and drop every open connection, hung and streaming ones included. Idempotent. */
  close(): Promise<void>;
}

/**
 * Start a sandbox of the chatbot platform: an in-memory `node:http` server answering every operation
 * of the spec at the paths of `PATHS`. Options are validated; a bad one throws `SandboxOptionsError`
 * naming it.
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const { port = 0, host = '127.0.0.1', ...change } = parseOptions(options);
  const settings = mergeSettings(DEFAULT_SETTINGS, change);
  const state: SandboxState = {
    settings,
    random: mulberry32(settings.seed),
    listings: new ListingStore(),
    chat: new ChatStore(),
    stats: new StatsRecorder(),
    rate: new RateWindow(),
  };
  const control = createControl(state);
  const server = createServer({ noDelay: true }, createListener(state, control));
  await listen(server, port, host);
  const actualPort = (server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;
  return {
    ...control,
    url: `http://${urlHost(host)}:${actualPort}`,
    port: actualPort,
    close: () => {
      closing ??= stop(server);
      return closing;
    },
  };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function stop(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeAllConnections();
  });
}

/** A wildcard address is reachable on loopback; IPv6 literals need brackets in a URL. */
function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}
