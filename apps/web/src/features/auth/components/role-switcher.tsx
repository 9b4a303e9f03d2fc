import { roleSchema, type Role, type User } from '@contrateia/shared';
import { useTranslation } from 'react-i18next';
import { LiveMessage } from '@/components/ui/live-message';
import { useSwitchRole } from '@/features/auth/api/switch-role';
import { ROLE_ERROR_MS, SUCCESS_MESSAGE_MS, useTimedMessage } from '@/hooks/use-timed-message';
import { errorMessage } from '@/lib/api-client';
import { cx } from '@/lib/cx';
import '@/features/auth/account.css';

/**
 * Admin mode / user mode for accounts whose originalRole is admin. The pressed button is the mode
 * indicator: admin green, user blue.
 */
export function RoleSwitcher({ user }: { user: User }) {
  const { t } = useTranslation();
  const switchRole = useSwitchRole();
  const success = useTimedMessage(SUCCESS_MESSAGE_MS);
  const failure = useTimedMessage(ROLE_ERROR_MS);

  const handleSwitch = (targetRole: Role) => {
    // The current mode is not re-requested: the server would only answer 'Already in … mode'.
    if (targetRole === user.role || switchRole.isPending) return;
    success.clear();
    failure.clear();
    switchRole.mutate(
      { targetRole },
      {
        onSuccess: ({ message }) => success.show(message),
        onError: (error) => failure.show(errorMessage(error, { failed: t('roleSwitch.failed') })),
      },
    );
  };

  return (
    <div className="role-switcher">
      <div className="segmented" role="group" aria-label={t('roleSwitch.label')}>
        {roleSchema.options.map((role) => (
          <button
            key={role}
            type="button"
            className={cx('segmented__option', `segmented__option--${role}`)}
            aria-pressed={role === user.role}
            onClick={() => handleSwitch(role)}
          >
            {t(`roleSwitch.${role}`)}
          </button>
        ))}
      </div>
      <div className="toast-region">
        <LiveMessage tone="success" message={success.message} />
        <LiveMessage tone="error" message={failure.message} />
      </div>
    </div>
  );
}
