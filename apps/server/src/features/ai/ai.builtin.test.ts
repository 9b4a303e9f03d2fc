import { describe, expect, it } from 'vitest';
import type { AgentConfiguration, Language } from '@contrateia/shared';
import { createBuiltinEngine, pieces } from './ai.builtin';
import { EngineFailure, type AgentEngine, type EngineTurn, type LiveFacts } from './ai.engine';
import { SEEDED_AGENTS } from './ai.knowledge';
import { PHRASES } from './ai.phrases';

// Tuesday 3 March 2026, 17:05 UTC: 14:05 in Brasília, 18:05 in Madrid.
const NOW = new Date('2026-03-03T17:05:00Z');
const engine = createBuiltinEngine({ now: () => NOW });

const FACTS: LiveFacts = {
  users: 3,
  conversationsToday: 2,
  messagesToday: 17,
  database: { kind: 'pglite', ok: true },
  mail: 'log',
};

function configurationOf(name: string): AgentConfiguration {
  const agent = SEEDED_AGENTS.find((a) => a.name === name);
  if (!agent) throw new Error(`no seeded agent ${name}`);
  return agent.configuration;
}

async function ask(
  name: string,
  language: Language,
  message: string,
  extra: {
    facts?: () => Promise<LiveFacts>;
    configuration?: AgentConfiguration;
    signal?: AbortSignal;
    history?: EngineTurn[];
    engine?: AgentEngine;
  } = {},
): Promise<{ text: string; chunks: string[] }> {
  const chunks: string[] = [];
  const request = {
    agent: { name, configuration: extra.configuration ?? configurationOf(name) },
    history: extra.history ?? [],
    message,
    language,
    facts: extra.facts,
    signal: extra.signal,
  };
  for await (const chunk of (extra.engine ?? engine).reply(request)) chunks.push(chunk);
  return { text: chunks.join(''), chunks };
}

/** The reply is the given knowledge entry: its title, and its link as a Markdown link. */
function expectEntry(text: string, agent: string, topicId: string, language: Language) {
  const entry = configurationOf(agent).knowledge.find((e) => e.id === `${topicId}.${language}`);
  if (!entry) throw new Error(`no entry ${topicId}.${language}`);
  expect(text).toContain(`**${entry.title}**`);
  if (entry.link) expect(text).toContain(`[${entry.link}](${entry.link})`);
}

describe('guia finds the right page and task', () => {
  it.each<[Language, string, string]>([
    ['pt-BR', 'como conecto meu whatsapp?', 'guia.whatsapp'],
    ['pt-BR', 'COMO CONECTO MEU WHATSAPP', 'guia.whatsapp'],
    ['pt-BR', 'conectar whatsap', 'guia.whatsapp'],
    ['pt-BR', 'como contrato um agente?', 'guia.hire'],
    ['pt-BR', 'quero trocar o idioma', 'guia.language'],
    ['pt-BR', 'idiona', 'guia.language'],
    ['pt-BR', 'como saio da conta', 'guia.signout'],
    ['pt-BR', 'nao recebi o codigo de verificacao', 'guia.register'],
    ['pt-BR', 'como limpo a conversa?', 'guia.clear'],
    ['pt-BR', 'o que é o sincronizar agente?', 'guia.auxtrat'],
    ['pt-BR', 'como desligo a IA de uma conversa do whatsapp', 'guia.whatsappConversations'],
    ['pt-BR', 'como alterno para o modo usuário?', 'guia.roleMode'],
    ['pt-BR', 'Oi guia, tudo bem? Como envio uma mensagem?', 'guia.chat'],
    ['en-US', 'how do I hire an agent', 'guia.hire'],
    ['en-US', 'hiring an agemt', 'guia.hire'],
    ['en-US', 'How do I connect my WhatsApp?', 'guia.whatsapp'],
    ['en-US', 'change language', 'guia.language'],
    ['en-US', 'how do I sign out', 'guia.signout'],
    ['en-US', "I didn't get the verification code", 'guia.register'],
    ['en-US', 'where is the admin panel?', 'guia.admin'],
    ['en-US', 'how do I switch to user mode', 'guia.roleMode'],
    ['es-ES', '¿cómo cambio el idioma?', 'guia.language'],
    ['es-ES', 'idiona', 'guia.language'],
    ['es-ES', '¿Cómo conecto mi WhatsApp?', 'guia.whatsapp'],
    ['es-ES', 'conectar whatsap', 'guia.whatsapp'],
    ['es-ES', 'quiero contratar un agente', 'guia.hire'],
    ['es-ES', '¿cómo me registro?', 'guia.register'],
    ['es-ES', 'cómo limpio el chat', 'guia.clear'],
    ['es-ES', 'cerrar sesion', 'guia.signout'],
  ])('%s: %s', async (language, question, topicId) => {
    const { text } = await ask('guia', language, question);
    expectEntry(text, 'guia', topicId, language);
  });
});

