import {
  LOG_PAGE_LIMIT,
  listLogsQuerySchema,
  type LogEntry,
} from '@contrateia/shared/logs/logs.schemas';
import { errorResponse, type FakeServer } from '@/test/fake-server';

// Stored log events as GET /api/logs answers them (packages/shared logs.schemas.ts), and a
// stand-in for that endpoint, for the logs page's tests.

/** An event; by default a failed sign-in. */
export function logEntryFixture(overrides: Partial<LogEntry> = {}): LogEntry {
  return {
    id: '1',
    timestamp: '2025-03-10T14:30:15.000Z',
    level: 'warn',
    message: 'Failed sign-in for ana@exemplo.com: wrong password',
    context: {
      category: 'auth',
      event: 'auth.sign_in_failed',
      userId: '5d0c43d2-6f6e-4f51-9a57-0d8c1f0b6a11',
      requestId: 'req-7f3a',
      ip: '203.0.113.9',
    },
    ...overrides,
  };
}

/** `count` events, newest first, one a minute back from 2025-03-10 15:00 UTC, numbered. */
export function manyLogs(count: number): LogEntry[] {
  return Array.from({ length: count }, (_, i) =>
    logEntryFixture({
      id: String(1000 + i),
      timestamp: new Date(Date.UTC(2025, 2, 10, 15, 0) - i * 60_000).toISOString(),
      level: 'info',
      message: `Event number ${i + 1}`,
      context: { category: 'server', userId: null, requestId: `req-${i + 1}` },
    }),
  );
}

/**
 * Answers GET /api/logs over `logs` (newest first) as the server does: the query checked by the
 * shared schema (400 with the field's message key otherwise), then level, category, the time
 * range and the words (case-insensitively in the message), a page of `limit` from the cursor.
 */
export function serveLogs(server: FakeServer, logs: LogEntry[]): void {
  server.on('GET /api/logs', ({ url }) => {
    const params = Object.fromEntries(new URL(url, 'http://localhost').searchParams);
    const parsed = listLogsQuerySchema.safeParse(params);
    if (!parsed.success) {
      return errorResponse(400, {
        message: 'Validation error',
        errors: Object.fromEntries(
          parsed.error.issues.map((issue) => [String(issue.path[0]), issue.message]),
        ),
      });
    }
    const { level, category, from, to, search, limit, cursor } = parsed.data;
    const words = search.toLowerCase();
    const found = logs.filter(
      (log) =>
        (!level || log.level === level) &&
        (!category || log.context.category === category) &&
        (!from || Date.parse(log.timestamp) >= Date.parse(from)) &&
        (!to || Date.parse(log.timestamp) <= Date.parse(to)) &&
        log.message.toLowerCase().includes(words),
    );
    const start = cursor ? Number(cursor) : 0;
    const end = start + (limit ?? LOG_PAGE_LIMIT.default);
    return { logs: found.slice(start, end), nextCursor: end < found.length ? String(end) : null };
  });
}
