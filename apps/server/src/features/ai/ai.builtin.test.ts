import { describe, expect, it } from 'vitest';
import {
  agentConfigurationSchema,
  type AgentConfiguration,
  type KnowledgeEntry,
  type Language,
} from '@contrateia/shared';
import { createTranslator } from '@/lib/i18n';
import { createBuiltinEngine, pieces } from './ai.builtin';
import {
  EngineFailure,
  type AgentEngine,
  type EngineRequest,
  type HistoryLoader,
  type LiveFacts,
} from './ai.service';
import {
  ADMIN_KNOWLEDGE,
  ASSISTANT_KNOWLEDGE,
  configuration,
  GUIDE_KNOWLEDGE,
  MESSENGER_KNOWLEDGE,
  SHOP_CATALOGUE,
} from './ai.test-fixtures';

// Tuesday 3 March 2026, 17:05 UTC: 14:05 in Brasília, 18:05 in Madrid.
const NOW = new Date('2026-03-03T17:05:00Z');
const engine = createBuiltinEngine({ now: () => NOW });
const translate = createTranslator();
/** The engine's own sentence `key` (shared locales, engine.*) in `language`. */
const say = (language: Language, key: string, values?: Record<string, string>) =>
  translate(language)(`engine.${key}`, values);
/** The start of an honest refusal: that nothing was found (never the question's words quoted back). */
const notFound = (language: Language) => say(language, 'notFound');

/** Live figures with `users` accounts in all, `conversations` and `messages` today. */
const factsWith = (users: number, conversations: number, messages: number): LiveFacts => ({
  activity: {
    total: { users, conversations: conversations + 40, messages: messages + 400 },
    today: { users: 1, conversations, messages },
    week: { users: 2, conversations: conversations + 5, messages: messages + 50 },
  },
  newestUsers: [{ name: 'Maria Souza', createdAt: new Date('2026-03-03T12:00:00Z') }],
  timeZone: 'America/Sao_Paulo',
  database: { kind: 'pglite', ok: true },
  mail: 'log',
});

const FACTS: LiveFacts = factsWith(3, 2, 17);

// The agents under test. Their names are arbitrary: what they can do comes from their
// configuration alone.
const AGENTS = {
  guide: configuration({ knowledge: GUIDE_KNOWLEDGE }),
  shop: configuration({
    capabilities: { skills: ['catalogue'], fallback: 'notFound' },
    catalogue: SHOP_CATALOGUE,
  }),
  ops: configuration({
    knowledge: ADMIN_KNOWLEDGE,
    capabilities: { skills: ['liveFacts'], fallback: 'notFound' },
  }),
  helper: configuration({
    knowledge: ASSISTANT_KNOWLEDGE,
    capabilities: { skills: ['dateTime', 'calculation'], fallback: 'cannotYet' },
  }),
  messenger: configuration({
    knowledge: MESSENGER_KNOWLEDGE,
    capabilities: { skills: ['delivery'], fallback: 'notFound' },
  }),
} satisfies Record<string, AgentConfiguration>;
type AgentName = keyof typeof AGENTS;

async function ask(
  name: AgentName | (string & {}),
  language: Language,
  message: string,
  extra: {
    facts?: () => Promise<LiveFacts>;
    configuration?: AgentConfiguration;
    signal?: AbortSignal;
    history?: HistoryLoader;
    engine?: AgentEngine;
    timeZone?: string;
  } = {},
): Promise<{ text: string; chunks: string[] }> {
  const chunks: string[] = [];
  const configuration = extra.configuration ?? AGENTS[name as AgentName];
  if (!configuration) throw new Error(`no agent ${name}`);
  const request = {
    agent: { name, configuration },
    history: extra.history,
    message,
    language,
    facts: extra.facts,
    signal: extra.signal,
    timeZone: extra.timeZone,
  };
  for await (const chunk of (extra.engine ?? engine).reply(request)) chunks.push(chunk);
  return { text: chunks.join(''), chunks };
}

function entryOf(knowledge: KnowledgeEntry[], topicId: string, language: Language): KnowledgeEntry {
  const entry = knowledge.find((e) => e.id === `${topicId}.${language}`);
  if (!entry) throw new Error(`no entry ${topicId}.${language}`);
  return entry;
}

/** The reply is the given knowledge entry: its title, content, and link as a Markdown link. */
function expectEntry(text: string, entry: KnowledgeEntry) {
  const link = entry.link
    ? `\n\n${say(entry.language, 'page')} [${entry.link}](${entry.link})`
    : '';
  expect(text).toBe(`**${entry.title}**\n\n${entry.content}${link}`);
}

