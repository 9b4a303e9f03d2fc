import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { BrowserRouter } from 'react-router';
import { ErrorBoundary } from '@/app/error-boundary';
import { SessionExpiry } from '@/app/session-expiry';

export function AppProviders({
  queryClient,
  children,
}: {
  queryClient: QueryClient;
  children: ReactNode;
}) {
  return (
    <ErrorBoundary>
      <QueryClientProvider client={queryClient}>
        <BrowserRouter>
          <SessionExpiry />
          {children}
        </BrowserRouter>
      </QueryClientProvider>
    </ErrorBoundary>
  );
}
