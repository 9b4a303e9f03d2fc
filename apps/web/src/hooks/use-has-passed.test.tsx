// @vitest-environment happy-dom
import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { useHasPassed } from '@/hooks/use-has-passed';

beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2026-11-29T14:18:00Z') });
});
afterEach(() => {
  vi.useRealTimers();
});

function Pause({ until }: { until: string | null }) {
  return <p>{useHasPassed(until) ? 'answering' : `paused until ${until}`}</p>;
}

it('is false until the moment, and turns true at it on its own', () => {
  render(<Pause until="2026-11-29T14:48:00Z" />);
  expect(screen.getByText('paused until 2026-11-29T14:48:00Z')).toBeTruthy();
  act(() => vi.advanceTimersByTime(30 * 60_000 - 1));
  expect(screen.getByText('paused until 2026-11-29T14:48:00Z')).toBeTruthy();
  act(() => vi.advanceTimersByTime(1));
  expect(screen.getByText('answering')).toBeTruthy();
});

it('is true for a moment gone or none, and follows a new moment', () => {
  const { rerender } = render(<Pause until="2026-11-29T14:00:00Z" />);
  expect(screen.getByText('answering')).toBeTruthy();
  rerender(<Pause until={null} />);
  expect(screen.getByText('answering')).toBeTruthy();
  rerender(<Pause until="2026-11-29T15:00:00Z" />);
  expect(screen.getByText('paused until 2026-11-29T15:00:00Z')).toBeTruthy();
  act(() => vi.advanceTimersByTime(42 * 60_000));
  expect(screen.getByText('answering')).toBeTruthy();
});

it('waits past setTimeout’s longest delay in steps, not firing early', () => {
  render(<Pause until="2027-01-29T14:18:00Z" />);
  act(() => vi.advanceTimersByTime(2 ** 31));
  expect(screen.getByText('paused until 2027-01-29T14:18:00Z')).toBeTruthy();
  act(() => vi.advanceTimersByTime(62 * 24 * 3600_000));
  expect(screen.getByText('answering')).toBeTruthy();
});
