// @vitest-environment happy-dom
import type { User } from '@contrateia/shared';
import { screen } from '@testing-library/react';
import type { ReactElement } from 'react';
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { GuestOnly, RootRedirect } from '@/app/guards';
import { RootLayout } from '@/app/root-layout';
import { startFakeServer } from '@/test/fake-server';
import { userFixture } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render-with-providers';

// Where `/`, and /login while signed in, lead, for everyone and for an account an admin made for
// one agent. The page the redirect reaches is a stand-in that names its path.

/**
 * Opens `ui` at `route` signed in as `account`, under the root layout that holds every route
 * until the stored token is checked (as app/router.tsx does), and waits for the page it leads to.
 */
async function landingOf(ui: ReactElement, route: string, account: User): Promise<string> {
  const server = startFakeServer();
  window.localStorage.setItem('token', 'token-da-ana');
  server.on('GET /api/user', () => ({ user: account }));
  const page = (
    <Routes>
      <Route element={<RootLayout />}>
        <Route index element={ui} />
      </Route>
    </Routes>
  );
  const { location } = await renderWithProviders(page, { route });
  await screen.findByRole('heading', { name: /^Stand-in page at / });
  return location().pathname;
}

describe.each([
  { account: 'everyone', user: userFixture(), root: '/guia', signedIn: '/dashboard' },
  {
    account: 'a single-agent account',
    user: userFixture({ singleAgentName: 'auxtrat' }),
    root: '/auxtrat',
    signedIn: '/auxtrat',
  },
  {
    account: 'a single-agent account of an agent the admin added',
    user: userFixture({ singleAgentName: 'loja-centro' }),
    root: '/agent/loja-centro',
    signedIn: '/agent/loja-centro',
  },
])('signed in, $account', ({ user, root, signedIn }) => {
  it(`goes from / to ${root}`, async () => {
    expect(await landingOf(<RootRedirect />, '/', user)).toBe(root);
  });

  it(`goes from /login to ${signedIn}`, async () => {
    expect(await landingOf(<GuestOnly />, '/login', user)).toBe(signedIn);
  });
});
