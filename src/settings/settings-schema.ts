import { z } from 'zod';

// Placeholder owned by the worker work (issue 5): section 2.1 fields with their rules.
export const settingsSchema = z.looseObject({});
export type ChatbotSettings = z.infer<typeof settingsSchema>;
