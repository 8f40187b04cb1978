import { describe, expect, it } from 'vitest';
import { describeIssues, formatPath } from './issues.ts';
import { createSchema } from './request-schemas.ts';

function messageFor(body: Record<string, unknown>): string {
  const parsed = createSchema.safeParse(body, { reportInput: true });
  if (parsed.success) throw new Error('expected a validation failure');
  return describeIssues(parsed.error, 50);
}

describe('describeIssues', () => {
  it.each([
    [{ Bedrooms: 'three' }, 'Bedrooms: expected number, got string'],
    [{ Bedrooms: null }, 'Bedrooms: expected number, got null'],
    [{}, 'MLSNumber: required'],
    [{}, 'SaleType: required'],
    [{ SaleType: 'sale' }, 'SaleType: expected one of "for_sale", "for_rent", got "sale"'],
    [{ YearBuilt: 1998.5, Bedrooms: '3' }, 'Bedrooms: expected number, got string'],
    [{ Surface: 120 }, 'body: unknown field Surface'],
    [{ MLSNumber: '' }, 'MLSNumber: must not be empty'],
    [{ ExtensionColumn: [{ Key: 'Pool' }] }, 'ExtensionColumn[0].value: required'],
    [{ Images: 'https://img.test/a.jpg' }, 'Images: expected array, got string'],
  ])('%o → %s', (body, expected) => {
    expect(messageFor(body)).toContain(expected);
  });

  it('shows at most `limit` issues and says how many more', () => {
    const parsed = createSchema.safeParse({}, { reportInput: true });
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    expect(describeIssues(parsed.error, 2)).toMatch(
      /^SerialNumber: required; SaleType: required; and \d+ more$/,
    );
  });
});

describe('formatPath', () => {
  it.each([
    [[], 'body'],
    [['Bedrooms'], 'Bedrooms'],
    [['Images', 2], 'Images[2]'],
    [['ExtensionColumn', 0, 'Key'], 'ExtensionColumn[0].Key'],
  ] as const)('%o → %s', (path, expected) => {
    expect(formatPath(path)).toBe(expected);
  });
});
