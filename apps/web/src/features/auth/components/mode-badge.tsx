import type { Role } from '@contrateia/shared';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';

/** The current mode at a glance: admin green, user blue. */
export function ModeBadge({ role }: { role: Role }) {
  const { t } = useTranslation();
  return <Badge tone={role === 'admin' ? 'success' : 'info'}>{t(`roleSwitch.${role}`)}</Badge>;
}
