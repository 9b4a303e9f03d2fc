import { cx } from '@/lib/cx';

/**
 * A wait state: a spinner for the eye, a status text for screen readers. Full page by default;
 * `inline` fits it inside a page or a panel.
 */
export function LoadingScreen({ label, inline = false }: { label: string; inline?: boolean }) {
  return (
    <div className={cx('loading-screen', inline && 'loading-screen--inline')} role="status">
      <span className="spinner" aria-hidden="true" />
      <span className="visually-hidden">{label}</span>
    </div>
  );
}
