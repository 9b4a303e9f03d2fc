import { Icon } from '@/components/ui/icons';

/** How well something works: the colour and the shape of its icon (never the colour alone). */
export type Health = 'good' | 'warning' | 'bad';

/** A check, a warning triangle or a cross: decorative, since the status is always in words beside it. */
export function HealthIcon({ health }: { health: Health }) {
  return (
    <Icon className={`monitor-health-icon monitor-health-icon--${health}`}>
      {health === 'good' ? (
        <>
          <circle cx="12" cy="12" r="9" />
          <path d="M8 12.5l2.5 2.5L16 9.5" />
        </>
      ) : health === 'warning' ? (
        <>
          <path d="M12 3.5L2.5 20h19z" />
          <path d="M12 10v4M12 17h.01" />
        </>
      ) : (
        <>
          <circle cx="12" cy="12" r="9" />
          <path d="M9 9l6 6M15 9l-6 6" />
        </>
      )}
    </Icon>
  );
}

/** "Sample", beside each figure of the sample data. */
export function SampleBadge({ label }: { label: string }) {
  return <span className="badge monitor-sample-badge">{label}</span>;
}
