import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { ADMIN_TABS, type AdminTabId } from '@/features/admin/admin-tabs';
import { RecentAudit } from '@/features/admin/components/recent-audit';
import { panelId, tabId, TabList } from '@/features/admin/components/tab-list';
import '@/features/admin/admin.css';

const TAB_PREFIX = 'admin';

/**
 * The admin panel: a tab per section (features/admin/admin-tabs.ts). The tab is in the address
 * (`/admin?tab=theme`), so a reload or a link opens it; a tab opened once stays mounted while
 * hidden, so its unsaved edits survive a look at another tab. The recent changes (the audit) follow
 * the tabs.
 */
export function AdminPanel({ userId }: { userId: string }) {
  const { t } = useTranslation();
  // useLocation rather than useSearchParams: that one would add its code to every page's download.
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const requested = new URLSearchParams(search).get('tab');
  const current = ADMIN_TABS.find((tab) => tab.id === requested) ?? ADMIN_TABS[0];
  const [opened, setOpened] = useState<ReadonlySet<AdminTabId>>(() => new Set([current.id]));
  if (!opened.has(current.id)) setOpened(new Set(opened).add(current.id));

  const handleSelect = (id: AdminTabId) => {
    const next = new URLSearchParams(search);
    next.set('tab', id);
    // Going through tabs is not a trail of pages for Back.
    void navigate({ pathname, search: `?${next.toString()}` }, { replace: true });
  };

  return (
    <div className="admin">
      <div className="admin__header">
        <h1 className="admin__title">{t('panel.title')}</h1>
        <p className="admin__intro">{t('panel.intro')}</p>
      </div>
      <TabList
        items={ADMIN_TABS.map((tab) => ({ id: tab.id, label: t(tab.label) }))}
        selected={current.id}
        onSelect={handleSelect}
        label={t('panel.tabsLabel')}
        prefix={TAB_PREFIX}
        className="admin-tabs--panel"
      />
      {ADMIN_TABS.map(({ id, component: Tab }) => (
        <div
          key={id}
          role="tabpanel"
          id={panelId(TAB_PREFIX, id)}
          aria-labelledby={tabId(TAB_PREFIX, id)}
          hidden={id !== current.id}
          className="admin__panel"
        >
          {opened.has(id) && <Tab userId={userId} />}
        </div>
      ))}
      <RecentAudit />
    </div>
  );
}
