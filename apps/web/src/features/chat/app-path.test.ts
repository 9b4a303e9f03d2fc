import { describe, expect, it } from 'vitest';
import { isAppPath } from './app-path';

describe('isAppPath', () => {
  it('accepts paths of this app', () => {
    expect(isAppPath('/dashboard')).toBe(true);
    expect(isAppPath('/guia?x=1#y')).toBe(true);
    expect(isAppPath('/')).toBe(true);
  });

  it('refuses other hosts, schemes and relative links', () => {
    for (const href of [
      '//evil.example',
      '/\\evil.example',
      'https://example.com',
      'mailto:a@b.c',
      'dashboard',
      '',
    ]) {
      expect(isAppPath(href), href).toBe(false);
    }
  });
});
