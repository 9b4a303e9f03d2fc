import type { TFunction } from 'i18next';

/**
 * A phone number's digits (country code first) as people write it: Brazilian numbers as
 * "+55 11 98765-4321", others as "+" and the digits.
 */
export function formatPhoneNumber(digits: string): string {
  const brazil = /^55(\d{2})(\d{4,5})(\d{4})$/.exec(digits);
  if (brazil) return `+55 ${brazil[1]} ${brazil[2]}-${brazil[3]}`;
  return `+${digits}`;
}

/**
 * How a contact is named on the page: the name it gave WhatsApp, else its phone number, else
 * (WhatsApp told only its LID, an internal id that is no phone number) a neutral label.
 */
export function contactDisplayName(
  conversation: { contact_name: string; contact_number: string },
  t: TFunction,
): string {
  // A contact without a push name is stored under its number's digits.
  if (conversation.contact_name && conversation.contact_name !== conversation.contact_number)
    return conversation.contact_name;
  if (conversation.contact_number) return formatPhoneNumber(conversation.contact_number);
  return t('whatsapp.contactHiddenNumber');
}
