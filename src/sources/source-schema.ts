import { z } from 'zod';

// Placeholder owned by the ingestion work (issue 3): the full transport and format options live here.
export const sourceSchema = z
  .looseObject({
    format: z.enum(['csv', 'xml', 'reso']),
    url: z.url().optional(),
    path: z.string().min(1).optional(),
  })
  .refine((s) => Boolean(s.url) !== Boolean(s.path), { message: 'give exactly one of url or path' });
export type SourceConfig = z.infer<typeof sourceSchema>;
