import { cx } from '@/lib/cx';

export type MessageTone = 'success' | 'error';

/**
 * A message in a live region. The region is always rendered, even empty, because screen
 * readers announce changes to an existing region more reliably than a newly inserted one.
 */
export function LiveMessage({
  tone,
  message,
  className,
}: {
  tone: MessageTone;
  message: string | null | undefined;
  className?: string;
}) {
  return (
    <div role={tone === 'error' ? 'alert' : 'status'} className={cx('live-message', className)}>
      {message && <p className={`alert alert--${tone}`}>{message}</p>}
    </div>
  );
}
