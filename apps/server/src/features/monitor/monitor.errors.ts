import { AppError } from '@/lib/errors';

/** A metrics scrape without the metrics token, or with another: Bearer is the scheme to use. */
export const metricsUnauthorized = () =>
  new AppError(401, 'errors.unauthorized', { headers: { 'www-authenticate': 'Bearer' } });
