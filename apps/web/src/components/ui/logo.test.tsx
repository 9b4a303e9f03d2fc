// @vitest-environment happy-dom
import fs from 'node:fs';
import path from 'node:path';
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Logo } from '@/components/ui/logo';

// The logo follows the admin's theme, whose colours /theme.css sets as the design tokens
// --color-primary and --color-secondary (admin.settings.ts THEME_PROPERTIES).

describe('the logo', () => {
  it("is drawn in the theme's primary and secondary colours, never a fixed one", () => {
    const css = fs.readFileSync(path.join(import.meta.dirname, 'ui.css'), 'utf8');
    const rule = /\.logo \{([^}]*)\}/.exec(css)?.[1] ?? '';
    expect(rule).toMatch(
      /linear-gradient\(135deg, var\(--color-primary\), var\(--color-secondary\)\)/,
    );
    // The bubble over it is white; no colour of the default theme is written in.
    expect(rule.replaceAll('%23fff', '')).not.toMatch(/#[0-9a-f]{3,6}\b|%23[0-9a-f]{3,6}/i);
  });

  it('is decorative, at the size asked', () => {
    const { container } = render(<Logo size={28} />);
    const logo = container.querySelector('.logo');
    expect(logo).toHaveAttribute('aria-hidden', 'true');
    expect(logo).toHaveStyle({ width: '28px', height: '28px' });
  });
});