describe('answers from knowledge: the right entry for the question', () => {
  it.each<[Language, string, string]>([
    ['pt-BR', 'como conecto meu whatsapp?', 'whatsapp'],
    ['pt-BR', 'COMO CONECTO MEU WHATSAPP', 'whatsapp'],
    ['pt-BR', 'conectar whatsap', 'whatsapp'],
    ['pt-BR', 'como contrato um agente?', 'hire'],
    ['pt-BR', 'como contrato um agnete?', 'hire'],
    ['pt-BR', 'quero trocar o idioma', 'language'],
    ['pt-BR', 'idiona', 'language'],
    ['pt-BR', 'como saio da conta', 'signout'],
    ['pt-BR', 'Oi guide, tudo bem? Como envio uma mensagem?', 'chat'],
    ['en-US', 'how do I hire an agent', 'hire'],
    ['en-US', 'hiring an agemt', 'hire'],
    ['en-US', 'how do I hire an agnet?', 'hire'],
    ['en-US', 'How do I connect my WhatsApp?', 'whatsapp'],
    ['en-US', 'change language', 'language'],
    ['en-US', 'how do I sign out', 'signout'],
    ['en-US', 'Hello guide! How do I send a message?', 'chat'],
    ['es-ES', '¿cómo cambio el idioma?', 'language'],
    ['es-ES', 'idiona', 'language'],
    ['es-ES', '¿Cómo conecto mi WhatsApp?', 'whatsapp'],
    ['es-ES', 'conectar whatsap', 'whatsapp'],
    ['es-ES', 'quiero contratar un agente', 'hire'],
    ['es-ES', 'quiero contratar un agnete', 'hire'],
    ['es-ES', 'cerrar sesion', 'signout'],
  ])('%s: %s', async (language, question, topicId) => {
    const { text } = await ask('guide', language, question);
    expectEntry(text, entryOf(GUIDE_KNOWLEDGE, topicId, language));
  });

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
    'says it does not know (%s: %s) and suggests its first three topics',
    async (language, question, topics) => {
      const { text } = await ask('guide', language, question);
      expect(text).toBe(
        `${notFound(language)} ${say(language, 'canHelpWith')}\n${topics.map((t) => `- ${t}`).join('\n')}`,
      );
    },
  );

  it('lists what it can do when asked', async () => {
    const { text } = await ask('guide', 'es-ES', '¿qué puedes hacer?');
    expect(text).toBe(
      `${say('es-ES', 'canHelpWith')}\n- Contratar un agente\n- Conectar WhatsApp\n- Cambiar el idioma`,
    );
  });

  it('searches entries whose ids repeat, as admins may write them', async () => {
    const knowledge = GUIDE_KNOWLEDGE.map((entry) => ({ ...entry, id: 'same' }));
    const { text } = await ask('guide', 'en-US', 'how do I sign out', {
      configuration: configuration({ knowledge }),
    });
    expectEntry(text, { ...entryOf(GUIDE_KNOWLEDGE, 'signout', 'en-US'), id: 'same' });
  });
});

describe('the catalogue skill: items and prices from the data', () => {
  const item = (id: string) => SHOP_CATALOGUE.items.find((i) => i.id === id)!;

  it.each<[Language, string, string, string]>([
    ['pt-BR', 'quanto custa a consultoria?', 'consulting', 'Preço: R$\u00a01.800,00 (por mês).'],
    [
      'pt-BR',
      'qual o preço do site institucional?',
      'website',
      'Preço: R$\u00a02.400,00 (pagamento único).',
    ],
    ['en-US', 'how much is the consulting?', 'consulting', 'Price: R$1,800.00 (per month).'],
    [
      'en-US',
      'how much does payroll cost?',
      'payroll',
      'Price: R$45.00 (per employee, per month).',
    ],
    ['es-ES', '¿cuánto cuesta la consultoría?', 'consulting', 'Precio: 1800,00\u00a0R$ (al mes).'],
    ['es-ES', 'precio del registro de marca', 'trademark', 'Precio: 1350,00\u00a0R$ (pago único).'],
  ])('%s: %s → the item and its price, in the language', async (language, question, id, price) => {
    const { text } = await ask('shop', language, question);
    const { name, description } = item(id);
    expect(text).toBe(`**${name[language]}**\n\n${description[language]}\n\n${price}`);
  });

  it('states the price of the item it names, as the data has it now', async () => {
    const cheaper = {
      ...SHOP_CATALOGUE,
      items: SHOP_CATALOGUE.items.map((i) => (i.id === 'payroll' ? { ...i, price: 39.9 } : i)),
    };
    const shop = configuration({
      capabilities: { skills: ['catalogue'], fallback: 'notFound' },
      catalogue: cheaper,
    });
    const { text } = await ask('shop', 'pt-BR', 'quanto custa a folha de pagamento?', {
      configuration: shop,
    });
    expect(text).toContain('**Folha de pagamento**');
    expect(text).toContain('Preço: R$\u00a039,90 (por funcionário, por mês).');
    for (const other of ['1.800,00', '2.400,00', '1.350,00', '45,00'])
      expect(text).not.toContain(other);
  });

  it.each<[Language, string]>([
    ['pt-BR', 'quais serviços vocês oferecem?'],
    ['en-US', 'what services do you offer?'],
    ['es-ES', '¿qué productos tienen?'],
  ])('%s: %s → the whole catalogue', async (language, question) => {
    const { text } = await ask('shop', language, question);
    const list = SHOP_CATALOGUE.items.map((i) => `- ${i.name[language]}`).join('\n');
    expect(text).toBe(
      `${say(language, 'catalogue.intro')}\n\n${list}\n\n${say(language, 'catalogue.outro')}`,
    );
  });

  it('says so for something it does not sell, offering what it can do', async () => {
    const { text } = await ask('shop', 'en-US', 'do you sell used cars?');
    expect(text).toBe(
      `${notFound('en-US')} ${say('en-US', 'canHelpWith')}\n` +
        `- ${say('en-US', 'abilities.catalogue')}\n- Management consulting\n- Payroll`,
    );
  });

  it('without the skill, a catalogue is knowledge: searched, but no list and no price talk', async () => {
    const knowledgeOnly = configuration({ catalogue: SHOP_CATALOGUE });
    const { text } = await ask('shop', 'en-US', 'management consulting', {
      configuration: knowledgeOnly,
    });
    expect(text).toContain('Price: R$1,800.00 (per month).');
    const list = await ask('shop', 'en-US', 'what services do you offer?', {
      configuration: knowledgeOnly,
    });
    expect(list.text.startsWith(say('en-US', 'catalogue.intro'))).toBe(false);
  });
});

