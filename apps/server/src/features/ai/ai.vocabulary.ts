import type { Language } from '@contrateia/shared';

// What the builtin engine recognizes in a question, per language. What it says is not here: its
// sentences are in the shared locales (`engine.*`), translated with the server's i18n.

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
  /** "Please", before or after what is asked. */
  please: RegExp;
  /**
   * Words that, after a greeting or thanks, only chat ("bom dia, tudo certo por aí?", "thanks,
   * you helped a lot"): a message of courtesy and these words asks nothing.
   */
  smallTalk: ReadonlySet<string>;
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
  /** Periods of the live counts, and the newest accounts. */
  today: ReadonlySet<string>;
  week: ReadonlySet<string>;
  total: ReadonlySet<string>;
  newest: ReadonlySet<string>;
};

const set = (text: string): ReadonlySet<string> => new Set(text.split(' '));

export const VOCABULARY: Record<Language, Vocabulary> = {
  'pt-BR': {
    greeting:
      /^(oi+|ola|opa|eai|e ai|hey|bom dia|boa tarde|boa noite|saudacoes|tudo (bem|bom|certo|tranquilo|joia|ok)|como vai( voce)?|beleza)\b/,
    thanks:
      /^(muito )?(obrigad(o|a|ao|ona|issim[oa])|valeu|agradecid[oa]|brigad(o|a|ao|inh[oa]))( (mesmo|demais))?\b/,
    please: /^por favor\b/,
    smallTalk: set(
      'tudo bem bom boa certo tranquilo tranquila joia beleza ok por ai aqui voce voces contigo com e ' +
        'ajudou ajudaram ajudando ajuda muito muita demais mesmo viu esta estao ai pessoal gente ' +
        'amigo amiga querido querida ne otimo otima legal show top dia tarde noite sao o a os as de da do',
    ),
    askTime: /\b(que horas?|horas sao|hora (e|atual|certa)|horario atual)\b/,
    askDate:
      /\b(que dia|qual (e )?(o )?dia|qual (e )?a data|data de hoje|dia (e )?hoje|hoje e que|que data|dia da semana|em que (mes|ano))\b/,
    quantity: set('quantos quantas numero total quantidade contagem'),
    state: set(
      'status estado funciona funcionando ok online ativo ativa configurado configurada esta saude',
    ),
    overview: set('status estado saude resumo situacao sistema'),
    users: set('usuario usuarios conta contas cadastrados cadastros cadastro pessoas'),
    conversations: set('conversa conversas chats chat'),
    messages: set('mensagem mensagens'),
    database: set('banco bd database pglite postgres postgresql dados'),
    mail: set('email mail smtp correio'),
    price: set('quanto custa custam custo custos preco precos valor valores cobra cobram sai'),
    catalogue: set(
      'produto produtos servico servicos catalogo oferece oferecem vende vendem lista opcoes tem',
    ),
    today: set('hoje'),
    week: set('semana'),
    total: set('total todos todas ja sempre geral'),
    newest: set('novos novas ultimos ultimas recentes mais'),
  },
  'en-US': {
    greeting:
      /^(hi+|hello|hey|hiya|greetings|good (morning|afternoon|evening)|how are you( doing)?|how is it going|what s up|howdy)\b/,
    thanks: /^(thanks?|thank you|thx|ty|many thanks|cheers)( (a lot|a ton|so much|very much))?\b/,
    please: /^please\b/,
    smallTalk: set(
      'there all good everything ok okay fine how is it going are you doing today helped help ' +
        'lot ton much really so very great again buddy friend mate folks everyone that s the a',
    ),
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
    today: set('today'),
    week: set('week'),
    total: set('total all ever overall'),
    newest: set('newest latest recent last new'),
  },
  'es-ES': {
    greeting:
      /^(hola|buenos dias|buenas tardes|buenas noches|buenas|saludos|que tal|como estas|como va|todo bien|hey)\b/,
    thanks: /^(muchas |muchisimas )?(gracias|mil gracias|te lo agradezco)\b/,
    please: /^por favor\b/,
    smallTalk: set(
      'todo bien por ahi aqui que tal como estas esta va vas te me ayudaste ayudado ayuda mucho ' +
        'muy muchisimo genial amigo amiga todos gente son sois de la el',
    ),
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
    today: set('hoy'),
    week: set('semana'),
    total: set('total todos todas siempre'),
    newest: set('nuevos nuevas ultimos ultimas recientes'),
  },
};
