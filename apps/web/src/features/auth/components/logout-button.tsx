import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { useLogout } from '@/features/auth/api/logout';

export function LogoutButton() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const logout = useLogout();
  return (
    <Button
      variant="secondary"
      disabled={logout.isPending}
      onClick={() =>
        logout.mutate(undefined, { onSettled: () => void navigate('/login', { replace: true }) })
      }
    >
      {t('header.logout')}
    </Button>
  );
}
