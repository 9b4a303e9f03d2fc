import { defineError } from '@/lib/errors';

/** A page cursor that was changed by hand, or never came from us. */
export const logsCursorInvalid = defineError(400, 'errors.logsCursorInvalid', { field: 'cursor' });
