// @vitest-environment happy-dom
import { render, screen } from '@testing-library/react';
import { lazy, Suspense, useEffect, type ComponentType } from 'react';
import { expect, it } from 'vitest';

// setup.ts waits, at each test's end, for the React.lazy chunks still loading: one that arrives
// after its test has seen the fallback renders in that test, not in whichever runs next.
let arrive: (() => void) | undefined;
let renderedAt: string | undefined;
let current = '';

function Loaded() {
  useEffect(() => {
    renderedAt = current;
  }, []);
  return <p>loaded</p>;
}

const Slow = lazy(
  () =>
    new Promise<{ default: ComponentType }>((resolve) => {
      arrive = () => resolve({ default: Loaded });
    }),
);

it('shows the fallback while a chunk loads', () => {
  current = 'first';
  render(
    <Suspense fallback={<p>loading</p>}>
      <Slow />
    </Suspense>,
  );
  expect(screen.getByText('loading')).toBeInTheDocument();
  // The chunk arrives only after this test has ended.
  setTimeout(() => arrive!(), 50);
});

it('a chunk that arrived after its test ended was rendered in that test, before its page went', () => {
  current = 'second';
  expect(renderedAt).toBe('first');
  expect(screen.queryByText('loaded')).not.toBeInTheDocument();
});
