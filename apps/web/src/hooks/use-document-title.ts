import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppTexts } from '@/hooks/use-public-settings';

/** Sets the tab title to "<page> · <app title>" in the current language (the admin's title, or ContrateIA). */
export function useDocumentTitle(page: string) {
  const { t } = useTranslation();
  const { appTitle } = useAppTexts();
  const title = t('app.pageTitle', { page, app: appTitle });
  useEffect(() => {
    document.title = title;
  }, [title]);
}