describe('a business’s own words: what its owner wrote, found as customers ask', () => {
  // A clinic's items, sold per tooth: "dente" is in most of them, and names none.
  const perTooth = (id: string, name: string, description: string, price: number) => ({
    id,
    name: { 'pt-BR': name, 'en-US': name, 'es-ES': name },
    description: { 'pt-BR': description, 'en-US': description, 'es-ES': description },
    keywords: { 'pt-BR': [], 'en-US': [], 'es-ES': [] },
    price,
    unit: 'once' as const,
    unitText: 'dente',
  });
  const clinic = configuration({
    knowledge: [
      {
        id: 'faq-1.pt-BR',
        language: 'pt-BR',
        title: 'A clínica tem acessibilidade?',
        content: 'Sim: o prédio tem rampa na entrada e elevador.',
        keywords: [],
      },
      {
        id: 'faq-2.pt-BR',
        language: 'pt-BR',
        title: 'Quanto tempo demora um implante?',
        content: 'De 3 a 6 meses.',
        keywords: [],
      },
      {
        id: 'doc-1-1.pt-BR',
        language: 'pt-BR',
        title: 'Atrasos',
        content: 'A tolerância é de 15 minutos.',
        keywords: [],
        source: 'Tabela 2026.pdf',
      },
    ],
    capabilities: { skills: ['catalogue'], fallback: 'notFound' },
    catalogue: {
      currency: 'BRL',
      items: [
        perTooth('item-1', 'Limpeza', 'Profilaxia: remoção de tártaro.', 180),
        perTooth('item-2', 'Restauração em resina', 'Na cor do dente.', 250),
        perTooth('item-3', 'Extração de siso', 'Com anestesia local.', 480),
        perTooth('item-4', 'Implante com coroa de porcelana', 'Implante e coroa.', 3800),
      ],
    },
  });
  const askClinic = (message: string) =>
    ask('clinica', 'pt-BR', message, { configuration: clinic }).then((reply) => reply.text);

  it('a price asked with a word every item has is the named item’s', async () => {
    expect(await askClinic('quanto custa uma limpeza nos dentes?')).toContain('R$\u00a0180,00');
  });

  it('a word only an item’s description has names it, when no other entry has it', async () => {
    expect(await askClinic('preço da profilaxia')).toContain('R$\u00a0180,00');
    // Every word of a short question in one answer alone: that answer.
    expect(await askClinic('o prédio tem rampa?')).toContain('rampa na entrada');
  });

  it('a question read as another language is still answered from the business’s own', async () => {
    // WhatsApp asks in the language it detects; a short Portuguese question can read as Spanish.
    const { text } = await ask('clinica', 'es-ES', 'qual a tolerância para atraso?', {
      configuration: clinic,
    });
    expect(text).toBe(
      '**Atrasos**\n\nSegundo o documento “Tabela 2026.pdf”: A tolerância é de 15 minutos.',
    );
  });

  it('a price asked is the item’s, not a frequent question that names the item too', async () => {
    expect(await askClinic('quanto custa um implante?')).toContain('R$\u00a03.800,00');
    expect(await askClinic('quanto tempo demora um implante?')).toContain('De 3 a 6 meses');
  });

  it('a thing said in other words, or one slip away, is what the business wrote', async () => {
    // "obturação" is a filling, the clinic's "restauração"; "tirar o siso" its "extração de siso".
    expect(await askClinic('qual o valor da obturação?')).toContain('R$\u00a0250,00');
    expect(await askClinic('qto custa tirar o siso?')).toContain('R$\u00a0480,00');
    expect(await askClinic('preço pra arrancar dente do juízo')).toContain('R$\u00a0480,00');
    expect(await askClinic('quanto custa a restauraçao em rezina?')).toContain('R$\u00a0250,00');
  });

  it('a professional’s or a Portuguese word, and what is left out of a price', async () => {
    expect(await askClinic('Quanto custa a exodontia de terceiro molar?')).toContain(
      'R$\u00a0480,00',
    );
    expect(await askClinic('Qual o valor da obturação, sem contar a limpeza?')).toContain(
      'R$\u00a0250,00',
    );
    expect(await askClinic('Qual o valor da obturação, sem contar a limpeza?')).not.toContain(
      'R$\u00a0180,00',
    );
  });

  it('who writes, said with a greeting or thanks, asks nothing', async () => {
    const reply = (language: Language, message: string) =>
      ask('clinica', language, message, { configuration: clinic }).then(({ text }) => text);
    expect(await askClinic('boa tarde minha filha aqui é a dona Cida tudo bem com você')).toContain(
      say('pt-BR', 'greeting'),
    );
    expect(await askClinic('oi, sou a Ana, quanto custa a limpeza?')).toContain('R$\u00a0180,00');
    expect(await reply('en-US', 'Hi there, good morning! This is Tom')).toContain(
      say('en-US', 'greeting'),
    );
    expect(await askClinic('muito obrigada minha filha, deus te abençoe')).toBe(
      say('pt-BR', 'thanks'),
    );
    expect(await reply('es-ES', 'Muchas gracias, muy amables ustedes')).toBe(
      say('es-ES', 'thanks'),
    );
  });

  it('whether someone pregnant may have a treatment, or what a child will need, is not its to say', async () => {
    for (const [language, message] of [
      ['pt-BR', 'Estou gestante de 20 semanas. Posso fazer a limpeza?'],
      ['pt-BR', 'Os dentes do meu filho estão nascendo tortos, ele vai precisar de aparelho?'],
      ['en-US', 'I am pregnant, can I have a filling?'],
      ['es-ES', 'Estoy embarazada, ¿puedo hacerme una limpieza?'],
    ] as const) {
      // The rule of an account's own agent, which says what its owner wrote and nothing else.
      const business: AgentConfiguration = {
        ...clinic,
        business: { timeZone: 'America/Sao_Paulo', hours: [], closedDates: [] },
      };
      const { text } = await ask('clinica', language, message, { configuration: business });
      expect(text, message).toMatch(new RegExp(`^${say(language, 'notFound')}`));
    }
  });

  it('a diminutive, a phrase for a word, and what is said not to be asked', async () => {
    expect(await askClinic('qto fica uma limpezinha?')).toContain('R$\u00a0180,00');
    expect(await askClinic('quanto é pra tirar o dente do juízo?')).toContain('R$\u00a0480,00');
    // Two extractions; the one that is not the wisdom tooth's is not asked.
    const perTooth = clinic.catalogue!.items[2]!;
    const simple = { ...perTooth, id: 'item-5', price: 220 };
    simple.name = {
      'pt-BR': 'Extração simples',
      'en-US': 'Extração simples',
      'es-ES': 'Extração simples',
    };
    const two: AgentConfiguration = {
      ...clinic,
      catalogue: { ...clinic.catalogue!, items: [...clinic.catalogue!.items, simple] },
    };
    const both = await ask('clinica', 'pt-BR', 'quanto custa uma extração?', {
      configuration: two,
    });
    expect(both.text).toContain('R$\u00a0480,00');
    expect(both.text).toContain('R$\u00a0220,00');
    const { text } = await ask('clinica', 'pt-BR', 'qto custa extração que não é de siso', {
      configuration: two,
    });
    expect(text).toContain('R$\u00a0220,00');
    expect(text).not.toContain('R$\u00a0480,00');
  });

  it('a word written as it sounds is the word the business wrote', async () => {
    expect(await askClinic('qto custa o ciso?')).toContain('R$\u00a0480,00');
    expect(await askClinic('e o implanti com a koroa?')).toContain('R$\u00a03.800,00');
    // Two words that sound alike stand for neither: "sela" is "cela" as much as "sela".
    expect(await askClinic('qto custa a sela?')).toMatch(new RegExp(`^${notFound('pt-BR')}`));
  });

  it('an English or Spanish question is answered from the Portuguese texts, saying so', async () => {
    const english = await ask('clinica', 'en-US', 'is the clinic wheelchair accessible?', {
      configuration: clinic,
    });
    expect(english.text).toBe(
      'The details are in Portuguese:\n\n' +
        '**A clínica tem acessibilidade?**\n\nSim: o prédio tem rampa na entrada e elevador.',
    );
    // A price is written for the question's language; the item's name is the owner's.
    const spanish = await ask(
      'clinica',
      'es-ES',
      '¿precio de la extracción de la muela del juicio?',
      {
        configuration: clinic,
      },
    );
    expect(spanish.text).toMatch(/^Los detalles están en portugués:\n\n\*\*Extração de siso\*\*/);
    expect(spanish.text).toContain('480,00\u00a0R$');
    const price = await ask('clinica', 'en-US', 'how much is a dental implant?', {
      configuration: clinic,
    });
    expect(price.text).toContain('R$3,800.00');
  });

  it('a question in another language whose words the texts mostly lack is refused', async () => {
    const { text } = await ask('clinica', 'en-US', 'can my dog come with me to the extraction?', {
      configuration: clinic,
    });
    expect(text).toMatch(new RegExp(`^${notFound('en-US')}`));
  });

  it('a business’s agent diagnoses nothing and gives no one else’s contact', async () => {
    const profile: KnowledgeEntry = {
      id: 'business.pt-BR',
      language: 'pt-BR',
      title: 'Clínica Sorriso',
      content: 'Telefone: (41) 3023-4567. Atendemos os convênios Odontoprev e Uniodonto.',
      keywords: [],
    };
    const withProfile = { ...clinic, knowledge: [...clinic.knowledge, profile] };
    const business: AgentConfiguration = {
      ...withProfile,
      business: { timeZone: 'America/Sao_Paulo', hours: [], closedDates: [] },
    };
    const questions = [
      ['pt-BR', 'restauração em resina, o que pode ser?'],
      ['pt-BR', 'extração de siso? posso parar o remédio de afinar o sangue antes?'],
      ['pt-BR', 'extração de siso? qual remédio?'],
      ['en-US', 'my dental implant hurts, what could it be?'],
      ['pt-BR', 'qual o telefone da Uniodonto?'],
    ] as const;
    for (const [language, question] of questions) {
      const { text } = await ask('clinica', language, question, { configuration: business });
      expect(text, question).toMatch(new RegExp(`^${notFound(language)}`));
      // The same words find an answer in an agent that is no business's (the rule is the reason).
      const other = await ask('clinica', language, question, { configuration: withProfile });
      expect(other.text, question).not.toMatch(new RegExp(`^${notFound(language)}`));
    }
    // What it was given, it still answers: its own phone, a price.
    for (const [question, expected] of [
      ['qual o telefone da clínica?', '3023-4567'],
      ['qual o valor da obturação?', 'R$\u00a0250,00'],
    ]) {
      const { text } = await ask('clinica', 'pt-BR', question!, { configuration: business });
      expect(text, question).toContain(expected);
    }
  });

  it('a question with more said around it is answered from the part that asks it', async () => {
    expect(await askClinic('perdi um dente, quanto sai um implante com coroa?')).toContain(
      'R$\u00a03.800,00',
    );
    expect(await askClinic('a restauração em resina quanto é? o dentista pediu')).toContain(
      'R$\u00a0250,00',
    );
    // "…preço?" next to something the clinic does not do is not a request for the whole list.
    const veneer = await askClinic('vcs fazem faceta de porcelana? qual o preço?');
    expect(veneer).toMatch(new RegExp(`^${notFound('pt-BR')}`));
    // What a part says is not asked is not answered.
    const fitting = await askClinic('quanto custa colocar o implante? a instalação, não a limpeza');
    expect(fitting).not.toContain('R$\u00a0180,00');
  });

  it('a price asked with a story around it is the item the story names', async () => {
    for (const [question, price] of [
      [
        'o dentista do posto falou q preciso fazer uma restauração em resina, qual o valor ai?',
        '250,00',
      ],
      ['perdi um dente de cima e queria colocar implante c/ a coroa, qnto fica td?', '3.800,00'],
      ['tenho pavor 😰 qnto custa a extração do siso?', '480,00'],
    ]) {
      expect(await askClinic(question!), question).toContain(`R$\u00a0${price}`);
    }
    // A word it does not know next to an item's names something else: no price.
    for (const question of [
      'quanto custa a extração de siso a laser com sedação?',
      'o dentista falou que preciso de uma restauração de amálgama, qual o valor?',
      'minha mãe precisa de um implante zigomático com coroa, qnto fica?',
    ]) {
      const text = await askClinic(question);
      expect(text, question).toMatch(new RegExp(`^${notFound('pt-BR')}`));
      expect(text, question).not.toMatch(/R\$/);
    }
  });

  it('a question told in one breath with a story around it is answered without the story', async () => {
    expect(
      await askClinic('meu marido tem pavor mas vocês tem rampa pro meu pai com cadeira de rodas'),
    ).toContain('rampa na entrada');
    expect(
      await askClinic('quanto tempo demora um implante meu marido quer saber porque tem medo'),
    ).toMatch(/^\*\*Quanto tempo demora um implante\?\*\*/);
    // What the story leaves is still what is asked: a question about something else stays refused.
    for (const question of [
      'se eu arrancar o dente amanhã consigo trabalhar depois?',
      'minha filha quer saber se vocês fazem selante nos dentes dela',
      'meu neto perguntou se vocês atendem cachorro',
    ]) {
      const text = await askClinic(question);
      expect(text, question).toMatch(new RegExp(`^${notFound('pt-BR')}`));
    }
  });

  it('the question of a message is answered before what it tells, and thanks said in passing', async () => {
    // The question asks about the extraction; what it tells says the resin is not the point.
    expect(
      await askClinic('a restauração em resina ficou ótima. quanto custa a extração de siso?'),
    ).toContain('R$\u00a0480,00');
    // Asked to compare, each one named.
    const both = await askClinic(
      'qual a diferença de preço da extração de siso pro implante com coroa?',
    );
    expect(both).toContain('R$\u00a0480,00');
    expect(both).toContain('R$\u00a03.800,00');
    expect(await askClinic('to tremendo aqui kkk obg pela paciencia')).toBe(say('pt-BR', 'thanks'));
  });

  it('a request to book is answered with how to book, whatever it asks to book and when', async () => {
    const booking: KnowledgeEntry = {
      id: 'faq-3.pt-BR',
      language: 'pt-BR',
      title: 'Como faço para agendar uma consulta?',
      content: 'Pelo WhatsApp ou pelo telefone; a recepção confirma o horário.',
      keywords: ['Quero marcar uma consulta'],
    };
    const withBooking = { ...clinic, knowledge: [...clinic.knowledge, booking] };
    for (const question of [
      'quero agendar uma limpeza pro meu marido',
      'vc consegue marcar pra mim uma restauração quinta as 15h?',
    ]) {
      const { text } = await ask('clinica', 'pt-BR', question, { configuration: withBooking });
      expect(text, question).toContain('Pelo WhatsApp ou pelo telefone');
    }
    // Booking what the clinic does not do is not its to answer.
    const { text } = await ask('clinica', 'pt-BR', 'quero marcar com o dermatologista', {
      configuration: withBooking,
    });
    expect(text).toMatch(new RegExp(`^${notFound('pt-BR')}`));
  });

  it('a price asked of what the business only describes is not answered with the description', async () => {
    const text = await askClinic('quanto custa usar o elevador?');
    expect(text).toMatch(new RegExp(`^${notFound('pt-BR')}`));
    // How long a price-less answer takes is still answered.
    expect(await askClinic('quanto tempo demora um implante?')).toContain('De 3 a 6 meses');
  });

  it('a part of an item, asked without the rest, is not sold at the item’s price', async () => {
    for (const question of [
      'quanto custa só a coroa de porcelana, sem o implante?',
      'qto é só a coroa de porcelana?',
      'a porcelana sozinha, sem o implante, qto é?',
    ]) {
      const text = await askClinic(question);
      expect(text, question).toMatch(new RegExp(`^${notFound('pt-BR')}`));
      expect(text, question).not.toMatch(/R\$/);
    }
    // "só" before what is asked in full, or elsewhere in the message, is no part.
    expect(await askClinic('quanto é só a extração de siso?')).toContain('R$\u00a0480,00');
    expect(await askClinic('qto custa o implante com coroa? só queria saber')).toContain(
      'R$\u00a03.800,00',
    );
  });

  it('a word no item has still stops a price: nothing else is sold as what was asked', async () => {
    for (const question of [
      'qual o valor da faceta de porcelana?',
      'quanto custa a lente dental?',
    ]) {
      const text = await askClinic(question);
      expect(text, question).toMatch(new RegExp(`^${notFound('pt-BR')}`));
      expect(text, question).not.toMatch(/R\$/);
    }
  });
});

