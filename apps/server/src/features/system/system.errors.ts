import { defineError } from '@/lib/errors';

/** The health check's answer while the database does not answer. */
export const databaseUnavailable = defineError(503, 'errors.unavailable');
