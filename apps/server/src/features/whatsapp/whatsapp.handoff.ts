import type { Language } from '@contrateia/shared';
import { handoffOf, type AgentRow } from '@/features/agents/agents.service';
import type { WhatsAppContext } from './whatsapp.deps';

/**
 * Handoff: a contact who asks for a person ("quero falar com um atendente") gets the agent's
 * handoff message once, the agent pauses itself in the conversation as a takeover does, and the
 * conversation is marked "precisa de você" until the owner writes to the contact.
 */

/** Lower case, without accents: "Atendênte" and "atendente" are one word to a contact in a hurry. */
const plain = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();

/**
 * What a contact writes to ask for a person, in Portuguese, English and Spanish. Whole words
 * only: "humano" asks, "recursos humanos" does not.
 */
const ASKS_FOR_PERSON: RegExp[] = [
  // pt-BR
  /\batendentes?\b/,
  /\b(falar|conversar) com (alguem|uma pessoa|pessoa|um humano|humano|o dono|a dona|a recepcao|o responsavel|a responsavel|o gerente|a gerente)\b/,
  /\bpessoa (de verdade|real)\b/,
  /(?<!recursos )\b(ser )?humanos?\b/,
  // en-US
  /\b(talk|speak|chat) (to|with) (a |an )?(human|person|someone|somebody|real person|representative|the owner|the manager|staff)\b/,
  /\b(real|live) (person|human|agent)\b/,
  // es-ES
  /\bhablar con (alguien|una persona|un humano|un asesor|una asesora|el dueno|la duena|el encargado|la encargada)\b/,
  /\bpersona real\b/,
];

/** Whether the contact's message asks for a person rather than the agent. */
export function asksForPerson(text: string): boolean {
  const words = plain(text);
  return ASKS_FOR_PERSON.some((pattern) => pattern.test(words));
}

/**
 * The agent's handoff message: its own (a business's agent may have one in its profile), else the
 * platform's, in the business's language for its agent and in the contact's for any other.
 */
export function handoffText(
  { translate }: Pick<WhatsAppContext, 'translate'>,
  agent: AgentRow,
  language: Language,
): string {
  const own = handoffOf(agent);
  return own?.message ?? translate(own?.language ?? language)('whatsappServer.handoff');
}
