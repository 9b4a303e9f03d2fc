import { afterEach, describe, expect, it, vi } from 'vitest';
import { createDocumentReader } from './my-agent-documents.reader';

const text = (value: string) => new TextEncoder().encode(value);

describe('the documents reader’s time bound', () => {
  afterEach(() => vi.useRealTimers());

  it('refuses a read that runs out of time, and the reads its thread held go on, each within its own time', async () => {
    // Only the reader's timers are the test's to move: its thread reads in real time.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const reader = createDocumentReader({ timeoutMs: 1000 });
    try {
      const late = reader.read({ kind: 'text', bytes: text('Trocas em até 30 dias.') });
      vi.advanceTimersByTime(500);
      const next = reader.read({ kind: 'text', bytes: text('Entregamos em Curitiba.') });
      // The first read's time is up (its thread has not even answered yet): the thread is ended,
      // and the second read, with half its time left, is read on a new one.
      vi.advanceTimersByTime(500);
      await expect(late).rejects.toMatchObject({
        statusCode: 400,
        key: 'myAgents.documentTimeout',
      });
      await expect(next).resolves.toMatchObject({
        pages: null,
        passages: [{ text: 'Entregamos em Curitiba.' }],
      });
      // And the reader reads on.
      await expect(
        reader.read({ kind: 'markdown', bytes: text('# Horário\n\nDas 8h às 18h.') }),
      ).resolves.toMatchObject({ passages: [{ heading: 'Horário', text: 'Das 8h às 18h.' }] });
    } finally {
      await reader.close();
    }
  });
});
