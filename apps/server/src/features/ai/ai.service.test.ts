import { describe, expect, it } from 'vitest';
import { trimHistory, type EngineTurn } from './ai.service';

const turn = (role: EngineTurn['role'], text: string): EngineTurn => ({ role, text });

describe('trimHistory', () => {
  const history = [
    turn('user', 'aaaa'),
    turn('assistant', 'bbbbbb'),
    turn('user', 'cc'),
    turn('assistant', 'ddd'),
  ];

  it('keeps everything that fits', () => {
    expect(trimHistory(history, 100)).toEqual(history);
    expect(trimHistory(history, 15)).toEqual(history);
  });

  it('keeps the newest turns that fit, oldest first', () => {
    expect(trimHistory(history, 14)).toEqual(history.slice(1));
    expect(trimHistory(history, 5)).toEqual(history.slice(2));
    expect(trimHistory(history, 3)).toEqual(history.slice(3));
  });

  it('cuts at the first turn that does not fit rather than leaving a hole', () => {
    const withLongMiddle = [
      turn('user', 'a'),
      turn('assistant', 'x'.repeat(50)),
      turn('user', 'b'),
    ];
    expect(trimHistory(withLongMiddle, 10)).toEqual([turn('user', 'b')]);
  });

  it('returns nothing for no budget or no history, and leaves its input alone', () => {
    expect(trimHistory(history, 0)).toEqual([]);
    expect(trimHistory(history, 2)).toEqual([]);
    expect(trimHistory([], 100)).toEqual([]);
    const copy = structuredClone(history);
    trimHistory(history, 5);
    expect(history).toEqual(copy);
  });
});
