import { z } from 'zod';

// Placeholder owned by the ingestion work (issue 3): the declarative mapping language lives here.
export const mappingSchema = z.looseObject({ preset: z.string().optional() });
export type MappingConfig = z.infer<typeof mappingSchema>;
