import type { Language } from '@contrateia/shared';
import type { LiveFacts } from './ai.engine';

/**
 * Everything the builtin engine says on its own (not read from an agent's knowledge), in each
 * interface language. Keeping the three side by side makes a missing translation a type error.
 */
export type Phrases = {
  /** BCP 47 locale for Intl. */
  locale: string;
  /**
   * The zone the date and time are told in; `now` and `today` name it. The server cannot know the
   * user's own zone, so each language takes its brand's: Brasília for pt-BR, Madrid for es-ES, and
   * UTC for en-US, whose users are anywhere.
   */
  timeZone: string;
  greeting: string;
  /** Introduces a list of topics after a greeting. */
  forExample: string;
  thanks: string;
  /** Introduces a list of topics. */
  canHelpWith: string;
  notFound: string;
  cannotYet: string;
  /** Introduces a list of topics after cannotYet. */
  forNow: string;
  page: string;
  catalogueIntro: string;
  catalogueOutro: string;
  now: (time: string, date: string) => string;
  today: (date: string) => string;
  divisionByZero: string;
  notFinite: string;
  factsAdminsOnly: string;
  factsUnavailable: string;
  users: (n: string, one: boolean) => string;
  conversationsToday: (n: string, one: boolean) => string;
  messagesToday: (n: string, one: boolean) => string;
  database: (facts: LiveFacts['database']) => string;
  mail: (mail: LiveFacts['mail']) => string;
  deliveryPending: string;
  /** Things an agent can do besides its knowledge, offered first when it suggests topics. */
  skills: { assistente: string[]; administrador: string[]; auxtrat: string[] };
};

