import { WhatsAppPage } from '@/features/whatsapp/components/whatsapp-page';

export default function WhatsAppEnhancedRoute() {
  return <WhatsAppPage enhanced />;
}