describe('auxtrat answers from its catalogue', () => {
  it.each<[Language, string, RegExp, string]>([
    ['pt-BR', 'quanto custa a consultoria?', /R\$\s1\.800,00/, 'Consultoria de gestão'],
    ['pt-BR', 'qual o preço do site institucional?', /R\$\s2\.400,00/, 'Site institucional'],
    ['en-US', 'how much is the consulting?', /R\$1,800\.00/, 'Management consulting'],
    ['en-US', 'how much does payroll cost?', /R\$45\.00/, 'Payroll'],
    ['es-ES', '¿cuánto cuesta la consultoría?', /1800,00\sR\$/, 'Consultoría de gestión'],
    ['es-ES', 'precio del registro de marca', /1350,00\sR\$/, 'Registro de marca en el INPI'],
  ])('%s: %s → the price', async (language, question, price, name) => {
    const { text } = await ask('auxtrat', language, question);
    expect(text).toContain(`**${name}**`);
    expect(text).toMatch(price);
  });

  it.each<[Language, string]>([
    ['pt-BR', 'quais serviços vocês oferecem?'],
    ['en-US', 'what services do you offer?'],
    ['es-ES', '¿qué productos tienen?'],
  ])('%s: %s → the whole catalogue', async (language, question) => {
    const { text } = await ask('auxtrat', language, question);
    expect(text.startsWith(PHRASES[language].catalogueIntro)).toBe(true);
    const titles = configurationOf('auxtrat')
      .knowledge.filter((e) => e.language === language)
      .map((e) => e.title);
    expect(titles).toHaveLength(10);
    for (const title of titles) expect(text).toContain(`- ${title}`);
  });

  it('says so for something it does not sell', async () => {
    const { text } = await ask('auxtrat', 'en-US', 'do you sell used cars?');
    expect(text.startsWith(PHRASES['en-US'].notFound)).toBe(true);
  });
});

describe('administrador answers live questions from the facts', () => {
  const facts = async () => FACTS;

  it.each<[Language, string, string]>([
    ['en-US', 'how many users are there?', 'There are 3 registered users.'],
    ['pt-BR', 'quantos usuários temos?', 'Há 3 usuários cadastrados.'],
    ['es-ES', '¿cuántos usuarios hay?', 'Hay 3 usuarios registrados.'],
    ['en-US', 'how many conversations today?', '2 conversations were started today.'],
    ['pt-BR', 'quantas mensagens hoje?', 'Hoje foram trocadas 17 mensagens.'],
    ['es-ES', '¿cuántas conversaciones hubo hoy?', 'Hoy se iniciaron 2 conversaciones.'],
    ['en-US', 'is the database ok?', 'Database: embedded PGlite, working.'],
    [
      'pt-BR',
      'o e-mail está configurado?',
      'E-mail: sem SMTP configurado; os códigos de verificação vão para o log do servidor.',
    ],
    ['es-ES', '¿la base de datos funciona?', 'Base de datos: PGlite integrado, funcionando.'],
  ])('%s: %s', async (language, question, answer) => {
    const { text } = await ask('administrador', language, question, { facts });
    expect(text).toBe(answer);
  });

  it('uses the singular for one', async () => {
    const one = async () => ({ ...FACTS, users: 1, conversationsToday: 1 });
    expect((await ask('administrador', 'pt-BR', 'quantos usuários?', { facts: one })).text).toBe(
      'Há 1 usuário cadastrado.',
    );
    expect(
      (await ask('administrador', 'en-US', 'how many users and conversations?', { facts: one }))
        .text,
    ).toBe('- There is 1 registered user.\n- 1 conversation was started today.');
  });

  it('gives every figure for a status question', async () => {
    const { text } = await ask('administrador', 'pt-BR', 'status do sistema', {
      facts: async () => ({ ...FACTS, database: { kind: 'postgres', ok: false }, mail: 'smtp' }),
    });
    expect(text.split('\n')).toEqual([
      '- Há 3 usuários cadastrados.',
      '- Hoje foram iniciadas 2 conversas.',
      '- Hoje foram trocadas 17 mensagens.',
      '- Banco de dados: PostgreSQL, sem resposta.',
      '- E-mail: enviado por SMTP.',
    ]);
  });

  it('tells a caller without facts that the figures are for admins, and survives failing facts', async () => {
    expect((await ask('administrador', 'en-US', 'how many users?')).text).toBe(
      PHRASES['en-US'].factsAdminsOnly,
    );
    const broken = () => Promise.reject(new Error('database down'));
    expect(
      (await ask('administrador', 'es-ES', '¿cuántos usuarios hay?', { facts: broken })).text,
    ).toBe(PHRASES['es-ES'].factsUnavailable);
  });

  it('answers where things are from its knowledge', async () => {
    const { text } = await ask('administrador', 'pt-BR', 'onde vejo os logs?', { facts });
    expectEntry(text, 'administrador', 'administrador.logs', 'pt-BR');
    expectEntry(
      (await ask('administrador', 'en-US', 'how do I configure openai?')).text,
      'administrador',
      'administrador.model',
      'en-US',
    );
  });
});