export const PHRASES: Record<Language, Phrases> = {
  'pt-BR': {
    locale: 'pt-BR',
    timeZone: 'America/Sao_Paulo',
    greeting: 'Olá! Em que posso ajudar?',
    forExample: 'Por exemplo:',
    thanks: 'De nada! Se precisar de mais alguma coisa, é só perguntar.',
    canHelpWith: 'Posso ajudar com:',
    notFound: 'Não encontrei uma resposta para isso no que eu sei.',
    cannotYet:
      'Ainda não consigo responder a isso. Estou funcionando sem um modelo de linguagem, então só sei fazer ' +
      'algumas coisas; quando um administrador configurar um modelo de linguagem, poderei responder a ' +
      'perguntas abertas como essa.',
    forNow: 'Por enquanto, posso ajudar com:',
    page: 'Página:',
    catalogueIntro: 'Estes são os nossos produtos e serviços:',
    catalogueOutro: 'Pergunte sobre qualquer um deles para ver os detalhes e o preço.',
    now: (time, date) => `Agora são ${time}, ${date} (horário de Brasília).`,
    today: (date) => `Hoje é ${date} (horário de Brasília).`,
    divisionByZero: 'Não dá para dividir por zero: o resultado não é definido.',
    notFinite: 'O resultado é grande demais para eu calcular.',
    factsAdminsOnly:
      'Os números do sistema ao vivo só aparecem para administradores em modo administrador.',
    factsUnavailable: 'Não consegui ler os números do sistema agora. Tente de novo em instantes.',
    users: (n, one) => (one ? `Há ${n} usuário cadastrado.` : `Há ${n} usuários cadastrados.`),
    conversationsToday: (n, one) =>
      one ? `Hoje foi iniciada ${n} conversa.` : `Hoje foram iniciadas ${n} conversas.`,
    messagesToday: (n, one) =>
      one ? `Hoje foi trocada ${n} mensagem.` : `Hoje foram trocadas ${n} mensagens.`,
    database: ({ kind, ok }) =>
      `Banco de dados: ${kind === 'pglite' ? 'PGlite embutido' : 'PostgreSQL'}, ${ok ? 'funcionando' : 'sem resposta'}.`,
    mail: (mail) =>
      mail === 'smtp'
        ? 'E-mail: enviado por SMTP.'
        : 'E-mail: sem SMTP configurado; os códigos de verificação vão para o log do servidor.',
    deliveryPending:
      'Ainda não posso entregar essa mensagem: o envio anônimo chega com a integração do WhatsApp, e nada ' +
      'foi enviado. Quando estiver disponível, escreva aqui o número do destinatário com DDD e a mensagem.',
    skills: {
      assistente: [
        'a data e a hora de agora',
        'contas como 2 + 3 × (4 − 1)',
        'cumprimentos e pedidos de ajuda',
      ],
      administrador: [
        'quantos usuários, conversas e mensagens há hoje',
        'o estado do banco de dados e do e-mail',
      ],
      auxtrat: ['a lista dos nossos produtos e serviços'],
    },
  },
  'en-US': {
    locale: 'en-US',
    timeZone: 'UTC',
    greeting: 'Hello! How can I help?',
    forExample: 'For example:',
    thanks: "You're welcome! If you need anything else, just ask.",
    canHelpWith: 'I can help with:',
    notFound: "I couldn't find an answer to that in what I know.",
    cannotYet:
      "I can't answer that yet. I'm running without a language model, so I can only do a few things; once " +
      "an administrator sets up a language model, I'll be able to answer open questions like this one.",
    forNow: 'For now, I can help with:',
    page: 'Page:',
    catalogueIntro: 'These are our products and services:',
    catalogueOutro: 'Ask about any of them for the details and the price.',
    now: (time, date) => `It's ${time} on ${date} (UTC).`,
    today: (date) => `Today is ${date} (UTC).`,
    divisionByZero: "I can't divide by zero: the result is undefined.",
    notFinite: 'The result is too large for me to compute.',
    factsAdminsOnly: 'Live system figures are shown only to administrators in admin mode.',
    factsUnavailable: "I couldn't read the system figures just now. Please try again in a moment.",
    users: (n, one) =>
      one ? `There is ${n} registered user.` : `There are ${n} registered users.`,
    conversationsToday: (n, one) =>
      one ? `${n} conversation was started today.` : `${n} conversations were started today.`,
    messagesToday: (n, one) =>
      one ? `${n} message was exchanged today.` : `${n} messages were exchanged today.`,
    database: ({ kind, ok }) =>
      `Database: ${kind === 'pglite' ? 'embedded PGlite' : 'PostgreSQL'}, ${ok ? 'working' : 'not responding'}.`,
    mail: (mail) =>
      mail === 'smtp'
        ? 'Mail: sent over SMTP.'
        : 'Mail: no SMTP configured; verification codes go to the server log.',
    deliveryPending:
      "I can't deliver that message yet: anonymous sending arrives with the WhatsApp integration, and " +
      "nothing was sent. When it's available, write the recipient's number with its area code and your message here.",
    skills: {
      assistente: [
        'the current date and time',
        'sums like 2 + 3 × (4 − 1)',
        'greetings and requests for help',
      ],
      administrador: [
        'how many users, conversations and messages there are today',
        'the state of the database and mail',
      ],
      auxtrat: ['the list of our products and services'],
    },
  },
  'es-ES': {
    locale: 'es-ES',
    timeZone: 'Europe/Madrid',
    greeting: '¡Hola! ¿En qué puedo ayudarte?',
    forExample: 'Por ejemplo:',
    thanks: '¡De nada! Si necesitas algo más, solo tienes que preguntar.',
    canHelpWith: 'Puedo ayudarte con:',
    notFound: 'No encontré una respuesta a eso en lo que sé.',
    cannotYet:
      'Todavía no puedo responder a eso. Funciono sin un modelo de lenguaje, así que solo sé hacer algunas ' +
      'cosas; cuando un administrador configure un modelo de lenguaje, podré responder preguntas abiertas ' +
      'como esta.',
    forNow: 'Por ahora, puedo ayudarte con:',
    page: 'Página:',
    catalogueIntro: 'Estos son nuestros productos y servicios:',
    catalogueOutro: 'Pregunta por cualquiera de ellos para ver los detalles y el precio.',
    now: (time, date) => `Son las ${time} del ${date} (hora de Madrid).`,
    today: (date) => `Hoy es ${date} (hora de Madrid).`,
    divisionByZero: 'No se puede dividir entre cero: el resultado no está definido.',
    notFinite: 'El resultado es demasiado grande para calcularlo.',
    factsAdminsOnly:
      'Las cifras del sistema en vivo solo se muestran a los administradores en modo administrador.',
    factsUnavailable:
      'No pude leer las cifras del sistema ahora. Inténtalo de nuevo en un momento.',
    users: (n, one) => (one ? `Hay ${n} usuario registrado.` : `Hay ${n} usuarios registrados.`),
    conversationsToday: (n, one) =>
      one ? `Hoy se inició ${n} conversación.` : `Hoy se iniciaron ${n} conversaciones.`,
    messagesToday: (n, one) =>
      one ? `Hoy se intercambió ${n} mensaje.` : `Hoy se intercambiaron ${n} mensajes.`,
    database: ({ kind, ok }) =>
      `Base de datos: ${kind === 'pglite' ? 'PGlite integrado' : 'PostgreSQL'}, ${ok ? 'funcionando' : 'sin respuesta'}.`,
    mail: (mail) =>
      mail === 'smtp'
        ? 'Correo: enviado por SMTP.'
        : 'Correo: sin SMTP configurado; los códigos de verificación van al registro del servidor.',
    deliveryPending:
      'Todavía no puedo entregar ese mensaje: el envío anónimo llega con la integración de WhatsApp, y no se ' +
      'envió nada. Cuando esté disponible, escribe aquí el número del destinatario con su prefijo y el mensaje.',
    skills: {
      assistente: [
        'la fecha y la hora actuales',
        'cuentas como 2 + 3 × (4 − 1)',
        'saludos y peticiones de ayuda',
      ],
      administrador: [
        'cuántos usuarios, conversaciones y mensajes hay hoy',
        'el estado de la base de datos y del correo',
      ],
      auxtrat: ['la lista de nuestros productos y servicios'],
    },
  },
};

