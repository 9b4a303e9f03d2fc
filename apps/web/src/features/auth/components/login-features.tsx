import { useTranslation } from 'react-i18next';
import { ChartIcon, ChatIcon, SlidersIcon } from '@/components/ui/icons';
import { FeaturePanel } from '@/features/auth/components/feature-panel';

/** The login page's three feature blurbs (spec §1, §2). */
export function LoginFeatures() {
  const { t } = useTranslation();
  return (
    <FeaturePanel
      title={t('login.featuresTitle')}
      items={[
        {
          icon: <ChatIcon />,
          title: t('login.features.chat.title'),
          description: t('login.features.chat.description'),
        },
        {
          icon: <ChartIcon />,
          title: t('login.features.analytics.title'),
          description: t('login.features.analytics.description'),
        },
        {
          icon: <SlidersIcon />,
          title: t('login.features.management.title'),
          description: t('login.features.management.description'),
        },
      ]}
    />
  );
}
