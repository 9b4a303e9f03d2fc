// @vitest-environment happy-dom
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ChatComposer } from '@/features/chat/components/chat-composer';
import { renderWithProviders } from '@/test/render-with-providers';

// The message box sends what the server takes: a message that shows nothing (spaces, or the
// invisible characters the shared schema refuses) is as blank as an empty one.
async function openComposer() {
  const onSend = vi.fn(() => true);
  const view = await renderWithProviders(
    <ChatComposer onSend={onSend} pending={false} label="Message" placeholder="Type here" />,
    { language: 'en-US', texts: ['app'] },
  );
  return {
    onSend,
    box: screen.getByRole('textbox', { name: 'Message' }),
    sendButton: screen.getByRole('button', { name: 'Send' }),
    ...view,
  };
}

describe('the chat message box', () => {
  it.each([
    ['spaces', '   '],
    ['zero-width characters', '\u200B\u200C\u200D\u2060\uFEFF'],
    ['zero-width characters among spaces', ' \u200B \uFEFF '],
  ])('does not send a message of %s', async (_case, text) => {
    const { onSend, box, sendButton, user } = await openComposer();
    await user.type(box, text);
    expect(box).toHaveValue(text);
    expect(sendButton).toBeDisabled();
    await user.type(box, '{Enter}');
    expect(onSend).not.toHaveBeenCalled();
    expect(box).toHaveValue(text);
  });

  it('sends a message whose text sits between invisible characters', async () => {
    const { onSend, box, sendButton, user } = await openComposer();
    await user.type(box, '\u200Bhello\u200B');
    expect(sendButton).toBeEnabled();
    await user.type(box, '{Enter}');
    expect(onSend).toHaveBeenCalledWith('\u200Bhello\u200B');
    expect(box).toHaveValue('');
  });
});
