import { WhatsAppPage } from '@/features/whatsapp/components/whatsapp-page';

export default function WhatsAppRoute() {
  return <WhatsAppPage />;
}
