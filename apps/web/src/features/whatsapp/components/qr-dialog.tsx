import { PHONE_PATTERN } from '@contrateia/shared/whatsapp/whatsapp.schemas';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { TextField } from '@/components/ui/text-field';
import { useRequestPairingCode } from '@/features/whatsapp/api/get-status';
import { errorMessage } from '@/lib/api-client';

/**
 * The QR modal: the latest code (a PNG data URL), replaced as WhatsApp renews it. For an owner
 * with only the phone, "Link with phone number" asks for the number and shows the 8-character
 * code to type on it instead (while one is valid, the modal opens on it).
 */
export function QrDialog({
  qrCode,
  pairingCode,
  onClose,
}: {
  qrCode: string | null;
  pairingCode: string | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [byPhone, setByPhone] = useState(pairingCode !== null);
  return (
    <Dialog
      title={t('whatsapp.qr.title')}
      onClose={onClose}
      className="wa-qr-dialog"
      footer={<Button onClick={onClose}>{t('whatsapp.qr.close')}</Button>}
    >
      {byPhone ? (
        <PairingCode pairingCode={pairingCode} onUseQr={() => setByPhone(false)} />
      ) : (
        <>
          <p>{t('whatsapp.qr.intro')}</p>
          <div className="wa-qr-dialog__code" aria-busy={qrCode === null || undefined}>
            {qrCode ? (
              <img src={qrCode} alt={t('whatsapp.qr.alt')} width={256} height={256} />
            ) : (
              <div role="status" className="wa-qr-dialog__waiting">
                <span className="spinner" aria-hidden="true" />
                <span>{t('whatsapp.qr.waiting')}</span>
              </div>
            )}
          </div>
          <p className="wa-qr-dialog__hint">{t('whatsapp.qr.refreshes')}</p>
          <Button variant="secondary" onClick={() => setByPhone(true)}>
            {t('whatsapp.pairing.usePhone')}
          </Button>
        </>
      )}
    </Dialog>
  );
}

/** The number, then the code WhatsApp gives for it, in two groups of four as the phone shows it. */
function PairingCode({
  pairingCode,
  onUseQr,
}: {
  pairingCode: string | null;
  onUseQr: () => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const request = useRequestPairingCode();
  const [phone, setPhone] = useState('');
  const [invalid, setInvalid] = useState(false);
  // A number typed with spaces, dashes, parentheses or a "+" is the same number.
  const digits = phone.replace(/[\s()+-]/g, '');
  const showCode = pairingCode !== null && !request.isPending && !invalid;

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!PHONE_PATTERN.test(digits)) {
      setInvalid(true);
      return;
    }
    request.mutate(digits);
  };

  return (
    <div className="wa-pairing">
      {showCode ? (
        <>
          <p>{t('whatsapp.pairing.instructions')}</p>
          <p className="wa-pairing__code">
            <span className="visually-hidden">{t('whatsapp.pairing.codeLabel')} </span>
            <span>{pairingCode.slice(0, 4)}</span>
            <span aria-hidden="true">-</span>
            <span>{pairingCode.slice(4)}</span>
          </p>
          <p className="wa-qr-dialog__hint">{t('whatsapp.pairing.valid')}</p>
        </>
      ) : (
        <form className="wa-pairing__form" noValidate onSubmit={handleSubmit}>
          <p>{t('whatsapp.pairing.intro')}</p>
          <TextField
            id={`${id}-phone`}
            label={t('whatsapp.pairing.phoneLabel')}
            hint={t('whatsapp.pairing.phoneHint')}
            error={invalid ? t('whatsapp.pairing.phoneInvalid') : undefined}
            inputMode="tel"
            autoComplete="tel"
            value={phone}
            onChange={(event) => {
              setPhone(event.target.value);
              setInvalid(false);
              if (request.isError) request.reset();
            }}
          />
          <Button type="submit" disabled={request.isPending}>
            {request.isPending ? t('whatsapp.pairing.waiting') : t('whatsapp.pairing.submit')}
          </Button>
          <div role="alert">
            {request.isError && (
              <p className="alert alert--error">
                {errorMessage(request.error, { failed: t('whatsapp.pairing.failed') })}
              </p>
            )}
          </div>
        </form>
      )}
      <Button variant="ghost" onClick={onUseQr}>
        {t('whatsapp.pairing.useQr')}
      </Button>
    </div>
  );
}
