import { z } from 'zod';

/** Field types of the chatbot settings of spec 2.1, as the edit operation checks them. */
const STRING_FIELDS = [
  'Name',
  'Model',
  'SystemMessage',
  'TimeZone',
  'AnswerSuffix',
  'ChatProfilePicture',
  'ChatIcon',
  'ChatBubbleColor',
  'ChatbotPrivacyPolicyDescription',
  'ChatbotPrivacyPolicyName',
  'ChatbotPrivacyPolicyUrl',
  'SocialPageUrl',
  'PhotoSocialUrl',
  'MessengerUrl',
  'SuggestedMessage',
  'TalkToHumanEmail',
  'TalkToHumanResponseMessage',
  'UserInputPlaceholder',
  'UserMessageColor',
  'WelcomeMessage',
  'Domains',
  'RateLimitMessage',
  'CustomDomain',
  'EmailForDailyChatLogs',
  'EmailForDailyLeads',
  'AIResponseLanguage',
] as const;
const INTEGER_FIELDS = [
  'Temperature',
  'ChatBubbleAlign',
  'RateLimitCount',
  'RateLimitTime',
  'MessageLimit',
] as const;
const BOOLEAN_FIELDS = [
  'ChatbotPopupOnce',
  'EnablePushToTalk',
  'EnableUploadImage',
  'RemoveChatLogOnBrowserClose',
  'VerifyDomain',
] as const;

/** Spec 2.1: colours are written rgb(<r>,<g>,<b>). */
const rgb = z
  .string()
  .regex(/^rgb\(\s*\d{1,3}\s*,\s*\d{1,3}\s*,\s*\d{1,3}\s*\)$/, 'expected rgb(<r>,<g>,<b>)');

const shapeOf = <K extends string, T extends z.ZodType>(keys: readonly K[], type: T) =>
  Object.fromEntries(keys.map((key) => [key, type.optional()])) as Record<K, z.ZodOptional<T>>;

/**
 * The edit request (4.1): `serialNumber` required, the fields of 2.1 type-checked when present.
 * Fields the spec does not list are kept too (loose): the sandbox stores what it was sent, so a
 * test can see exactly what the client pushed.
 */
export const editSchema = z.looseObject({
  serialNumber: z.string().min(1),
  ...shapeOf(STRING_FIELDS, z.string()),
  ...shapeOf(INTEGER_FIELDS, z.number().int()),
  ...shapeOf(BOOLEAN_FIELDS, z.boolean()),
  ChatBubbleColor: rgb.optional(),
  UserMessageColor: rgb.optional(),
});
