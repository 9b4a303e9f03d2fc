import type { LoggerOptions } from 'pino';

/**
 * Paths pino blanks in every log line. Requests are logged by method and URL only, but a handler
 * or an error may log an object holding one of these; none may ever reach a log.
 */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  '*.password',
  '*.confirmPassword',
  '*.otp',
  '*.code',
  '*.token',
  '*.passwordHash',
  'password',
  'otp',
  'token',
];

export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
  };
}
