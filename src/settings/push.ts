import type { PlatformClient } from '../api/index.ts';
import type { Logger } from '../logger.ts';
import type { StateStore } from '../state/index.ts';
import { fingerprintSettings } from './fingerprint.ts';
import type { ChatbotSettings } from './settings-schema.ts';

/** The part of a `chatbots:` entry of the config a push reads: the chatbot's id and its settings. */
export interface ChatbotPush {
  /** The chatbot's id (serial number). */
  chatbot: string;
  settings?: ChatbotSettings | undefined;
}

/** What a settings push did for one chatbot. */
export interface PushResult {
  /** The chatbot's id (serial number). */
  chatbot: string;
  /** `pushed`; `unchanged` (same fingerprint as the last push); `would-push` (dry run); `no-settings`. */
  outcome: 'pushed' | 'unchanged' | 'would-push' | 'no-settings';
  fingerprint?: string;
  /** The fields sent (or that would be sent). */
  fields: string[];
}

export interface PushDeps {
  client: PlatformClient;
  state: StateStore;
  logger: Logger;
  signal?: AbortSignal;
}

export interface PushOptions {
  /** Push even when the fingerprint matches the last push. */
  force?: boolean;
  /** Decide, but send nothing and record nothing. */
  dryRun?: boolean;
}

/**
 * Push one chatbot's settings (Edit) when they differ from the last successful push, or when
 * forced. Only the fields set in config are sent. The fingerprint is recorded after the platform
 * accepted the push, so a failed push is tried again next time.
 */
export async function pushSettings(
  chatbot: ChatbotPush,
  deps: PushDeps,
  options: PushOptions = {},
): Promise<PushResult> {
  const { chatbot: id, settings } = chatbot;
  if (!settings || Object.keys(settings).length === 0)
    return { chatbot: id, outcome: 'no-settings', fields: [] };
  const fingerprint = fingerprintSettings(settings);
  const fields = Object.keys(settings).sort();
  const last = await deps.state.getSettingsFingerprint(id);
  if (last === fingerprint && !options.force)
    return { chatbot: id, outcome: 'unchanged', fingerprint, fields };
  if (options.dryRun) return { chatbot: id, outcome: 'would-push', fingerprint, fields };
  await deps.client.editSettings(id, settings, deps.signal ? { signal: deps.signal } : {});
  await deps.state.setSettingsFingerprint(id, fingerprint);
  deps.logger.info({ chatbot: id, fields }, 'chatbot settings pushed');
  return { chatbot: id, outcome: 'pushed', fingerprint, fields };
}

/** The chatbots of `config` to push: all, or the one named. Throws when the id is unknown. */
export function selectChatbots<C extends ChatbotPush>(config: { chatbots: C[] }, id?: string): C[] {
  if (id === undefined) return config.chatbots;
  const chatbot = config.chatbots.find((c) => c.chatbot === id);
  if (!chatbot)
    throw new Error(
      `no chatbot "${id}" in config (known: ${config.chatbots.map((c) => c.chatbot).join(', ') || 'none'})`,
    );
  return [chatbot];
}

/** Push every selected chatbot in turn; the first failure stops the run (and is thrown). */
export async function pushAllSettings(
  config: { chatbots: ChatbotPush[] },
  deps: PushDeps,
  options: PushOptions & { chatbot?: string } = {},
): Promise<PushResult[]> {
  const results: PushResult[] = [];
  for (const chatbot of selectChatbots(config, options.chatbot))
    results.push(await pushSettings(chatbot, deps, options));
  return results;
}
