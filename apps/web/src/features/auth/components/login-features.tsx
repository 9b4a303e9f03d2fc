import { useTranslation } from 'react-i18next';
import { ChartIcon, ChatIcon, SlidersIcon } from '@/components/ui/icons';
import { FeaturePanel } from '@/features/auth/components/feature-panel';
import { usePublicSettings, useSettingText } from '@/hooks/use-public-settings';

/** The login page's three feature blurbs, as the admin wrote them or built in. */
export function LoginFeatures() {
  const { t } = useTranslation();
  const features = usePublicSettings().data?.content.features;
  const text = useSettingText();
  return (
    <FeaturePanel
      title={t('login.featuresTitle')}
      items={[
        {
          icon: <ChatIcon />,
          title: text(features?.chat.title, t('login.features.chat.title')),
          description: text(features?.chat.description, t('login.features.chat.description')),
        },
        {
          icon: <ChartIcon />,
          title: text(features?.analytics.title, t('login.features.analytics.title')),
          description: text(
            features?.analytics.description,
            t('login.features.analytics.description'),
          ),
        },
        {
          icon: <SlidersIcon />,
          title: text(features?.management.title, t('login.features.management.title')),
          description: text(
            features?.management.description,
            t('login.features.management.description'),
          ),
        },
      ]}
    />
  );
}