/**
 * A value for each language, made on its first use and then kept: for Intl formatters, which cost
 * far more to make than to use (the first one in the process also loads the locale data).
 */
export function perLanguage<T>(make: (language: Language) => T): (language: Language) => T {
  const made = new Map<Language, T>();
  return (language) => {
    let value = made.get(language);
    if (value === undefined) {
      value = make(language);
      made.set(language, value);
    }
    return value;
  };
}

// Vocabularies the engine recognises in a question, as normalized words (see normalizeText).
// Regular expressions run on the normalized message; `\b` is enough because accents are gone.
export type Vocabulary = {
  greeting: RegExp;
  thanks: RegExp;
  askTime: RegExp;
  askDate: RegExp;
  quantity: ReadonlySet<string>;
  state: ReadonlySet<string>;
  overview: ReadonlySet<string>;
  users: ReadonlySet<string>;
  conversations: ReadonlySet<string>;
  messages: ReadonlySet<string>;
  database: ReadonlySet<string>;
  mail: ReadonlySet<string>;
  price: ReadonlySet<string>;
  catalogue: ReadonlySet<string>;
};

const set = (text: string): ReadonlySet<string> => new Set(text.split(' '));

export const VOCABULARY: Record<Language, Vocabulary> = {
  'pt-BR': {
    greeting:
      /^(oi+|ola|opa|eai|e ai|hey|bom dia|boa tarde|boa noite|saudacoes|tudo bem|tudo bom|como vai( voce)?|beleza)\b/,
    thanks: /^(muito )?(obrigad[oa]|valeu|agradecid[oa]|brigad[oa])( (mesmo|demais))?\b/,
    askTime: /\b(que horas?|horas sao|hora (e|atual|certa)|horario atual)\b/,
    askDate:
      /\b(que dia|qual (e )?(o )?dia|qual (e )?a data|data de hoje|dia (e )?hoje|hoje e que|que data|dia da semana|em que (mes|ano))\b/,
    quantity: set('quantos quantas numero total quantidade contagem'),
    state: set(
      'status estado funciona funcionando ok online ativo ativa configurado configurada esta saude',
    ),
    overview: set('status estado saude resumo situacao sistema'),
    users: set('usuario usuarios conta contas cadastrados cadastros pessoas'),
    conversations: set('conversa conversas chats chat'),
    messages: set('mensagem mensagens'),
    database: set('banco bd database pglite postgres postgresql dados'),
    mail: set('email mail smtp correio'),
    price: set('quanto custa custam custo custos preco precos valor valores cobra cobram sai'),
    catalogue: set(
      'produto produtos servico servicos catalogo oferece oferecem vende vendem lista opcoes tem',
    ),
  },
  'en-US': {
    greeting:
      /^(hi+|hello|hey|hiya|greetings|good (morning|afternoon|evening)|how are you( doing)?|howdy)\b/,
    thanks: /^(thanks?|thank you|thx|ty|many thanks|cheers)( (a lot|so much|very much))?\b/,
    askTime: /\b(what time|time is it|current time|the time now|time now)\b/,
    askDate:
      /\b(what day|which day|what date|today s date|date today|the date|day of the week|what month|what year|is it today)\b/,
    quantity: set('many number total count amount'),
    state: set('status state working ok online up running healthy configured is'),
    overview: set('status health overview summary system state'),
    users: set('user users account accounts members people'),
    conversations: set('conversation conversations chats chat'),
    messages: set('message messages'),
    database: set('database db pglite postgres postgresql'),
    mail: set('email mail smtp'),
    price: set('much cost costs price prices pricing charge fee fees'),
    catalogue: set(
      'product products service services catalog catalogue offer offers sell list options have',
    ),
  },
  'es-ES': {
    greeting:
      /^(hola|buenas|buenos dias|buenas tardes|buenas noches|saludos|que tal|como estas|hey)\b/,
    thanks: /^(muchas )?(gracias|mil gracias|te lo agradezco)\b/,
    askTime: /\b(que hora|hora es|horas son|la hora|hora actual)\b/,
    askDate:
      /\b(que dia|que fecha|fecha de hoy|dia es hoy|hoy es que|dia de la semana|en que (mes|ano))\b/,
    quantity: set('cuantos cuantas numero total cantidad'),
    state: set(
      'estado funciona funcionando ok online activo activa configurado configurada esta salud',
    ),
    overview: set('estado salud resumen situacion sistema'),
    users: set('usuario usuarios cuenta cuentas registrados personas'),
    conversations: set('conversacion conversaciones chats chat'),
    messages: set('mensaje mensajes'),
    database: set('base datos bd database pglite postgres postgresql'),
    mail: set('correo email mail smtp'),
    price: set('cuanto cuesta cuestan costo coste costos precio precios valor cobran cobras'),
    catalogue: set(
      'producto productos servicio servicios catalogo ofrece ofrecen vende venden lista opciones tienen',
    ),
  },
};
