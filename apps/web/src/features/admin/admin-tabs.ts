import type { ParseKeys } from 'i18next';
import type { ComponentType } from 'react';
import { AgentManagementTab } from '@/features/admin/components/agent-management-tab';
import { AiTab } from '@/features/admin/components/ai-tab';
import { ContentTab } from '@/features/admin/components/content-tab';
import { SystemTab } from '@/features/admin/components/system-tab';
import { ThemeTab } from '@/features/admin/components/theme-tab';
import { UsersTab } from '@/features/admin/components/users-tab';

export interface AdminTab {
  /** In the address: /admin?tab=<id>. */
  id: string;
  /** The tab's name (a key of the `admin` texts). */
  label: ParseKeys;
  /** Given the signed-in admin's id: the Users tab marks that row as theirs. */
  component: ComponentType<{ userId: string }>;
}

/**
 * The admin panel's tabs, in order: content, theme, system settings and agent management, then the
 * accounts and the language model. A tab is one line here.
 */
export const ADMIN_TABS = [
  { id: 'content', label: 'panel.tabs.content', component: ContentTab },
  { id: 'theme', label: 'panel.tabs.theme', component: ThemeTab },
  { id: 'system', label: 'panel.tabs.system', component: SystemTab },
  { id: 'agents', label: 'panel.tabs.agents', component: AgentManagementTab },
  { id: 'users', label: 'panel.tabs.users', component: UsersTab },
  { id: 'ai', label: 'panel.tabs.ai', component: AiTab },
] as const satisfies readonly AdminTab[];

export type AdminTabId = (typeof ADMIN_TABS)[number]['id'];
