import type { Language } from '@contrateia/shared/i18n/languages';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { render, type RenderResult } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import i18next from 'i18next';
import { StrictMode, type ReactElement } from 'react';
import { MemoryRouter, Route, Routes, useLocation, type Location } from 'react-router';
import { onTestFinished } from 'vitest';
import { SessionExpiry } from '@/app/session-expiry';
import { RealtimeContext } from '@/hooks/use-realtime';
import { texts as imagesTexts } from '@/app/routes/images';
import { texts as logsTexts } from '@/app/routes/logs';
import { texts as monitorTexts } from '@/app/routes/monitor';
import { texts as myAgentsTexts } from '@/app/routes/my-agents';
import { initI18n, loadTexts, registerPageTexts, switchLanguage, type TextGroup } from '@/lib/i18n';
import { createQueryClient } from '@/lib/query-client';
import type { RealtimeClient } from '@/lib/realtime';

/**
 * Puts the interface in `language` the way the app does: the first call starts i18n from the
 * stored choice (main.tsx's initI18n), later ones switch as the language selector does.
 */
export async function setLanguage(language: Language): Promise<void> {
  if (!i18next.isInitialized) {
    window.localStorage.setItem('language', language);
    await initI18n();
  } else {
    await switchLanguage(language);
  }
  if (i18next.language !== language) throw new Error(`i18n did not switch to ${language}`);
}

/** The app's query client (createQueryClient), without retries, so a failure shows at once. */
function createTestQueryClient(): QueryClient {
  const client = createQueryClient();
  const defaults = client.getDefaultOptions();
  client.setDefaultOptions({ ...defaults, queries: { ...defaults.queries, retry: false } });
  return client;
}

/** Stands in for every page but the one under test, so a test can see where navigation led. */
function OtherPage() {
  const { pathname } = useLocation();
  return <h1>{`Stand-in page at ${pathname}`}</h1>;
}

export interface RenderOptions {
  /** The interface language; pt-BR, the app's default, unless given. */
  language?: Language;
  /** Where the page is opened; `ui` is the page at this path and every other path is a stand-in. */
  route?: string;
  /** The history state the page is opened with (a message a previous page handed over). */
  routeState?: unknown;
  /** The route pattern `ui` is served at, for a page that reads its parameters (`/agent/:name`); `route`'s path unless given. */
  path?: string;
  /**
   * The groups of texts `ui` shows beyond those every page has, loaded as its route loader in
   * app/router.tsx does: `app` for the signed-in pages and what is in them, `account` for
   * /profile and /forgot-password.
   */
  texts?: readonly (TextGroup | PageTextGroup)[];
  /**
   * The realtime connection the page uses (a fake server's client, test/fake-realtime.ts); the
   * page's own otherwise, which has no server to reach in a test.
   */
  realtime?: RealtimeClient;
}

/** The pages' own texts, which their route modules bring (app/router.tsx withPageTexts). */
const PAGE_TEXTS = {
  monitor: monitorTexts,
  images: imagesTexts,
  logs: logsTexts,
  'my-agents': myAgentsTexts,
};
type PageTextGroup = keyof typeof PAGE_TEXTS;
for (const [name, loaders] of Object.entries(PAGE_TEXTS)) registerPageTexts(name, loaders);

export interface RenderWithProvidersResult extends RenderResult {
  user: UserEvent;
  queryClient: QueryClient;
  /** The router's current location (after any navigation, with its state). */
  location: () => Location;
}

/**
 * Renders `ui` in what main.tsx and app/providers.tsx wrap the app in: StrictMode, a fresh
 * TanStack Query client, i18n in `language` (with the `texts` groups), a router (in memory,
 * opened at `route`) and the session-expiry handler. The ErrorBoundary is left out on purpose: a
 * render error should fail the test with its own stack, not show the fallback.
 */
export async function renderWithProviders(
  ui: ReactElement,
  { language = 'pt-BR', route = '/', routeState, path, texts = [], realtime }: RenderOptions = {},
): Promise<RenderWithProvidersResult> {
  await setLanguage(language);
  await Promise.all(texts.map((group) => loadTexts(group, language)));
  const queryClient = createTestQueryClient();
  onTestFinished(() => queryClient.clear());

  let location: Location | undefined;
  function LocationProbe() {
    location = useLocation();
    return null;
  }

  // No pause between keystrokes: each event is already wrapped in act(), so nothing is missed.
  const user = userEvent.setup({ delay: null });
  const { pathname, search, hash } = new URL(route, window.location.origin);
  const entry = routeState === undefined ? route : { pathname, search, hash, state: routeState };
  const routes = (
    <MemoryRouter initialEntries={[entry]}>
      <SessionExpiry />
      <LocationProbe />
      <Routes>
        <Route path={path ?? pathname} element={ui} />
        <Route path="*" element={<OtherPage />} />
      </Routes>
    </MemoryRouter>
  );
  const result = render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        {realtime ? (
          <RealtimeContext.Provider value={realtime}>{routes}</RealtimeContext.Provider>
        ) : (
          routes
        )}
      </QueryClientProvider>
    </StrictMode>,
  );

  return {
    ...result,
    user,
    queryClient,
    location: () => {
      if (!location) throw new Error('The router has not rendered');
      return location;
    },
  };
}
