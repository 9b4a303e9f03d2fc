import { describe, expect, it } from 'vitest';
import { markdownToPlainText } from './plain-text';

describe('markdownToPlainText', () => {
  it('drops the marks and keeps the words', () => {
    expect(
      markdownToPlainText(
        '# Title\n\nYou said: *hi* and **bold** `code`.\n\n- one\n- two\n\n[Dashboard](/dashboard)\n\n```\nx = 1\n```',
      ),
    ).toBe('Title\n\nYou said: hi and bold code.\n\none\ntwo\n\nDashboard\n\nx = 1');
  });

  it('leaves snake_case and lone asterisks alone', () => {
    expect(markdownToPlainText('use file_name_here and 2 * 3')).toBe(
      'use file_name_here and 2 * 3',
    );
  });
});
