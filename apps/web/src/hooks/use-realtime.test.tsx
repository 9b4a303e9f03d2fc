// @vitest-environment happy-dom
import { act, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { RealtimeContext, useRealtimeEvent, useRealtimeStatus } from '@/hooks/use-realtime';
import { createRealtimeClient, type RealtimeClient } from '@/lib/realtime';
import { saveSession } from '@/lib/session';
import { userFixture } from '@/test/fixtures';
import { startSocketServer } from '@/test/socket-server';

let server: Awaited<ReturnType<typeof startSocketServer>>;
let client: RealtimeClient;

beforeEach(async () => {
  server = await startSocketServer();
  server.valid.add('token-a');
  saveSession({ token: 'token-a', user: userFixture() });
  client = createRealtimeClient({ url: server.url });
});
afterEach(async () => {
  await server.close();
});

function Phone() {
  const [phone, setPhone] = useState('none');
  useRealtimeEvent('whatsapp:ready', (payload) => setPhone(payload.phone));
  const status = useRealtimeStatus();
  return (
    <p>
      {status} {phone}
    </p>
  );
}

it('shows the connection state and each event while mounted, and closes the connection when unmounted', async () => {
  const joined = server.nextJoin();
  const view = render(
    <RealtimeContext.Provider value={client}>
      <Phone />
    </RealtimeContext.Provider>,
  );
  expect(screen.getByText('connecting none')).toBeInTheDocument();
  // Socket events update state outside React's knowledge: each wait is inside act().
  const { socket } = await act(() => joined);
  expect(screen.getByText('connected none')).toBeInTheDocument();

  await act(async () => {
    const arrived = new Promise<void>((resolve) => {
      const stop = client.subscribe('whatsapp:ready', () => {
        stop();
        resolve();
      });
    });
    server.emitTo('token-a', '5511');
    await arrived;
  });
  expect(screen.getByText('connected 5511')).toBeInTheDocument();

  const gone = new Promise((resolve) => socket.once('disconnect', resolve));
  view.unmount();
  await gone;
  expect(client.getStatus()).toBe('idle');
});
