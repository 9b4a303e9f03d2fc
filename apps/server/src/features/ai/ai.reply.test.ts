import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { replyToEnd, runAgentReply, type AgentReplyFinished } from './ai.reply';
import {
  DEFAULT_HISTORY_BUDGET_CHARS,
  EngineFailure,
  boundRequest,
  type AgentEngine,
  type EngineRequest,
} from './ai.service';
import { configuration } from './ai.test-fixtures';

// runAgentReply against a scripted engine: what each way a reply can end comes to for its caller.

/**
 * An engine that yields `pieces` (after reading the history within `budget`, as every engine
 * does), then throws `failure` if given; each request is kept as the engine read it.
 */
function scripted({
  pieces = [],
  failure,
  budget = DEFAULT_HISTORY_BUDGET_CHARS,
}: {
  pieces?: string[];
  failure?: Error;
  budget?: number;
}) {
  const requests: Awaited<ReturnType<typeof boundRequest>>[] = [];
  const engine: AgentEngine = {
    name: 'openai',
    async *reply(asked: EngineRequest) {
      requests.push(await boundRequest(asked, budget));
      for (const piece of pieces) yield piece;
      if (failure) throw failure;
    },
  };
  return { engine, requests };
}

function logCapture() {
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino(
    { level: 'info' },
    { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
  ) as unknown as FastifyBaseLogger;
  return { logger, lines };
}

const agent = { name: 'guide', configuration: configuration({}) };

async function run(
  engine: AgentEngine,
  options: Partial<Parameters<typeof runAgentReply>[0]> = {},
  onDelta?: () => void,
) {
  const { logger, lines } = logCapture();
  const finished: AgentReplyFinished[] = [];
  const deltas: string[] = [];
  const reply = runAgentReply({
    engine,
    logger,
    agent,
    question: 'olá',
    language: 'pt-BR',
    onFinished: (done) => finished.push(done),
    ...options,
  });
  for (;;) {
    const step = await reply.next();
    if (step.done) return { end: step.value, deltas, finished, lines };
    deltas.push(step.value);
    onDelta?.();
  }
}

describe('runAgentReply', () => {
  it('streams each piece, then answers with the whole reply, trimmed, and reports it', async () => {
    const { engine } = scripted({ pieces: ['  Olá', ', tudo bem?', ' \n'] });
    const { end, deltas, finished } = await run(engine);
    expect(deltas).toEqual(['  Olá', ', tudo bem?', ' \n']);
    expect(end).toEqual({ ending: 'answered', text: 'Olá, tudo bem?' });
    expect(finished).toEqual([{ agent: 'guide', ending: 'answered', chars: 14 }]);
  });

  it("reads the history only through the engine, with the engine's budget, and never for one that reads none", async () => {
    const read: number[] = [];
    // Three turns of 4,000 characters (each as long as a turn is read) and a short one: 12,002.
    const turns = [
      { role: 'user' as const, text: 'a'.repeat(4_000) },
      { role: 'assistant' as const, text: 'b'.repeat(4_000) },
      { role: 'user' as const, text: 'c'.repeat(4_000) },
      { role: 'assistant' as const, text: 'ok' },
    ];
    const history = async (budgetChars: number) => {
      read.push(budgetChars);
      return turns;
    };
    const model = scripted({ pieces: ['sim'] });
    await run(model.engine, { history });
    expect(read).toEqual([DEFAULT_HISTORY_BUDGET_CHARS]);
    // The engine's cut: the newest turns within its budget of 12,000.
    expect(model.requests[0]!.history).toEqual(turns.slice(1));

    const builtin = scripted({ pieces: ['sim'], budget: 0 });
    await run(builtin.engine, { history });
    expect(read).toEqual([DEFAULT_HISTORY_BUDGET_CHARS]);
    expect(builtin.requests[0]!.history).toEqual([]);
  });

  it("turns the engine's failure into a failed end, logged with its reason, and reports it", async () => {
    const failure = new EngineFailure('status-5xx', 'provider answered 500', { status: 500 });
    const { engine } = scripted({ pieces: ['half'], failure });
    const { end, deltas, finished, lines } = await run(engine);
    expect(deltas).toEqual(['half']);
    expect(end).toEqual({ ending: 'failed', failure });
    expect(finished).toEqual([
      { agent: 'guide', ending: 'failed', reason: 'status-5xx', chars: 0 },
    ]);
    expect(lines.filter((line) => line.msg === 'agent engine failed')).toEqual([
      expect.objectContaining({ reason: 'status-5xx', agent: 'guide' }),
    ]);
  });

  it('fails a reply with no text, after the caller’s format', async () => {
    const blank = await run(scripted({ pieces: [' ', '\n'] }).engine);
    expect(blank.end).toMatchObject({ ending: 'failed', failure: { reason: 'empty' } });
    expect(blank.finished).toEqual([
      { agent: 'guide', ending: 'failed', reason: 'empty', chars: 0 },
    ]);

    // Text the caller's channel shows as nothing is no reply either.
    const hidden = await run(scripted({ pieces: ['<!-- -->'] }).engine, {
      format: (text) => text.replace(/<!--.*?-->/g, '').trim(),
    });
    expect(hidden.end).toMatchObject({ ending: 'failed', failure: { reason: 'empty' } });

    const shown = await run(scripted({ pieces: ['**sim**'] }).engine, {
      format: (text) => text.replaceAll('**', '*'),
    });
    expect(shown.end).toEqual({ ending: 'answered', text: '*sim*' });
  });

  it('ends as stopped with what arrived when the signal aborts, whether the engine notices or not', async () => {
    const stop = new AbortController();
    // Stopped by its reader after the first piece (the route, when its client goes away): the
    // reply ends there, without asking the engine for more.
    const between = scripted({ pieces: ['Era uma vez ', 'e depois'] });
    const first = await run(between.engine, { signal: stop.signal }, () => stop.abort());
    expect(first.deltas).toEqual(['Era uma vez ']);
    expect(first.end).toEqual({ ending: 'stopped', text: 'Era uma vez' });
    expect(first.finished).toEqual([{ agent: 'guide', ending: 'stopped', chars: 11 }]);

    // The engine noticed first and failed as aborted: still a stop, not a failure, and not logged.
    const noticed = scripted({
      pieces: ['Era'],
      failure: new EngineFailure('aborted', 'The request was aborted'),
    });
    const second = await run(noticed.engine, { signal: AbortSignal.abort() });
    expect(second.end).toEqual({ ending: 'stopped', text: 'Era' });
    expect(second.lines.filter((line) => line.msg === 'agent engine failed')).toEqual([]);

    // Nothing had arrived: kept all the same (the question was asked).
    const silent = scripted({ failure: new EngineFailure('aborted', 'The request was aborted') });
    expect((await run(silent.engine, { signal: AbortSignal.abort() })).end).toEqual({
      ending: 'stopped',
      text: '',
    });
  });

  it('lets any other error through, as a bug rather than a provider failure', async () => {
    const { engine } = scripted({ failure: new TypeError('bug') });
    await expect(run(engine)).rejects.toThrow('bug');
  });

  it('replyToEnd runs a reply to its end for a caller that wants only the whole', async () => {
    const { logger } = logCapture();
    const reply = runAgentReply({
      engine: scripted({ pieces: ['um', ' dois'] }).engine,
      logger,
      agent,
      question: 'conte',
      language: 'pt-BR',
    });
    expect(await replyToEnd(reply)).toEqual({ ending: 'answered', text: 'um dois' });
  });
});
