// @vitest-environment happy-dom
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Logo } from '@/components/ui/logo';

// Issue 28 point 16: the logo follows the admin's theme, whose colours /theme.css sets as the
// design tokens --color-primary and --color-secondary (admin.settings.ts THEME_PROPERTIES).

describe('the logo', () => {
  it("draws its gradient and marks in the theme's primary and secondary colours", () => {
    const { container } = render(<Logo size={28} />);
    const stops = [...container.querySelectorAll('stop')].map((stop) => stop.getAttribute('style'));
    expect(stops).toEqual([
      'stop-color: var(--color-primary);',
      'stop-color: var(--color-secondary);',
    ]);
    expect(container.innerHTML).not.toMatch(/#[0-9a-f]{6}/i);
    // Decorative: the brand's text names it.
    expect(container.querySelector('svg')).toHaveAttribute('aria-hidden', 'true');
  });

  it('two logos on a page keep their own gradients', () => {
    const { container } = render(
      <>
        <Logo size={28} />
        <Logo size={32} />
      </>,
    );
    const ids = [...container.querySelectorAll('linearGradient')].map((g) => g.id);
    expect(new Set(ids).size).toBe(2);
  });
});