describe('the liveFacts skill: figures from the facts', () => {
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
    const { text } = await ask('ops', language, question, { facts });
    expect(text).toBe(answer);
  });

  it.each<[Language, string, string]>([
    ['pt-BR', 'quantas conversas nesta semana?', 'Nesta semana foram iniciadas 7 conversas.'],
    ['en-US', 'how many messages in total?', '417 messages have been exchanged in all.'],
    ['es-ES', '¿cuántos usuarios hoy?', 'Hoy se registró 1 cuenta.'],
    ['pt-BR', 'quantos usuários no total?', 'Há 3 usuários cadastrados.'],
    [
      'en-US',
      'who are the newest users?',
      'The newest accounts:\n  - Maria Souza (Tuesday, March 3, 2026)',
    ],
  ])(
    'counts the period asked for, in all, today or this week (%s: %s)',
    async (language, question, answer) => {
      const { text } = await ask('ops', language, question, { facts });
      expect(text).toBe(answer);
    },
  );

  it('uses the singular for one', async () => {
    const one = async () => factsWith(1, 1, 17);
    expect((await ask('ops', 'pt-BR', 'quantos usuários?', { facts: one })).text).toBe(
      'Há 1 usuário cadastrado.',
    );
    expect(
      (await ask('ops', 'en-US', 'how many users and conversations?', { facts: one })).text,
    ).toBe('- There is 1 registered user.\n- 1 conversation was started today.');
  });

  it("follows each language's plural rules: none, thousands and millions", async () => {
    const counts = (users: number, messagesToday: number) => async () =>
      factsWith(users, 2, messagesToday);
    const figures = async (language: Language, question: string, users: number, messages: number) =>
      (await ask('ops', language, question, { facts: counts(users, messages) })).text.split('\n');
    expect(await figures('pt-BR', 'quantos usuários e mensagens?', 1_000_000, 0)).toEqual([
      '- Há 1.000.000 de usuários cadastrados.',
      '- Hoje não foi trocada nenhuma mensagem.',
    ]);
    expect(await figures('es-ES', '¿cuántos usuarios y mensajes?', 1_000_000, 12_345)).toEqual([
      '- Hay 1.000.000 de usuarios registrados.',
      '- Hoy se intercambiaron 12.345 mensajes.',
    ]);
    expect(await figures('en-US', 'how many users and messages?', 1_000_000, 0)).toEqual([
      '- There are 1,000,000 registered users.',
      '- No messages were exchanged today.',
    ]);
  });

  it('gives every figure for a status question', async () => {
    const { text } = await ask('ops', 'pt-BR', 'status do sistema', {
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
    expect((await ask('ops', 'en-US', 'how many users?')).text).toBe(
      say('en-US', 'facts.adminsOnly'),
    );
    const broken = () => Promise.reject(new Error('database down'));
    expect((await ask('ops', 'es-ES', '¿cuántos usuarios hay?', { facts: broken })).text).toBe(
      say('es-ES', 'facts.unavailable'),
    );
  });

  it('answers where things are from its knowledge', async () => {
    const { text } = await ask('ops', 'pt-BR', 'onde vejo os logs?', { facts });
    expectEntry(text, entryOf(ADMIN_KNOWLEDGE, 'logs', 'pt-BR'));
    expectEntry(
      (await ask('ops', 'en-US', 'how do I configure openai?')).text,
      entryOf(ADMIN_KNOWLEDGE, 'model', 'en-US'),
    );
  });

  it('belongs to the configuration, not the name', async () => {
    const named = await ask('administrador', 'en-US', 'how many users are there?', {
      configuration: configuration({ knowledge: ADMIN_KNOWLEDGE }),
      facts,
    });
    expect(named.text.startsWith(notFound('en-US'))).toBe(true);
    const skilled = await ask('bakery', 'en-US', 'how many users are there?', {
      configuration: AGENTS.ops,
      facts,
    });
    expect(skilled.text).toBe('There are 3 registered users.');
  });
});

