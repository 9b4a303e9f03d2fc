import { describe, expect, it } from 'vitest';
import { createDomainEventBus } from './domain-events';

describe('domain event bus', () => {
  it('settles once every listener has handled the event, one after the other in the order they listen', async () => {
    const bus = createDomainEventBus();
    const seen: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    bus.on('user.created', async ({ userId }) => {
      await held;
      seen.push(`first ${userId}`);
    });
    bus.on('user.created', ({ userId }) => void seen.push(`second ${userId}`));
    bus.on('agent.deleted', () => void seen.push('another event'));

    let settled = false;
    const emitted = bus.emit('user.created', { userId: 'u1' }).then(() => (settled = true));
    await Promise.resolve();
    expect(seen).toEqual([]);
    expect(settled).toBe(false);
    release();
    await emitted;
    expect(seen).toEqual(['first u1', 'second u1']);
  });

  it('tells the other listeners when one fails, then rejects with its failure', async () => {
    const bus = createDomainEventBus();
    const seen: string[] = [];
    bus.on('agent.deleted', () => {
      throw new Error('release failed');
    });
    bus.on('agent.deleted', ({ agentId }) => void seen.push(agentId));
    await expect(bus.emit('agent.deleted', { agentId: 'a1' })).rejects.toThrow('release failed');
    expect(seen).toEqual(['a1']);
  });

  it('stops telling a listener once it stops listening, and an event nobody hears settles at once', async () => {
    const bus = createDomainEventBus();
    const seen: boolean[] = [];
    const stop = bus.on('ai.reply.finished', ({ ok }) => void seen.push(ok));
    await bus.emit('ai.reply.finished', { provider: 'builtin', ok: true });
    stop();
    await bus.emit('ai.reply.finished', { provider: 'builtin', ok: true });
    await bus.emit('user.created', { userId: 'u1' });
    expect(seen).toEqual([true]);
  });
});
