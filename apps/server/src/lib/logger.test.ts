import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { batchedDestination, isLevelEnabled, lazyChildLoggerFactory, loggerOptions } from './logger';

function capture(level = 'info') {
  const lines: Record<string, unknown>[] = [];
  const parent = pino(
    loggerOptions(level),
    new Writable({
      write(chunk, _encoding, callback) {
        lines.push(JSON.parse(String(chunk)));
        callback();
      },
    }),
  );
  const child = vi.spyOn(parent, 'child');
  // The factory is called by Fastify with itself as `this`; it does not use it.
  const make = (options = {}) => lazyChildLoggerFactory.call(null as never, parent, { reqId: 'req-7' }, options, null as never);
  return { parent, child, lines, make };
}

describe('the lazy request logger', () => {
  it('makes no child for a request that logs nothing, or only below the level', () => {
    const { child, lines, make } = capture('info');
    const logger = make();
    logger.debug({ url: '/api/user' }, 'incoming request');
    logger.trace('deeper still');
    expect(child).not.toHaveBeenCalled();
    expect(lines).toEqual([]);
    expect(isLevelEnabled(logger, 'debug')).toBe(false);
    expect(isLevelEnabled(logger, 'info')).toBe(true);
  });

  it('logs as the eager child would, with the bindings and the message, making the child once', () => {
    const { child, lines, make } = capture('info');
    const logger = make();
    logger.info({ statusCode: 200 }, 'request completed');
    logger.error({ password: 'hunter2' }, 'request failed');
    expect(child).toHaveBeenCalledTimes(1);
    expect(lines).toMatchObject([
      { level: 30, reqId: 'req-7', statusCode: 200, msg: 'request completed' },
      // The parent's redaction reaches the child's lines.
      { level: 50, reqId: 'req-7', password: '[redacted]', msg: 'request failed' },
    ]);
  });

  it('follows a level set on it, and hands out children carrying its bindings', () => {
    const { lines, make } = capture('info');
    const logger = make();
    expect(logger.level).toBe('info');
    logger.level = 'debug';
    logger.debug('now written');
    logger.child({ part: 'engine' }).info('from a child');
    expect(lines).toMatchObject([
      { level: 20, reqId: 'req-7', msg: 'now written' },
      { level: 30, reqId: 'req-7', part: 'engine', msg: 'from a child' },
    ]);
  });

  it('is eager when the route sets a level of its own, or the parent cannot tell its levels', () => {
    const { child, lines, make } = capture('info');
    make({ level: 'debug' }).debug('route-level debug');
    expect(child).toHaveBeenCalledTimes(1);
    expect(lines).toMatchObject([{ level: 20, reqId: 'req-7', msg: 'route-level debug' }]);

    const made: FastifyBaseLogger[] = [];
    const plain = { level: 'info', child: (): FastifyBaseLogger => made[0]! } as unknown as FastifyBaseLogger;
    made.push(plain);
    expect(lazyChildLoggerFactory.call(null as never, plain, { reqId: 'x' }, {}, null as never)).toBe(plain);
  });
});

describe('the batched log destination', () => {
  it('writes every line whole and in order, multi-byte text included, once flushed', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'contrateia-log-'));
    const fd = fs.openSync(path.join(dir, 'out.log'), 'w');
    try {
      const destination = batchedDestination({ dest: fd, minLength: 4096, periodicFlush: 60_000 });
      const logger = pino(loggerOptions('info'), destination);
      // Enough to fill several batches, each line with characters of 2, 3 and 4 bytes.
      for (let n = 0; n < 500; n += 1) logger.info({ n, text: `ação ✓ 😀 ${'x'.repeat(n % 50)}` }, 'line');
      await new Promise<void>((resolve, reject) => destination.flush((error) => (error ? reject(error) : resolve())));
      const lines = fs.readFileSync(path.join(dir, 'out.log'), 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line));
      expect(lines.map((line) => line.n)).toEqual(Array.from({ length: 500 }, (_, n) => n));
      expect(lines.every((line) => line.text === `ação ✓ 😀 ${'x'.repeat(line.n % 50)}` && line.msg === 'line')).toBe(true);
    } finally {
      fs.closeSync(fd);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('redaction', () => {
  it('blanks an API key, on its own or inside what is logged', () => {
    const { parent, lines } = capture('info');
    parent.info({ apiKey: 'sk-1' }, 'top level');
    parent.info({ input: { provider: 'openai', apiKey: 'sk-2' } }, 'one level down');
    expect(lines).toMatchObject([
      { apiKey: '[redacted]', msg: 'top level' },
      { input: { provider: 'openai', apiKey: '[redacted]' }, msg: 'one level down' },
    ]);
    expect(JSON.stringify(lines)).not.toMatch(/sk-[12]/);
  });
});
