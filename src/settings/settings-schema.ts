import { z } from 'zod';
import { toLanguageName } from './language.ts';

/** `rgb(r,g,b)`, each channel an integer 0–255; spaces allowed, sent without them. */
const rgb = z.string().transform((value, ctx) => {
  const match = /^\s*rgb\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*\)\s*$/i.exec(value);
  const channels = match ? match.slice(1, 4).map(Number) : [];
  if (channels.length !== 3 || channels.some((c) => c > 255)) {
    ctx.addIssue({ code: 'custom', message: `"${value}" is not rgb(r,g,b) with each value 0–255` });
    return z.NEVER;
  }
  return `rgb(${channels.join(',')})`;
});

/** A real IANA zone name (`Europe/Paris`, `UTC`): offsets like `+01:00` are refused. */
const timeZone = z
  .string()
  .refine(isIanaTimeZone, { error: (issue) => `"${String(issue.input)}" is not an IANA time zone` });

export function isIanaTimeZone(value: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(value)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** The spec wants the full language name; `en`/`fr-CA` or `english` are accepted and sent as `English`. */
const language = z.string().transform((value, ctx) => {
  const name = toLanguageName(value);
  if (name === undefined) {
    ctx.addIssue({ code: 'custom', message: `"${value}" is not a language code or name` });
    return z.NEVER;
  }
  return name;
});

const int = z.number().int();
const nonNegative = int.min(0, 'must be 0 or more');

/**
 * The chatbot settings of spec section 2.1 (everything but serialNumber, which comes from the
 * chatbot entry). Every field is optional and only the fields set are sent: the platform has no
 * read operation, so an omitted field must not be overwritten with a default.
 */
export const settingsSchema = z.strictObject({
  Name: z.string().optional(),
  /** AI model identifier, from the platform's model list. */
  Model: z.string().optional(),
  SystemMessage: z.string().optional(),
  Temperature: int.optional(),
  TimeZone: timeZone.optional(),
  AnswerSuffix: z.string().optional(),
  /** File ID. */
  ChatProfilePicture: z.string().optional(),
  /** File ID. */
  ChatIcon: z.string().optional(),
  /** The spec does not say what the values mean. */
  ChatBubbleAlign: int.optional(),
  ChatBubbleColor: rgb.optional(),
  ChatbotPopupOnce: z.boolean().optional(),
  ChatbotPrivacyPolicyDescription: z.string().optional(),
  ChatbotPrivacyPolicyName: z.string().optional(),
  ChatbotPrivacyPolicyUrl: z.url().optional(),
  EnablePushToTalk: z.boolean().optional(),
  EnableUploadImage: z.boolean().optional(),
  SocialPageUrl: z.url().optional(),
  PhotoSocialUrl: z.url().optional(),
  MessengerUrl: z.url().optional(),
  RemoveChatLogOnBrowserClose: z.boolean().optional(),
  SuggestedMessage: z.string().optional(),
  TalkToHumanEmail: z.email().optional(),
  TalkToHumanResponseMessage: z.string().optional(),
  UserInputPlaceholder: z.string().optional(),
  UserMessageColor: rgb.optional(),
  WelcomeMessage: z.string().optional(),
  VerifyDomain: z.boolean().optional(),
  /** Allowed embedding domains, as the platform takes them (one string). */
  Domains: z.string().optional(),
  /** Messages allowed per window; 0 is allowed (the spec gives no lower bound beyond a count). */
  RateLimitCount: nonNegative.optional(),
  RateLimitMessage: z.string().optional(),
  /** Window length in seconds. */
  RateLimitTime: nonNegative.optional(),
  CustomDomain: z.string().optional(),
  EmailForDailyChatLogs: z.email().optional(),
  EmailForDailyLeads: z.email().optional(),
  /** Sent as the full English name of the language (`French`). */
  AIResponseLanguage: language.optional(),
  /** Messages per month; -1 = unlimited (the platform's default). */
  MessageLimit: int.refine((n) => n === -1 || n > 0, 'must be -1 (unlimited) or a positive count').optional(),
});
export type ChatbotSettings = z.infer<typeof settingsSchema>;
