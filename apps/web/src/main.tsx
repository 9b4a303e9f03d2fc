import '@/lib/zod-config';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppProviders } from '@/app/providers';
import { AppRoutes } from '@/app/router';
import { initI18n } from '@/lib/i18n';
import { createQueryClient } from '@/lib/query-client';
import '@/styles/global.css';
import '@/components/ui/ui.css';

async function start() {
  try {
    // Before the first render: it may rewrite the URL (drops `?lang=`) and the texts must be ready.
    await initI18n();
  } catch (error) {
    console.error('i18n failed to start', error);
  }

  const root = document.getElementById('root');
  if (!root) throw new Error('index.html has no #root');
  createRoot(root).render(
    <StrictMode>
      <AppProviders queryClient={createQueryClient()}>
        <AppRoutes />
      </AppProviders>
    </StrictMode>,
  );
}

void start();
