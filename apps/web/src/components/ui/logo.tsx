import { useId } from 'react';

/**
 * The app's mark (public/favicon.svg's drawing) in the admin's theme: its gradient and marks are
 * the theme's primary and secondary colours, the design tokens /theme.css sets, so it follows a
 * theme change as the rest of the page does. Decorative: the brand's text beside it names it.
 */
export function Logo({ size }: { size: number }) {
  // An id per logo: two on one page must not share (or override) one gradient.
  const gradientId = useId();
  return (
    <svg
      className="logo"
      viewBox="0 0 64 64"
      width={size}
      height={size}
      aria-hidden="true"
      focusable="false"
    >
      <defs>
        <linearGradient id={gradientId} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" style={{ stopColor: 'var(--color-primary)' }} />
          <stop offset="1" style={{ stopColor: 'var(--color-secondary)' }} />
        </linearGradient>
      </defs>
      <rect width="64" height="64" rx="14" fill={`url(#${gradientId})`} />
      <path
        d="M16 22a6 6 0 0 1 6-6h20a6 6 0 0 1 6 6v13a6 6 0 0 1-6 6H30l-9 7v-7a6 6 0 0 1-5-6z"
        fill="#fff"
      />
      <g fill="var(--color-secondary)">
        <circle cx="25" cy="28.5" r="2.6" />
        <circle cx="32" cy="28.5" r="2.6" />
        <circle cx="39" cy="28.5" r="2.6" />
      </g>
    </svg>
  );
}
