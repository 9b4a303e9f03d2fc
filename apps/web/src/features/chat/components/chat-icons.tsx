import { Icon } from '@/components/ui/icons';

// The chat pages' own icons, in the chat chunk (the sign-in pages never download them).

export function StopIcon() {
  return (
    <Icon>
      <rect x="6" y="6" width="12" height="12" rx="1.5" fill="currentColor" />
    </Icon>
  );
}

export function CopyIcon() {
  return (
    <Icon>
      <rect x="9" y="9" width="12" height="12" rx="2" />
      <path d="M5 15H4a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1h10a1 1 0 0 1 1 1v1" />
    </Icon>
  );
}

export function CheckIcon() {
  return (
    <Icon>
      <path d="M5 12.5l4.5 4.5L19 7.5" />
    </Icon>
  );
}

export function PencilIcon() {
  return (
    <Icon>
      <path d="M16.5 3.5l4 4L8 20H4v-4L16.5 3.5z" />
    </Icon>
  );
}

export function TrashIcon() {
  return (
    <Icon>
      <path d="M4 7h16M10 11v6M14 11v6M6 7l1 13h10l1-13M9 7V4h6v3" />
    </Icon>
  );
}

export function HistoryIcon() {
  return (
    <Icon>
      <path d="M4 6h16M4 12h10M4 18h7" />
    </Icon>
  );
}
