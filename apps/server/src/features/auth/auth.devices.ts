import Bowser from 'bowser';
import type { SessionInfo } from '@contrateia/shared';

/**
 * The device a session was opened on, read from its stored User-Agent with Bowser (kept up to date
 * with new browsers and systems, unlike a hand-written pattern list). Parsed here rather than in
 * the browser so the web app ships no parser and every client (web, a future app) shows the same.
 */
export function describeDevice(
  userAgent: string | null,
): Pick<SessionInfo, 'browser' | 'os' | 'deviceType'> {
  if (!userAgent) return { browser: null, os: null, deviceType: 'other' };
  const parsed = Bowser.parse(userAgent);
  const join = (name?: string, version?: string) =>
    name ? [name, version].filter(Boolean).join(' ') : null;
  const majorVersion = parsed.browser.version?.split('.')[0];
  const type = parsed.platform.type;
  return {
    browser: join(parsed.browser.name, majorVersion),
    os: join(parsed.os.name, parsed.os.versionName ?? parsed.os.version),
    deviceType: type === 'desktop' || type === 'mobile' || type === 'tablet' ? type : 'other',
  };
}
