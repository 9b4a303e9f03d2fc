import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/** Sets the tab title to "<page> · ContrateIA" in the current language. */
export function useDocumentTitle(page: string) {
  const { t } = useTranslation();
  const title = t('app.pageTitle', { page });
  useEffect(() => {
    document.title = title;
  }, [title]);
}
