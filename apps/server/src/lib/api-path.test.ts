import { describe, expect, it } from 'vitest';
import { isApiPath, isApiRoute } from './api-path';

describe('isApiPath', () => {
  it.each([
    '/api',
    '/api/user',
    '/api/user?x=1',
    '/%61pi/user',
    '/%61%70%69/nothing',
    '/api%2Fuser',
    'http://x/api/user',
    'HTTPS://x:8080/%61pi/user#top',
    'http://x/api?q=/login',
  ])('reads %s as the API', (url) => {
    expect(isApiPath(url)).toBe(true);
  });

  it.each([
    '/',
    '/login',
    '/apis',
    '/apiuser',
    '/assets/api/x.js',
    'http://x/login',
    'http://api/login',
    '/login?next=/api/user',
    '/%E0%A4%A/api',
  ])('reads %s as a page', (url) => {
    expect(isApiPath(url)).toBe(false);
  });

  it('tells routes by their declared path', () => {
    expect(isApiRoute('/api/user')).toBe(true);
    expect(isApiRoute('/theme.css')).toBe(false);
    expect(isApiRoute('/apiary')).toBe(false);
  });
});
