import type { SeededAgentName } from '@contrateia/shared';
import type { ReactNode } from 'react';
import { Icon } from '@/components/ui/icons';
import { cx } from '@/lib/cx';

/** Each seeded agent's picture: an icon of what it does, on a colour of its own. */
const AVATARS: Record<SeededAgentName, ReactNode> = {
  // A compass: the guide.
  guia: (
    <>
      <circle cx="12" cy="12" r="9" />
      <path d="M15.5 8.5l-2 5-5 2 2-5 5-2z" />
    </>
  ),
  // A sparkle: the general assistant.
  assistente: <path d="M12 3l1.9 5.6L19.5 10.5l-5.6 1.9L12 18l-1.9-5.6L4.5 10.5l5.6-1.9L12 3z" />,
  // A shopping bag: products and services.
  auxtrat: (
    <>
      <path d="M5 8h14l-1 12H6L5 8z" />
      <path d="M9 8V6a3 3 0 0 1 6 0v2" />
    </>
  ),
  // A shield: system administration.
  administrador: <path d="M12 3l7 3v5c0 4.5-3 8-7 10-4-2-7-5.5-7-10V6l7-3z" />,
  // A sealed envelope: anonymous messages.
  indirect: (
    <>
      <rect x="3" y="5" width="18" height="14" rx="2" />
      <path d="M3 7l9 6 9-6" />
    </>
  ),
};

function isSeeded(name: string): name is SeededAgentName {
  return Object.hasOwn(AVATARS, name);
}

/**
 * An agent's avatar: the seeded agents each have their own icon and colour; any other agent gets
 * its initial on the generic colour. Decorative: the agent's name is beside it.
 */
export function AgentAvatar({ name, displayName }: { name: string; displayName: string }) {
  const seeded = isSeeded(name);
  return (
    <span
      className={cx('chat__avatar', `chat__avatar--${seeded ? name : 'other'}`)}
      aria-hidden="true"
      data-agent-avatar={seeded ? name : 'other'}
    >
      {seeded ? (
        <Icon strokeWidth="1.8">{AVATARS[name]}</Icon>
      ) : (
        displayName.charAt(0).toUpperCase()
      )}
    </span>
  );
}
