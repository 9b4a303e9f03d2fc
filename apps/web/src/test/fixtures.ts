import type { Agent, ChatMessage, SeededAgentName, User } from '@contrateia/shared';
import type { Language } from '@contrateia/shared/i18n/languages';

// Payloads as the server sends them (types from packages/shared; agent texts as seeded in
// apps/server/src/features/ai/ai.knowledge.ts), for the fake server's answers.

export function userFixture(overrides: Partial<User> = {}): User {
  return {
    id: '5d0c43d2-6f6e-4f51-9a57-0d8c1f0b6a11',
    name: 'Ana Souza',
    email: 'ana@exemplo.com',
    username: 'ana',
    avatar: null,
    role: 'user',
    originalRole: 'user',
    singleAgentName: null,
    ...overrides,
  };
}

type Texts = Record<Language, string>;

const AGENTS: Record<
  Exclude<SeededAgentName, 'administrador'>,
  { id: string; displayName: Texts; description: Texts; welcome: Texts }
> = {
  guia: {
    id: '0f1e8d6a-3b1c-4c52-8b0e-1a2b3c4d5e01',
    displayName: { 'pt-BR': 'Guia', 'en-US': 'Guide', 'es-ES': 'Guía' },
    description: {
      'pt-BR': 'Mostra o caminho na ContrateIA: cada página e como fazer cada tarefa.',
      'en-US': 'Shows you around ContrateIA: every page and how to do each task.',
      'es-ES': 'Te orienta en ContrateIA: cada página y cómo hacer cada tarea.',
    },
    welcome: {
      'pt-BR': 'Olá! Eu sou o Guia. Pergunte como fazer qualquer coisa na ContrateIA.',
      'en-US': "Hello! I'm the Guide. Ask me how to do anything in ContrateIA.",
      'es-ES': '¡Hola! Soy la Guía. Pregúntame cómo hacer cualquier cosa en ContrateIA.',
    },
  },
  assistente: {
    id: '0f1e8d6a-3b1c-4c52-8b0e-1a2b3c4d5e02',
    displayName: { 'pt-BR': 'Assistente', 'en-US': 'Assistant', 'es-ES': 'Asistente' },
    description: {
      'pt-BR': 'Assistente geral: tira dúvidas, faz contas e ajuda no dia a dia.',
      'en-US': 'A general assistant: answers questions, does sums and helps with everyday tasks.',
      'es-ES': 'Un asistente general: resuelve dudas, hace cuentas y ayuda en el día a día.',
    },
    welcome: {
      'pt-BR': 'Olá! Eu sou o Assistente. Em que posso ajudar hoje?',
      'en-US': "Hello! I'm the Assistant. How can I help you today?",
      'es-ES': '¡Hola! Soy el Asistente. ¿En qué puedo ayudarte hoy?',
    },
  },
  auxtrat: {
    id: '0f1e8d6a-3b1c-4c52-8b0e-1a2b3c4d5e03',
    displayName: { 'pt-BR': 'Auxtrat', 'en-US': 'Auxtrat', 'es-ES': 'Auxtrat' },
    description: {
      'pt-BR':
        'Especialista em produtos e serviços: o que oferecemos, o que inclui e quanto custa.',
      'en-US':
        'Products and services specialist: what we offer, what it includes and what it costs.',
      'es-ES': 'Especialista en productos y servicios: qué ofrecemos, qué incluye y cuánto cuesta.',
    },
    welcome: {
      'pt-BR': 'Olá! Eu sou o Auxtrat. Pergunte sobre nossos produtos e serviços.',
      'en-US': "Hello! I'm Auxtrat. Ask me about our products and services.",
      'es-ES': '¡Hola! Soy Auxtrat. Pregúntame por nuestros productos y servicios.',
    },
  },
  indirect: {
    id: '0f1e8d6a-3b1c-4c52-8b0e-1a2b3c4d5e05',
    displayName: { 'pt-BR': 'Indirect', 'en-US': 'Indirect', 'es-ES': 'Indirect' },
    description: {
      'pt-BR':
        'Envia mensagens anônimas pelo WhatsApp da plataforma e traz as respostas para a conversa.',
      'en-US':
        "Sends anonymous messages through the platform's WhatsApp and brings the replies back to the chat.",
      'es-ES':
        'Envía mensajes anónimos por el WhatsApp de la plataforma y trae las respuestas a la conversación.',
    },
    welcome: {
      'pt-BR': 'Olá! Eu sou o Indirect. Pergunte como vai funcionar.',
      'en-US': "Hello! I'm Indirect. Ask me how it will work.",
      'es-ES': '¡Hola! Soy Indirect. Pregúntame cómo funcionará.',
    },
  },
};

export type FixtureAgentName = keyof typeof AGENTS;

/** A seeded agent as GET /api/agents/* answers in `language`. */
export function agentFixture(
  name: FixtureAgentName,
  { language, isHired }: { language: Language; isHired: boolean },
): Agent {
  const agent = AGENTS[name];
  return {
    id: agent.id,
    name,
    displayName: agent.displayName[language],
    description: agent.description[language],
    isActive: true,
    createdAt: '2025-01-06T12:00:00.000Z',
    configuration: { welcomeMessage: agent.welcome[language] },
    isHired,
  };
}

/** A stored chat message. */
export function messageFixture(
  fields: Pick<ChatMessage, 'id' | 'text' | 'sender'> & Partial<ChatMessage>,
): ChatMessage {
  return { timestamp: '2025-01-06T12:00:00.000Z', ...fields };
}
