import { whatsappAgentSchema } from '@contrateia/shared/whatsapp/whatsapp.schemas';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { whatsappKeys } from '@/features/whatsapp/api/whatsapp-cache';
import { whatsappRequest } from '@/features/whatsapp/api/whatsapp-request';

/** GET /api/whatsapp/agents/available: the hired agents that may answer WhatsApp. */
export const getAgents = () => whatsappRequest('/agents/available', z.array(whatsappAgentSchema));

export function useWhatsAppAgents({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ queryKey: whatsappKeys.agents, queryFn: getAgents, enabled });
}
