import { describe, expect, it } from 'vitest';
import { createEngine } from './ai.providers';

describe('createEngine', () => {
  it('builds the engine AI_PROVIDER names', () => {
    expect(createEngine({ provider: 'builtin', timeoutMs: 1000 }).name).toBe('builtin');
    expect(
      createEngine({ provider: 'openai', baseUrl: 'http://127.0.0.1:1/v1', timeoutMs: 1000 }).name,
    ).toBe('openai');
  });

  it('refuses openai without a base URL', () => {
    expect(() => createEngine({ provider: 'openai', timeoutMs: 1000 })).toThrow(/AI_BASE_URL/);
  });
});
