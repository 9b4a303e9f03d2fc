import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import {
  batchedDestination,
  isLevelEnabled,
  lazyChildLoggerFactory,
  loggerOptions,
  tapWarnings,
} from './logger';

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
  const make = (options = {}) =>
    lazyChildLoggerFactory.call(null as never, parent, { reqId: 'req-7' }, options, null as never);
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
    const plain = {
      level: 'info',
      child: (): FastifyBaseLogger => made[0]!,
    } as unknown as FastifyBaseLogger;
    made.push(plain);
    expect(
      lazyChildLoggerFactory.call(null as never, plain, { reqId: 'x' }, {}, null as never),
    ).toBe(plain);
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
      for (let n = 0; n < 500; n += 1)
        logger.info({ n, text: `ação ✓ 😀 ${'x'.repeat(n % 50)}` }, 'line');
      await new Promise<void>((resolve, reject) =>
        destination.flush((error) => (error ? reject(error) : resolve())),
      );
      const lines = fs
        .readFileSync(path.join(dir, 'out.log'), 'utf8')
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(lines.map((line) => line.n)).toEqual(Array.from({ length: 500 }, (_, n) => n));
      expect(
        lines.every(
          (line) => line.text === `ação ✓ 😀 ${'x'.repeat(line.n % 50)}` && line.msg === 'line',
        ),
      ).toBe(true);
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

describe('the warnings tap', () => {
  it('hands on each warning and error of the logger and its children, as written (redacted), and every line to the destination', () => {
    const { parent, lines, make } = capture('info');
    const before = parent.child({ part: 'made before' });
    const tapped: { line: Record<string, unknown>; level: number }[] = [];
    const untap = tapWarnings(parent, (line, level) =>
      tapped.push({ line: JSON.parse(line), level }),
    );
    parent.info('an info line');
    before.warn({ password: 'hunter2' }, 'a warning');
    make().error({ err: new Error('boom') }, 'a request failed');
    parent.child({ part: 'made after' }).fatal('the end');
    parent.debug('below the level');
    expect(
      tapped.map(({ line, level }) => [level, line.msg, line.part ?? line.reqId ?? null]),
    ).toEqual([
      [40, 'a warning', 'made before'],
      [50, 'a request failed', 'req-7'],
      [60, 'the end', 'made after'],
    ]);
    expect(tapped[0]!.line.password).toBe('[redacted]');
    expect(lines.map((line) => line.msg)).toEqual([
      'an info line',
      'a warning',
      'a request failed',
      'the end',
    ]);

    untap();
    parent.error('after the tap');
    before.warn('after the tap too');
    expect(tapped).toHaveLength(3);
    expect(lines).toHaveLength(6);
  });

  it("keeps the destination's flush, and the metadata a multistream reads", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'contrateia-log-'));
    const fd = fs.openSync(path.join(dir, 'out.log'), 'w');
    try {
      const logger = pino(
        loggerOptions('info'),
        batchedDestination({ dest: fd, minLength: 4096, periodicFlush: 60_000 }),
      );
      const tapped: string[] = [];
      tapWarnings(logger, (line) => tapped.push(line));
      logger.warn('kept');
      await new Promise<void>((resolve, reject) =>
        logger.flush((error) => (error ? reject(error) : resolve())),
      );
      expect(fs.readFileSync(path.join(dir, 'out.log'), 'utf8')).toContain('"msg":"kept"');
      expect(tapped).toHaveLength(1);

      const seen: { level: number; msg: string }[] = [];
      const multi = pino.multistream([
        {
          level: 'info',
          stream: {
            write: (line: string) => void seen.push({ level: 30, msg: JSON.parse(line).msg }),
          },
        },
        {
          level: 'error',
          stream: {
            write: (line: string) => void seen.push({ level: 50, msg: JSON.parse(line).msg }),
          },
        },
      ]);
      const viaMulti = pino(loggerOptions('info'), multi);
      tapWarnings(viaMulti, () => {});
      viaMulti.info('to one');
      viaMulti.error('to both');
      expect(seen).toEqual([
        { level: 30, msg: 'to one' },
        { level: 30, msg: 'to both' },
        { level: 50, msg: 'to both' },
      ]);
    } finally {
      fs.closeSync(fd);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('leaves a logger that is not pino alone', () => {
    const plain = {
      level: 'info',
      info: () => {},
      child: () => plain,
    } as unknown as FastifyBaseLogger;
    expect(() => tapWarnings(plain, () => {})()).not.toThrow();
  });
});
