import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';

/** The render fallback ('Something went wrong'), with a way out. */
export function ErrorFallback() {
  const { t } = useTranslation();
  return (
    <main className="error-fallback">
      <div role="alert">
        <h1>{t('errorBoundary.title')}</h1>
        <p>{t('errorBoundary.description')}</p>
      </div>
      <Button onClick={() => window.location.reload()}>{t('errorBoundary.reload')}</Button>
    </main>
  );
}

/**
 * Catches render errors, including a page chunk that fails to load (say, after a deploy
 * replaced it); reloading fetches the current one. `fallback` replaces the whole-page one for a
 * part of a page (the admin panel's).
 */
export class ErrorBoundary extends Component<
  { children: ReactNode; fallback?: ReactNode },
  { failed: boolean }
> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error(error, info.componentStack);
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return this.props.fallback ?? <ErrorFallback />;
  }
}