describe('greetings, thanks, dates and arithmetic (dateTime and calculation skills)', () => {
  it.each<[Language, string]>([
    ['pt-BR', 'Olá!'],
    ['pt-BR', 'bom dia, helper'],
    ['en-US', 'hello'],
    ['es-ES', '¡Hola! ¿Qué tal?'],
  ])(
    'greets back (%s: %s) and offers its skills, then what it knows',
    async (language, message) => {
      const { text } = await ask('helper', language, message);
      const title = entryOf(ASSISTANT_KNOWLEDGE, 'limits', language).title;
      expect(text).toBe(
        `${say(language, 'greeting')} ${say(language, 'forExample')}\n` +
          `- ${say(language, 'abilities.dateTime')}\n- ${say(language, 'abilities.calculation')}\n- ${title}`,
      );
    },
  );

  it.each<[Language, string, 'greeting' | 'thanks']>([
    ['pt-BR', 'bom dia!! tudo certo por ai?', 'greeting'],
    ['pt-BR', 'obrigadão, vc ajudou mt 😊', 'thanks'],
    ['en-US', 'hi there, how is it going?', 'greeting'],
    ['en-US', 'thanks, you helped a lot 🙂', 'thanks'],
    ['es-ES', 'buenas tardes, ¿cómo va todo?', 'greeting'],
    ['es-ES', '¡muchísimas gracias! me ayudaste mucho', 'thanks'],
  ])(
    'takes small talk after a greeting or thanks as courtesy only (%s: %s)',
    async (language, message, kind) => {
      const { text } = await ask('helper', language, message);
      expect(text.startsWith(say(language, kind)), text).toBe(true);
    },
  );

  it('still answers what follows a greeting when it asks something', async () => {
    expect((await ask('helper', 'pt-BR', 'oi, tudo bem? quanto é 2+2?')).text).toBe(
      '2 + 2 = **4**',
    );
    expectEntry(
      (await ask('guide', 'pt-BR', 'bom dia! tudo certo? como conecto o zap?')).text,
      entryOf(GUIDE_KNOWLEDGE, 'whatsapp', 'pt-BR'),
    );
  });

  it('calculates what is asked with "please" before or after it', async () => {
    expect((await ask('helper', 'pt-BR', '3.200 / 4 pf')).text).toBe('3.200 ÷ 4 = **800**');
    expect((await ask('helper', 'pt-BR', 'por favor, 3.200 / 4')).text).toBe('3.200 ÷ 4 = **800**');
    expect((await ask('helper', 'en-US', '7 * 6 please')).text).toBe('7 × 6 = **42**');
    expect((await ask('helper', 'es-ES', '100 / 8 por favor')).text).toBe('100 ÷ 8 = **12,5**');
  });

  it('answers a question in another language than the interface, from that language, in it', async () => {
    // Too short, or too close a call between Portuguese and Spanish, to be detected as Portuguese.
    expect((await ask('helper', 'en-US', 'o dobro de 37,5')).text).toBe('dobro de 37,5 = **75**');
    expectEntry(
      (await ask('guide', 'en-US', 'Como conecto meu WhatsApp?')).text,
      entryOf(GUIDE_KNOWLEDGE, 'whatsapp', 'pt-BR'),
    );
    expect((await ask('guide', 'en-US', 'obrigado!')).text).toBe(say('pt-BR', 'thanks'));
    // Out of scope in any language: refused in the language it was answered in, never quoted.
    const { text } = await ask('guide', 'en-US', 'qual a capital da Mongólia?');
    expect(
      text.startsWith(`${notFound('pt-BR')} `) || text.startsWith(`${notFound('en-US')} `),
    ).toBe(true);
    expect(text).not.toMatch(/Mong/);
  });

  it('offers the abilities in three languages', () => {
    expect(say('pt-BR', 'abilities.calculation')).toBe('contas como 2 + 3 × (4 − 1)');
    expect(say('en-US', 'abilities.dateTime')).toBe('the current date and time');
    expect(say('es-ES', 'greeting')).toBe('¡Hola! ¿En qué puedo ayudarte?');
  });

  it.each<[Language, string]>([
    ['pt-BR', 'muito obrigado!'],
    ['en-US', 'thanks a lot'],
    ['es-ES', 'gracias'],
  ])('answers thanks (%s: %s)', async (language, message) => {
    expect((await ask('helper', language, message)).text).toBe(say(language, 'thanks'));
  });

  it.each<[Language, string, string | RegExp]>([
    [
      'pt-BR',
      'que dia é hoje?',
      'Hoje é terça-feira, 3 de março de 2026 (Horário Padrão de Brasília).',
    ],
    [
      'pt-BR',
      'que horas são?',
      'Agora são 14:05, terça-feira, 3 de março de 2026 (Horário Padrão de Brasília).',
    ],
    [
      'en-US',
      'what time is it?',
      /^It's 5:05\sPM on Tuesday, March 3, 2026 \(Coordinated Universal Time\)\.$/,
    ],
    [
      'en-US',
      "what's the date today?",
      'Today is Tuesday, March 3, 2026 (Coordinated Universal Time).',
    ],
    [
      'es-ES',
      '¿qué hora es?',
      'Son las 18:05 del martes, 3 de marzo de 2026 (hora estándar de Europa central).',
    ],
    [
      'es-ES',
      '¿qué fecha es hoy?',
      'Hoy es martes, 3 de marzo de 2026 (hora estándar de Europa central).',
    ],
  ])(
    'tells the date and time in the language and its zone (%s: %s)',
    async (language, question, answer) => {
      const { text } = await ask('helper', language, question);
      if (typeof answer === 'string') expect(text).toBe(answer);
      else expect(text).toMatch(answer);
    },
  );

  it('tells each language the day in its own zone', async () => {
    // 01:30 UTC on the 4th is still the 3rd in Brasília.
    const late = createBuiltinEngine({ now: () => new Date('2026-03-04T01:30:00Z') });
    const day = async (language: Language, message: string) =>
      (await ask('helper', language, message, { engine: late })).text;
    expect(await day('pt-BR', 'que dia é hoje?')).toContain('3 de março');
    expect(await day('en-US', 'what day is it?')).toContain('March 4');
  });

  it("tells the date and time in the user's own zone when the web app sends it", async () => {
    // 14:05 in Brasília is 02:05 the next day in Tokyo.
    const { text } = await ask('helper', 'pt-BR', 'vc sabe q horas sao hj?', {
      timeZone: 'Asia/Tokyo',
    });
    expect(text).toBe(
      'Agora são 02:05, quarta-feira, 4 de março de 2026 (Horário Padrão do Japão).',
    );
  });

  it.each<[Language, string, string]>([
    ['en-US', '2 + 3 * (4 - 1)', '2 + 3 × (4 - 1) = **11**'],
    ['pt-BR', 'quanto é 2 + 3 * (4 - 1)?', '2 + 3 × (4 - 1) = **11**'],
    ['pt-BR', 'quanto é 10 / 4?', '10 ÷ 4 = **2,5**'],
    ['pt-BR', 'calcule 2,5 x 4', '2,5 × 4 = **10**'],
    ['en-US', 'what is 10 / 4?', '10 ÷ 4 = **2.5**'],
    ['en-US', 'what is 1,000 + 2.5?', '1,000 + 2.5 = **1,002.5**'],
    ['en-US', '-3 + 5', '- 3 + 5 = **2**'],
    ['es-ES', '¿cuánto es 3 por 4?', '3 × 4 = **12**'],
    ['pt-BR', 'quanto é 2 mais 2?', '2 + 2 = **4**'],
    ['en-US', '0.1 + 0.2', '0.1 + 0.2 = **0.3**'],
  ])('does arithmetic (%s: %s)', async (language, question, answer) => {
    expect((await ask('helper', language, question)).text).toBe(answer);
  });

  it.each<Language>(['pt-BR', 'en-US', 'es-ES'])(
    'handles division by zero (%s)',
    async (language) => {
      expect((await ask('helper', language, '1 / (2 - 2)')).text).toBe(
        say(language, 'calculation.divisionByZero'),
      );
    },
  );

  it.each<[Language, string]>([
    ['pt-BR', 'qual a capital da Mongólia?'],
    ['en-US', 'write me a poem about the sea'],
    ['es-ES', '¿quién ganó el mundial de 2022?'],
  ])('admits what it cannot answer yet, with suggestions (%s: %s)', async (language, question) => {
    const { text } = await ask('helper', language, question);
    expect(text.startsWith(`${say(language, 'cannotYet')} ${say(language, 'forNow')}\n`)).toBe(
      true,
    );
    expect(text).toContain(`- ${say(language, 'abilities.dateTime')}`);
    expect(text).toContain(`- ${say(language, 'abilities.calculation')}`);
  });

  it('does not evaluate what is not a plain calculation', async () => {
    const deep = `${'('.repeat(500)}1 + 1${')'.repeat(500)}`;
    expect((await ask('helper', 'en-US', deep)).text.startsWith(say('en-US', 'cannotYet'))).toBe(
      true,
    );
    expect(
      (await ask('helper', 'en-US', 'process.exit(1) + 1')).text.startsWith(
        say('en-US', 'cannotYet'),
      ),
    ).toBe(true);
  });

  it('answers about itself from its knowledge', async () => {
    expectEntry(
      (await ask('helper', 'en-US', 'why are your answers so limited?')).text,
      entryOf(ASSISTANT_KNOWLEDGE, 'limits', 'en-US'),
    );
  });

  it('an agent without the skills neither calculates nor tells the time', async () => {
    for (const question of ['2 + 2', 'what time is it?']) {
      const { text } = await ask('guide', 'en-US', question);
      expect(text.startsWith(say('en-US', 'notFound').slice(0, 15)), text).toBe(true);
    }
  });
});

