import { useTranslation } from 'react-i18next';
import { ChartIcon, ChatIcon, RocketIcon } from '@/components/ui/icons';
import { FeaturePanel } from '@/features/auth/components/feature-panel';

/** The register page's marketing panel: AI-Powered Chat, Smart Analytics, Easy Setup. */
export function RegisterFeatures() {
  const { t } = useTranslation();
  return (
    <FeaturePanel
      title={t('register.marketingTitle')}
      lead={t('register.marketingSubtitle')}
      items={[
        {
          icon: <ChatIcon />,
          title: t('register.marketing.chat.title'),
          description: t('register.marketing.chat.description'),
        },
        {
          icon: <ChartIcon />,
          title: t('register.marketing.analytics.title'),
          description: t('register.marketing.analytics.description'),
        },
        {
          icon: <RocketIcon />,
          title: t('register.marketing.setup.title'),
          description: t('register.marketing.setup.description'),
        },
      ]}
    />
  );
}
