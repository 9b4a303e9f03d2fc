import type { DeleteAccountInput } from '@contrateia/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { LiveMessage } from '@/components/ui/live-message';
import { TextField } from '@/components/ui/text-field';
import { deleteAccountResolver } from '@/features/auth/account-validation';
import {
  useArchiveLink,
  useDeleteAccount,
  useExportAccountData,
} from '@/features/auth/api/account-data';
import { userQueryKey } from '@/features/auth/api/get-user';
import { ApiError, errorMessage } from '@/lib/api-client';
import { applyServerErrors, useFieldErrorText } from '@/lib/form-errors';
import { clearSession } from '@/lib/session';

/**
 * LGPD: "Download my data" (the JSON, or a ZIP of it with the files of the WhatsApp conversations) and
 * "Delete my account" (password required).
 */
export function AccountData({ onDeleted }: { onDeleted: (message: string) => void }) {
  const { t } = useTranslation();
  const exporter = useExportAccountData();
  const archiveLink = useArchiveLink();
  const [deleting, setDeleting] = useState(false);
  const [generalError, setGeneralError] = useState<string | null>(null);
  const [started, setStarted] = useState<string | null>(null);

  const handleDownload = async () => {
    setGeneralError(null);
    setStarted(null);
    try {
      const data = await exporter.mutateAsync();
      const url = URL.createObjectURL(
        new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }),
      );
      const link = document.createElement('a');
      link.href = url;
      link.download = `contrateia-${data.account.username}.json`;
      link.click();
      // After the click has handed the file to the browser.
      setTimeout(() => URL.revokeObjectURL(url), 0);
    } catch (error) {
      setGeneralError(errorMessage(error, { failed: t('profile.failed') }));
    }
  };

  // The ZIP may be gigabytes: the browser downloads it from a short-lived address of this session
  // straight to disk, instead of the page holding it as it does the JSON.
  const handleDownloadArchive = async () => {
    setGeneralError(null);
    setStarted(null);
    try {
      const { url } = await archiveLink.mutateAsync();
      const link = document.createElement('a');
      link.href = url;
      // The server names the file (Content-Disposition); this keeps the page where it is.
      link.download = '';
      link.click();
      setStarted(t('profile.archiveStarted'));
    } catch (error) {
      setGeneralError(errorMessage(error, { failed: t('profile.failed') }));
    }
  };

  return (
    <section className="profile-data" aria-labelledby="profile-data-title">
      <h2 id="profile-data-title" className="profile-card__title">
        {t('profile.dataTitle')}
      </h2>
      <p className="profile-card__intro">{t('profile.dataIntro')}</p>
      <LiveMessage tone="error" message={generalError} />
      <LiveMessage tone="success" message={started} />
      <div className="profile-data__actions">
        <Button
          variant="secondary"
          disabled={exporter.isPending}
          onClick={() => void handleDownload()}
        >
          {exporter.isPending ? t('profile.preparing') : t('profile.download')}
        </Button>
        <Button
          variant="secondary"
          disabled={archiveLink.isPending}
          onClick={() => void handleDownloadArchive()}
        >
          {archiveLink.isPending ? t('profile.preparing') : t('profile.downloadArchive')}
        </Button>
        <Button variant="secondary" className="btn--danger" onClick={() => setDeleting(true)}>
          {t('profile.delete')}
        </Button>
      </div>
      {deleting && <DeleteAccountDialog onClose={() => setDeleting(false)} onDeleted={onDeleted} />}
    </section>
  );
}

function DeleteAccountDialog({
  onClose,
  onDeleted,
}: {
  onClose: () => void;
  onDeleted: (message: string) => void;
}) {
  const { t } = useTranslation();
  const fieldErrorText = useFieldErrorText();
  const queryClient = useQueryClient();
  const remove = useDeleteAccount();
  const [generalError, setGeneralError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<DeleteAccountInput>({
    resolver: deleteAccountResolver,
    defaultValues: { password: '' },
    reValidateMode: 'onSubmit',
  });

  const handleDelete = handleSubmit(async (input) => {
    setGeneralError(null);
    try {
      const { message } = await remove.mutateAsync(input);
      // The account is gone: nothing of it may stay in this browser.
      clearSession();
      queryClient.removeQueries();
      queryClient.setQueryData(userQueryKey, null);
      onDeleted(message);
    } catch (error) {
      if (error instanceof ApiError && applyServerErrors(setError, error.errors, ['password']))
        return;
      setGeneralError(errorMessage(error, { failed: t('profile.failed') }));
    }
  });

  return (
    <Dialog title={t('profile.deleteTitle')} onClose={onClose}>
      <p>{t('profile.deleteWarning')}</p>
      <LiveMessage tone="error" message={generalError} />
      <form className="profile-form" noValidate onSubmit={handleDelete}>
        <TextField
          id="delete-password"
          label={t('profile.deletePasswordLabel')}
          type="password"
          autoComplete="current-password"
          error={fieldErrorText(errors.password)}
          {...register('password')}
        />
        <div className="profile-data__actions">
          <Button variant="ghost" onClick={onClose}>
            {t('profile.cancel')}
          </Button>
          <Button type="submit" className="btn--danger" disabled={remove.isPending}>
            {remove.isPending ? t('profile.deleting') : t('profile.deleteConfirm')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
