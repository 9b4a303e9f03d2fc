import { dataResponse } from '@contrateia/shared/whatsapp/whatsapp.schemas';
import type { z } from 'zod';
import { apiRequest, type ApiRequestOptions } from '@/lib/api-client';

/**
 * Calls `/api/whatsapp{path}` and returns the `data` of its `{success: true, data}` answer,
 * checked against the shared schema: this page patches its cache from answers and live events
 * alike, so a shape it cannot read fails here, loudly, instead of as a blank screen later.
 */
export async function whatsappRequest<T extends z.ZodType>(
  path: string,
  schema: T,
  options: ApiRequestOptions = {},
): Promise<z.infer<T>> {
  const body = await apiRequest<unknown>(`/whatsapp${path}`, options);
  const { data } = dataResponse(schema).parse(body) as { data: z.infer<T> };
  return data;
}

/** For calls whose answer the page does not read (the contract leaves it open). */
export async function whatsappCommand(
  path: string,
  options: ApiRequestOptions = {},
): Promise<unknown> {
  const body = await apiRequest<{ data?: unknown } | undefined>(`/whatsapp${path}`, options);
  return body?.data;
}

export const conversationPath = (id: string) => `/conversations/${encodeURIComponent(id)}`;
