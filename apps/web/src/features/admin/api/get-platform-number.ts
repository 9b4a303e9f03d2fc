import type { WhatsAppPlatform } from '@contrateia/shared';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/** GET /api/admin/whatsapp/platform: the platform's WhatsApp number, whose it is and whether it is connected. */
export async function getPlatformNumber(): Promise<WhatsAppPlatform> {
  return (await apiRequest<{ data: WhatsAppPlatform }>('/admin/whatsapp/platform')).data;
}

export function usePlatformNumber() {
  return useQuery({ queryKey: ['admin', 'whatsapp-platform'], queryFn: getPlatformNumber });
}
