import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';

/** The QR modal: the latest code (a PNG data URL), replaced as WhatsApp renews it. */
export function QrDialog({ qrCode, onClose }: { qrCode: string | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog
      title={t('whatsapp.qr.title')}
      onClose={onClose}
      className="wa-qr-dialog"
      footer={<Button onClick={onClose}>{t('whatsapp.qr.close')}</Button>}
    >
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
    </Dialog>
  );
}
