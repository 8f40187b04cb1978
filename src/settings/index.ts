export { fingerprintSettings } from './fingerprint.ts';
export { toLanguageName } from './language.ts';
export {
  type ChatbotPush,
  type PushDeps,
  type PushOptions,
  type PushResult,
  pushAllSettings,
  pushSettings,
  selectChatbots,
} from './push.ts';
export { type ChatbotSettings, isIanaTimeZone, settingsSchema } from './settings-schema.ts';