describe('the delivery skill, and agents an admin creates', () => {
  it('explains anonymous messages, and how to write one when a number comes otherwise', async () => {
    expectEntry(
      (await ask('messenger', 'pt-BR', 'a mensagem é anônima?')).text,
      entryOf(MESSENGER_KNOWLEDGE, 'how', 'pt-BR'),
    );
    // The engine never sends: the WhatsApp feature answers send requests before it (whatsapp.relay.ts).
    expect((await ask('messenger', 'en-US', 'my number is +55 11 98765-4321')).text).toBe(
      say('en-US', 'delivery.how'),
    );
    expectEntry(
      (await ask('messenger', 'es-ES', '¿cuándo estará disponible el envío?')).text,
      entryOf(MESSENGER_KNOWLEDGE, 'availability', 'es-ES'),
    );
  });

  it('an agent an admin created answers from its own knowledge, and picks up edits', async () => {
    // As stored for a new agent: no capabilities given, so the schema's default (none).
    const configuration = agentConfigurationSchema.parse({
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
    });
    expect(configuration.capabilities).toEqual({ skills: [], fallback: 'notFound' });
    const custom = createBuiltinEngine();
    const answer = async (config: AgentConfiguration, message: string, name = 'bakery') =>
      (await ask(name, 'en-US', message, { configuration: config, engine: custom })).text;
    expect(await answer(configuration, 'when do you open?')).toBe(
      '**Opening hours**\n\nWe open at 7 am.',
    );
    const edited = {
      ...configuration,
      knowledge: [{ ...configuration.knowledge[0]!, content: 'We open at 8 am.' }],
    };
    expect(await answer(edited, 'when do you open?')).toBe('**Opening hours**\n\nWe open at 8 am.');
    expect(await answer(configuration, 'do you sell cakes?')).toBe(
      `${notFound('en-US')} ${say('en-US', 'canHelpWith')}\n- Opening hours`,
    );
    // Names are chosen by admins: one that is also an Object property is just another agent.
    expect(await answer(configuration, 'when do you open?', 'constructor')).toBe(
      '**Opening hours**\n\nWe open at 7 am.',
    );
    // Nothing in this language: it looks in the English it knows, and offers that.
    const { text } = await ask('bakery', 'pt-BR', 'pão?', { configuration, engine: custom });
    expect(text).toBe(`${notFound('pt-BR')} ${say('pt-BR', 'canHelpWith')}\n- Opening hours`);
  });
});

