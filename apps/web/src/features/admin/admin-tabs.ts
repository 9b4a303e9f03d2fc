import type { ParseKeys } from 'i18next';
import type { ComponentType } from 'react';
import { ContentTab } from '@/features/admin/components/content-tab';
import { SystemTab } from '@/features/admin/components/system-tab';
import { ThemeTab } from '@/features/admin/components/theme-tab';

export interface AdminTab {
  /** In the address: /admin?tab=<id>. */
  id: string;
  /** The tab's name (a key of the `admin` texts). */
  label: ParseKeys;
  component: ComponentType;
}

/**
 * The admin panel's tabs, in order (spec §2 Admin, issue 11): a tab is one line here. Agent
 * Management, Users and AI are added the same way (components/agent-management-tab.tsx,
 * users-tab.tsx, ai-tab.tsx).
 */
export const ADMIN_TABS = [
  { id: 'content', label: 'panel.tabs.content', component: ContentTab },
  { id: 'theme', label: 'panel.tabs.theme', component: ThemeTab },
  { id: 'system', label: 'panel.tabs.system', component: SystemTab },
] as const satisfies readonly AdminTab[];

export type AdminTabId = (typeof ADMIN_TABS)[number]['id'];