describe('assistente', () => {
  it.each<[Language, string, string]>([
    ['pt-BR', 'Olá!', 'Olá! Em que posso ajudar? Por exemplo:\n'],
    ['pt-BR', 'bom dia, assistente', 'Olá! Em que posso ajudar? Por exemplo:\n'],
    ['en-US', 'hello', 'Hello! How can I help? For example:\n'],
    ['es-ES', '¡Hola! ¿Qué tal?', '¡Hola! ¿En qué puedo ayudarte? Por ejemplo:\n'],
  ])('greets back (%s: %s) and offers what it can do', async (language, message, start) => {
    const { text } = await ask('assistente', language, message);
    expect(text.startsWith(start)).toBe(true);
    for (const skill of PHRASES[language].skills.assistente) expect(text).toContain(`- ${skill}`);
  });

  it.each<[Language, string]>([
    ['pt-BR', 'muito obrigado!'],
    ['en-US', 'thanks a lot'],
    ['es-ES', 'gracias'],
  ])('answers thanks (%s: %s)', async (language, message) => {
    expect((await ask('assistente', language, message)).text).toBe(PHRASES[language].thanks);
  });

  it.each<[Language, string, string | RegExp]>([
    ['pt-BR', 'que dia é hoje?', 'Hoje é terça-feira, 3 de março de 2026 (horário de Brasília).'],
    [
      'pt-BR',
      'que horas são?',
      'Agora são 14:05, terça-feira, 3 de março de 2026 (horário de Brasília).',
    ],
    ['en-US', 'what time is it?', /^It's 5:05\sPM on Tuesday, March 3, 2026 \(UTC\)\.$/],
    ['en-US', "what's the date today?", 'Today is Tuesday, March 3, 2026 (UTC).'],
    ['es-ES', '¿qué hora es?', 'Son las 18:05 del martes, 3 de marzo de 2026 (hora de Madrid).'],
    ['es-ES', '¿qué fecha es hoy?', 'Hoy es martes, 3 de marzo de 2026 (hora de Madrid).'],
  ])(
    'tells the date and time in the language and its zone (%s: %s)',
    async (language, question, answer) => {
      const { text } = await ask('assistente', language, question);
      if (typeof answer === 'string') expect(text).toBe(answer);
      else expect(text).toMatch(answer);
    },
  );

  it('tells each language the day in its own zone', async () => {
    // 01:30 UTC on the 4th is still the 3rd in Brasília.
    const late = createBuiltinEngine({ now: () => new Date('2026-03-04T01:30:00Z') });
    const say = async (language: Language, message: string) =>
      (await ask('assistente', language, message, { engine: late })).text;
    expect(await say('pt-BR', 'que dia é hoje?')).toContain('3 de março');
    expect(await say('en-US', 'what day is it?')).toContain('March 4');
  });

  it.each<[Language, string, string]>([
    ['en-US', '2 + 3 * (4 - 1)', '2 + 3 × (4 - 1) = **11**'],
    ['pt-BR', 'quanto é 2 + 3 * (4 - 1)?', '2 + 3 × (4 - 1) = **11**'],
    ['pt-BR', 'quanto é 10 / 4?', '10 ÷ 4 = **2,5**'],
    ['pt-BR', 'calcule 2,5 x 4', '2,5 × 4 = **10**'],
    ['en-US', 'what is 10 / 4?', '10 ÷ 4 = **2.5**'],
    ['en-US', 'what is 1,000 + 2.5?', '1000 + 2.5 = **1,002.5**'],
    ['en-US', '-3 + 5', '- 3 + 5 = **2**'],
    ['es-ES', '¿cuánto es 3 por 4?', '3 × 4 = **12**'],
    ['pt-BR', 'quanto é 2 mais 2?', '2 + 2 = **4**'],
    ['en-US', '0.1 + 0.2', '0.1 + 0.2 = **0.3**'],
  ])('does arithmetic (%s: %s)', async (language, question, answer) => {
    expect((await ask('assistente', language, question)).text).toBe(answer);
  });

  it.each<Language>(['pt-BR', 'en-US', 'es-ES'])(
    'handles division by zero (%s)',
    async (language) => {
      expect((await ask('assistente', language, '1 / (2 - 2)')).text).toBe(
        PHRASES[language].divisionByZero,
      );
    },
  );

  it.each<[Language, string]>([
    ['pt-BR', 'qual a capital da Mongólia?'],
    ['en-US', 'write me a poem about the sea'],
    ['es-ES', '¿quién ganó el mundial de 2022?'],
  ])('admits what it cannot answer yet, with suggestions (%s: %s)', async (language, question) => {
    const { text } = await ask('assistente', language, question);
    const { cannotYet, forNow } = PHRASES[language];
    expect(text.startsWith(`${cannotYet} ${forNow}\n`)).toBe(true);
    for (const skill of PHRASES[language].skills.assistente) expect(text).toContain(`- ${skill}`);
  });

  it('does not evaluate what is not a plain calculation', async () => {
    const deep = `${'('.repeat(500)}1 + 1${')'.repeat(500)}`;
    expect(
      (await ask('assistente', 'en-US', deep)).text.startsWith(PHRASES['en-US'].cannotYet),
    ).toBe(true);
    expect(
      (await ask('assistente', 'en-US', 'process.exit(1) + 1')).text.startsWith(
        PHRASES['en-US'].cannotYet,
      ),
    ).toBe(true);
  });

  it('answers about itself from its knowledge', async () => {
    expectEntry(
      (await ask('assistente', 'en-US', 'why are your answers so limited?')).text,
      'assistente',
      'assistente.model',
      'en-US',
    );
  });
});

describe('guia, indirect and custom agents', () => {
  it.each<[Language, string, string[]]>([
    [
      'pt-BR',
      'qual a capital da Mongólia?',
      ['Contratar um agente', 'Conectar o WhatsApp', 'Trocar o idioma'],
    ],
    [
      'en-US',
      'write me a poem about the sea',
      ['Hire an agent', 'Connect WhatsApp', 'Change the language'],
    ],
    [
      'es-ES',
      '¿cuál es la receta de la paella?',
      ['Contratar un agente', 'Conectar WhatsApp', 'Cambiar el idioma'],
    ],
  ])(
    'guia says it does not know (%s: %s) and suggests three topics',
    async (language, question, topics) => {
      const { text } = await ask('guia', language, question);
      const { notFound, canHelpWith } = PHRASES[language];
      expect(text).toBe(`${notFound} ${canHelpWith}\n${topics.map((t) => `- ${t}`).join('\n')}`);
    },
  );

  it('guia lists what it can do when asked', async () => {
    const { text } = await ask('guia', 'es-ES', '¿qué puedes hacer?');
    expect(text.startsWith(PHRASES['es-ES'].canHelpWith)).toBe(true);
  });

  it('indirect explains anonymous messages and does not pretend to send', async () => {
    expectEntry(
      (await ask('indirect', 'pt-BR', 'a mensagem é anônima?')).text,
      'indirect',
      'indirect.how',
      'pt-BR',
    );
    expect((await ask('indirect', 'en-US', 'send "miss you" to +55 11 98765-4321')).text).toBe(
      PHRASES['en-US'].deliveryPending,
    );
    expectEntry(
      (await ask('indirect', 'es-ES', '¿cuándo estará disponible el envío?')).text,
      'indirect',
      'indirect.availability',
      'es-ES',
    );
  });

  it('an agent an admin created answers from its own knowledge, and picks up edits', async () => {
    const configuration: AgentConfiguration = {
      instructions: 'Bakery helper.',
      welcomeMessage: { 'pt-BR': 'Oi', 'en-US': 'Hi', 'es-ES': 'Hola' },
      model: { model: null, temperature: 0.3, maxReplyLength: 2000 },
      knowledge: [
        {
          id: 'hours',
          language: 'en-US',
          title: 'Opening hours',
          content: 'We open at 7 am.',
          keywords: ['open', 'hours'],
        },
      ],
    };
    const custom = createBuiltinEngine();
    const say = async (config: AgentConfiguration, message: string, name = 'bakery') =>
      (await ask(name, 'en-US', message, { configuration: config, engine: custom })).text;
    expect(await say(configuration, 'when do you open?')).toBe(
      '**Opening hours**\n\nWe open at 7 am.',
    );
    const edited = {
      ...configuration,
      knowledge: [{ ...configuration.knowledge[0]!, content: 'We open at 8 am.' }],
    };
    expect(await say(edited, 'when do you open?')).toBe('**Opening hours**\n\nWe open at 8 am.');
    expect(await say(configuration, 'do you sell cakes?')).toBe(
      `${PHRASES['en-US'].notFound} ${PHRASES['en-US'].canHelpWith}\n- Opening hours`,
    );
    // Names are chosen by admins: one that is also an Object property is just another agent.
    expect(await say(configuration, 'when do you open?', 'constructor')).toBe(
      '**Opening hours**\n\nWe open at 7 am.',
    );
    // Nothing in this language: no topics to offer, just the plain sentence.
    const { text } = await ask('bakery', 'pt-BR', 'pão?', { configuration, engine: custom });
    expect(text).toBe('Não encontrei uma resposta para isso no que eu sei.');
  });
});

describe('the stream', () => {
  it('is deterministic', async () => {
    const first = await ask('guia', 'pt-BR', 'como conecto meu whatsapp?');
    const second = await ask('guia', 'pt-BR', 'como conecto meu whatsapp?');
    const third = await ask('guia', 'pt-BR', 'como conecto meu whatsapp?', {
      engine: createBuiltinEngine({ now: () => NOW }),
      history: [{ role: 'user', text: 'oi' }],
    });
    expect(second.text).toBe(first.text);
    expect(third.text).toBe(first.text);
  });

  it('comes in several chunks that add up to the reply', async () => {
    const { text, chunks } = await ask('guia', 'en-US', 'how do I hire an agent');
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.join('')).toBe(text);
    const sample = 'One. Two? Three!\n- four\nR$ 1.800,00 is a price.';
    expect(pieces(sample).join('')).toBe(sample);
    expect(pieces(sample)).toEqual([
      'One. ',
      'Two? ',
      'Three!\n',
      '- four\n',
      'R$ 1.800,00 is a price.',
    ]);
  });

  it("keeps to the agent's maximum reply length", async () => {
    const guia = configurationOf('guia');
    const short = { ...guia, model: { ...guia.model, maxReplyLength: 60 } };
    const { text } = await ask('guia', 'en-US', 'how do I hire an agent', { configuration: short });
    expect(text.length).toBeLessThanOrEqual(60);
    expect(text.endsWith('…')).toBe(true);
  });

  it('stops when the request is aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      ask('guia', 'en-US', 'how do I hire an agent', { signal: controller.signal }),
    ).rejects.toMatchObject({
      name: 'EngineFailure',
      reason: 'aborted',
    });
    await expect(ask('guia', 'en-US', 'x', { signal: controller.signal })).rejects.toBeInstanceOf(
      EngineFailure,
    );
  });
});