describe('the stream', () => {
  it('is deterministic', async () => {
    const first = await ask('guide', 'pt-BR', 'como conecto meu whatsapp?');
    const second = await ask('guide', 'pt-BR', 'como conecto meu whatsapp?');
    // Earlier turns change nothing: the engine never even reads them.
    const read: number[] = [];
    const third = await ask('guide', 'pt-BR', 'como conecto meu whatsapp?', {
      engine: createBuiltinEngine({ now: () => NOW }),
      history: async (budgetChars) => {
        read.push(budgetChars);
        return [{ role: 'user', text: 'oi' }];
      },
    });
    expect(second.text).toBe(first.text);
    expect(third.text).toBe(first.text);
    expect(read).toEqual([]);
  });

  it('comes in several chunks that add up to the reply', async () => {
    const { text, chunks } = await ask('guide', 'en-US', 'how do I hire an agent');
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
    const short = configuration({ knowledge: GUIDE_KNOWLEDGE, maxReplyLength: 60 });
    const { text } = await ask('guide', 'en-US', 'how do I hire an agent', {
      configuration: short,
    });
    // Cut at the last word that fits in 59 characters, then the ellipsis: 59 in all.
    expect(text).toBe('**Hire an agent**\n\nOn the Dashboard, click **Hire** on the…');
  });

  it('stops when the request is aborted, before it starts and mid-stream', async () => {
    const controller = new AbortController();
    controller.abort();
    const before = await ask('guide', 'en-US', 'how do I hire an agent', {
      signal: controller.signal,
    }).catch((error: unknown) => error);
    expect(before).toBeInstanceOf(EngineFailure);
    expect(before).toMatchObject({ reason: 'aborted' });

    const midway = new AbortController();
    const chunks: string[] = [];
    const request: EngineRequest = {
      agent: { name: 'guide', configuration: AGENTS.guide },
      message: 'how do I hire an agent',
      language: 'en-US',
      signal: midway.signal,
    };
    const during = await (async () => {
      for await (const chunk of engine.reply(request)) {
        chunks.push(chunk);
        midway.abort();
      }
    })().catch((error: unknown) => error);
    expect(during).toBeInstanceOf(EngineFailure);
    expect(during).toMatchObject({ reason: 'aborted' });
    // The first piece of the reply (its title), and nothing after the abort.
    expect(chunks).toEqual(['**Hire an agent**\n\n']);
  });
});
