import { describe, expect, it } from 'vitest';
import { fingerprintSettings } from './fingerprint.ts';
import { settingsSchema } from './settings-schema.ts';

const parse = (input: unknown) => settingsSchema.safeParse(input);
const firstIssue = (input: unknown) => {
  const result = parse(input);
  return result.success
    ? undefined
    : `${result.error.issues[0]?.path.join('.')}: ${result.error.issues[0]?.message}`;
};

describe('settingsSchema', () => {
  it.each([
    [{ ChatBubbleColor: 'rgb(1,2,3)' }, { ChatBubbleColor: 'rgb(1,2,3)' }],
    [{ UserMessageColor: ' RGB( 0, 128 ,255 ) ' }, { UserMessageColor: 'rgb(0,128,255)' }],
    [{ AIResponseLanguage: 'fr' }, { AIResponseLanguage: 'French' }],
    [{ AIResponseLanguage: 'en' }, { AIResponseLanguage: 'English' }],
    [{ AIResponseLanguage: 'german' }, { AIResponseLanguage: 'German' }],
    [{ AIResponseLanguage: 'English' }, { AIResponseLanguage: 'English' }],
    [{ TimeZone: 'Europe/Paris' }, { TimeZone: 'Europe/Paris' }],
    [{ TimeZone: 'UTC' }, { TimeZone: 'UTC' }],
    [{ MessageLimit: -1 }, { MessageLimit: -1 }],
    [{ MessageLimit: 500 }, { MessageLimit: 500 }],
    [
      { RateLimitCount: 0, RateLimitTime: 60 },
      { RateLimitCount: 0, RateLimitTime: 60 },
    ],
    [
      { Temperature: 1, ChatBubbleAlign: 0, VerifyDomain: true },
      { Temperature: 1, ChatBubbleAlign: 0, VerifyDomain: true },
    ],
    [
      { Name: 'Bot', TalkToHumanEmail: 'a@b.co', SocialPageUrl: 'https://x.example/p' },
      { Name: 'Bot', TalkToHumanEmail: 'a@b.co', SocialPageUrl: 'https://x.example/p' },
    ],
    [{}, {}],
  ])('accepts %j', (input, output) => {
    expect(settingsSchema.parse(input)).toEqual(output);
  });

  it.each([
    [
      { ChatBubbleColor: 'rgb(256,0,0)' },
      'ChatBubbleColor: "rgb(256,0,0)" is not rgb(r,g,b) with each value 0–255',
    ],
    [{ ChatBubbleColor: '#ff0000' }, 'ChatBubbleColor: "#ff0000" is not rgb(r,g,b) with each value 0–255'],
    [
      { UserMessageColor: 'rgb(1,2)' },
      'UserMessageColor: "rgb(1,2)" is not rgb(r,g,b) with each value 0–255',
    ],
    [{ TimeZone: 'Mars/Olympus' }, 'TimeZone: "Mars/Olympus" is not an IANA time zone'],
    [{ TimeZone: '+01:00' }, 'TimeZone: "+01:00" is not an IANA time zone'],
    [{ AIResponseLanguage: 'klingonish' }, 'AIResponseLanguage: "klingonish" is not a language code or name'],
    [{ AIResponseLanguage: 'zz' }, 'AIResponseLanguage: "zz" is not a language code or name'],
    [{ MessageLimit: 0 }, 'MessageLimit: must be -1 (unlimited) or a positive count'],
    [{ MessageLimit: -2 }, 'MessageLimit: must be -1 (unlimited) or a positive count'],
    [{ RateLimitCount: -1 }, 'RateLimitCount: must be 0 or more'],
    [{ RateLimitTime: -5 }, 'RateLimitTime: must be 0 or more'],
  ])('refuses %j', (input, message) => {
    expect(firstIssue(input)).toBe(message);
  });

  it.each([
    [{ Temperature: 0.5 }, 'Temperature'],
    [{ ChatBubbleAlign: 1.5 }, 'ChatBubbleAlign'],
    [{ TalkToHumanEmail: 'not-an-email' }, 'TalkToHumanEmail'],
    [{ EmailForDailyLeads: 'x@' }, 'EmailForDailyLeads'],
    [{ ChatbotPrivacyPolicyUrl: 'not a url' }, 'ChatbotPrivacyPolicyUrl'],
    [{ VerifyDomain: 'yes' }, 'VerifyDomain'],
    [{ Nmae: 'typo' }, ''],
  ])('refuses %j at %s', (input, path) => {
    expect(firstIssue(input)?.startsWith(`${path}:`)).toBe(true);
  });
});

describe('fingerprintSettings', () => {
  it('ignores key order and changes with any value', () => {
    const a = fingerprintSettings({ Name: 'A', Temperature: 1 });
    expect(fingerprintSettings({ Temperature: 1, Name: 'A' })).toBe(a);
    expect(fingerprintSettings({ Temperature: 2, Name: 'A' })).not.toBe(a);
    expect(fingerprintSettings({ Name: 'A' })).not.toBe(a);
    expect(a).toMatch(/^v1:[0-9a-f]{64}$/);
  });

  it('gives the bytes it always gave: a stored fingerprint stays valid across upgrades', () => {
    const settings = { WelcomeMessage: 'Hi', Temperature: 0.5, Language: 'English' } as never;
    expect(fingerprintSettings(settings)).toBe(
      'v1:cb2517c67c429506b0e1f7823a723fc7b04de957d867c68ac71ce447b4abcedf',
    );
  });
});
