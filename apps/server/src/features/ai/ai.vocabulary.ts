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
  /** Thanks said anywhere in a message: "to tremendo kkk obg pela paciência". */
  thanksWithin: RegExp;
  /** What asks to compare things: "a diferença de preço entre…". */
  compare: ReadonlySet<string>;
  /** "Please", before or after what is asked. */
  please: RegExp;
  /**
   * Words that, after a greeting or thanks, only chat ("bom dia, tudo certo por aí?", "thanks,
   * you helped a lot"): a message of courtesy and these words asks nothing.
   */
  smallTalk: ReadonlySet<string>;
  /**
   * Words of a life told around a question, never what a business is asked about: who comes
   * along, where one comes from or goes, how one feels ("qual o endereço? vou pedir pro meu neto
   * me levar", "tenho pavor de dentista"). A message that finds nothing with them may without.
   */
  aside: ReadonlySet<string>;
  /**
   * Words that start the reason given after a question ("quanto custa o implante porque perdi um
   * dente", "do you open early because I work at 9"): what follows is not what is asked.
   */
  reason: ReadonlySet<string>;
  /** Verbs that ask whether a business does, offers or sells the thing named after them. */
  offer: ReadonlySet<string>;
  /**
   * Words that ask or want something (question words, "quero", "can"): a message with courtesy
   * and none of them only tells ("bom dia, sou do RH de uma transportadora").
   */
  asking: ReadonlySet<string>;
  /** Of those, the ones that want ("gostaria", "I'd like"): with nothing named, only chat. */
  wish: ReadonlySet<string>;
  /**
   * Who writes, said with a greeting ("boa tarde, aqui é a dona Cida", "hi, this is Tom"): chat
   * too, when nothing else is asked.
   */
  introduction: RegExp;
  /**
   * What one will do, said after thanks ("brigada, vou passar tudo pra patroa", "thanks, I'll
   * call tomorrow"): a plan, which asks nothing.
   */
  plan: RegExp;
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
  /** What asks a price: "quanto custa", "valor". */
  price: ReadonlySet<string>;
  /** What asks it too, or how to pay: "qto pago por mês?", "posso pagar no pix?". */
  pay: ReadonlySet<string>;
  catalogue: ReadonlySet<string>;
  /** Periods of the live counts, and the newest accounts. */
  today: ReadonlySet<string>;
  week: ReadonlySet<string>;
  total: ReadonlySet<string>;
  newest: ReadonlySet<string>;
  /** A business's hours: what asks about them ("abre", "horário", "fechado")… */
  openingHours: ReadonlySet<string>;
  /** …what does when a day is named too ("vocês atendem sábado?")… */
  serving: ReadonlySet<string>;
  /** …or a time ("até que horas vocês atendem?")… */
  clock: ReadonlySet<string>;
  /** …the days asked about (0 Sunday), with "now", "tomorrow", the weekend and holidays… */
  weekdays: ReadonlyMap<string, number>;
  now: ReadonlySet<string>;
  tomorrow: ReadonlySet<string>;
  weekend: RegExp;
  holiday: ReadonlySet<string>;
  /**
   * …and what else such a question may say without asking about something else ("até que horas
   * vocês ficam abertos hoje?"); the business's own name is allowed too.
   */
  hoursFiller: ReadonlySet<string>;
  /**
   * A question that asks what is wrong with someone or which medicine to take ("o que pode
   * ser?", "é normal?", "posso tomar ibuprofeno?"): a business's agent answers it from nothing
   * it was given, whatever words it shares with what it knows.
   */
  diagnosis: RegExp;
  /**
   * Medicines: a question that names one the agent was not told of is about a treatment it
   * cannot prescribe ("posso parar o remédio de afinar o sangue antes de arrancar um dente?").
   */
  medicine: ReadonlySet<string>;
  /**
   * "sem", "without", "não": what follows is not part of what is asked ("a coroa, sem o
   * implante", "a extração que não é de siso").
   */
  without: ReadonlySet<string>;
  /** "só", "only": what is asked may be part of an item ("só a coroa"). */
  only: ReadonlySet<string>;
  /**
   * A contact detail asked of someone named after it ("o telefone da Uniodonto"): the name is
   * the last group. A business's agent gives only its own.
   */
  contactOf: RegExp;
  /** The words that, after contactOf's "of", name the business itself ("de vocês"). */
  ownReference: ReadonlySet<string>;
};

const weekdays = (names: string): ReadonlyMap<string, number> =>
  new Map(
    names.split(' ').flatMap((group, day) => group.split('/').map((name) => [name, day] as const)),
  );

const set = (text: string): ReadonlySet<string> => new Set(text.split(' '));

export const VOCABULARY: Record<Language, Vocabulary> = {
  'pt-BR': {
    offer: set('faz fazem oferece oferecem vende vendem coloca colocam'),
    // "Dá" asks only in "dá pra" (ai.concepts writes it "pode"): "sou coronel da reserva" tells.
    asking: set(
      'quanto quanta quantos quantas qual quais onde como quando quem quero queria gostaria ' +
        'preciso precisava posso pode podem consigo tem tinha aceita aceitam solicito',
    ),
    // "Solicito informações": the formal wish, for nothing named, is chat too.
    wish: set('quero queria gostaria preciso precisava solicito'),
    reason: set('porque pq pois'),
    aside: set(
      'neto neta netos netas filho filha filhos filhas marido esposa sogra sogro irmao irma tio tia ' +
        'sobrinho sobrinha primo prima namorado namorada cunhado cunhada vizinho vizinha patroa patrao ' +
        'chefe caçula cacula levar leva levo levando trazer traz trago buscar busca pedir peco pedi ' +
        'chego chegar obra loja escritorio ' +
        'reuniao faculdade escola plantao turno medo pavor coragem nervoso nervosa ansioso ansiosa sofri ' +
        'sofro sofrer deus amor mexer direito sei aprendi neste nesse desse dessa porque pq enquanto ' +
        'sendo tô to estou tava estava ja',
    ),

    // Regional and formal openings too: "Colé, meu rei!", "Coé, rapaziada!", "Égua, boa tarde
    // mana!", "Prezados, boa tarde."
    greeting:
      /^(oi+|ola+|opa|ea+i|e a+i|eae|e ae|salve|fala|hey|bom dia+|boa tarde+|boa noite+|buenas|saudacoes|tudo (bem|bom|certo|tranquilo|joia|ok|tri|beleza|de boa)|como vai( voce)?|beleza|(a )?paz( do senhor)?|graca e paz|cole|coe|egua|prezad[oa]s?( senhor(es|as)?)?)\b/,
    // A farewell ends a conversation as thanks do: "Agradeço a atenção. Passar bem."
    thanks:
      /^(muito )?(obrigad(o+|a+|ao|ona|issim[oa])|valeu+|vlw|tmj|obg|agradecid[oa]|agradeco|brigad(o+|a+|ao|inh[oa])|passar bem|passe bem|tchau+|deus (lhe|lhes|te|vos) pague|(fique|fiquem|va|vao) com deus)( (mesmo|demais))?\b/,
    please: /^por (favor|gentileza)\b/,
    thanksWithin: /\b(obrigad[oa]+s?|valeu+|vlw|tmj|obg|brigad[oa]+|agradec\w*|grat[oa])\b/,
    compare: set('diferenca diferencas comparar compara comparacao versus vs'),
    smallTalk: set(
      'tudo bem bom boa certo tranquilo tranquila joia beleza ok por ai aqui voce voces contigo com e ' +
        'ajudou ajudaram ajudando ajuda muito muita demais mesmo viu esta estao ai pessoal gente ' +
        'pela pelo atencao paciencia retorno resposta respostas informacao informacoes ' +
        'amigo amiga querido querida ne otimo otima legal show top dia tarde noite sao o a os as de da do ' +
        'senhora senhor senhorita minha meu filha filho deus abencoe abencoa kkk kkkk rs haha ' +
        'atenciosos atenciosa atencioso educados gentis gentil te lhe simpatico simpatica ' +
        'simpaticos simpaticas amavel amaveis queridos queridas amigos amigas algumas alguns ' +
        'gentileza mano perfeito perfeita maravilha excelente um tenha ' +
        // Who is greeted, and the South's words of chat: "eaaai time, tudo certo?", "buenas, tchê!
        // tudo tri?"
        'time galera tche tri ' +
        // Whom one greets and how one hopes they are, from Bahia, Minas, Rio and in writing:
        // "Colé de mermo, meu rei! Boa tarde pra vcs", "Cês tão bão?", "Suave?", "Espero que
        // estejam bem."
        'rei mermo rapaziada suave bao so para espero estejam esteja',
    ),
    introduction:
      /\b(aqui (e|eh|quem fala e|fala)|meu nome e|me chamo|eu sou|sou)( (o|a))?( (dona|seu|sr|sra|dr|dra|doutor|doutora))? \w+/g,
    plan: /^(vou|vamos|irei|iremos)\b/,
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
    price: set('quanto custa custam custo custos preco precos valor valores cobra cobram'),
    pay: set('pago paga pagar pagaria pagamos'),
    catalogue: set(
      'produto produtos servico servicos catalogo oferece oferecem vende vendem lista opcoes tem ' +
        'tabela procedimentos tratamentos',
    ),
    today: set('hoje'),
    week: set('semana'),
    total: set('total todos todas ja sempre geral'),
    newest: set('novos novas ultimos ultimas recentes mais'),
    openingHours: set(
      'horario horarios abre abrem abrir abriu aberto aberta abertos abertas abrindo ' +
        'abertura funcionamento fecha fecham fechar fechado fechada intervalo ' +
        'fechados fechadas fechando fechamento expediente',
    ),
    // "Como funciona?" alone asks how something works; with a day or a time, about the hours.
    serving: set(
      'atende atendem atendendo atendimento trabalha trabalham trabalhando funciona funcionam funcionando funcionar ' +
        // "posso ir sábado?", "tem alguém aí sábado à tarde?", "vcs ficam até que horas?"
        'ir vir passar alguem ficam ' +
        // Coming back from lunch: "depois do almoço vcs voltam q horas?"
        'volta voltam voltar',
    ),
    clock: set('hora horas'),
    weekdays: weekdays(
      'domingo/domingos segunda/segundas terca/tercas quarta/quartas quinta/quintas sexta/sextas sabado/sabados',
    ),
    now: set('agora'),
    tomorrow: set('amanha'),
    weekend: /\b(fim|final|finais|fins) de semana\b/,
    holiday: set(
      'feriado feriados natal reveillon carnaval pascoa tiradentes finados independencia proclamacao ' +
        // Good Friday: "Sexta-feira da Paixão".
        'paixao',
    ),
    hoursFiller: set(
      'dia dias feira feiras semana fim final ano novo ate partir depois antes normal normalmente ' +
        // Early and late as one says them: "vcs abrem cedinho?"
        'cedinho tardinha noitinha ' +
        'sempre todo toda todos todas hoje agora amanha vai vao ficam fica ficar tao abertos ' +
        'estabelecimento loja empresa escritorio consultorio clinica local lugar atendimento manha ' +
        'tarde noite almoco intervalo santa corpus christi consciencia negra vespera cedo alguem ' +
        'vem proxima proximo',
    ),
    diagnosis:
      /\b(o que (pode|poderia) ser|o que (eu )?tenho(?! (que|de|pra|para))|o que (ele|ela) tem|e (normal|grave|serio|perigoso|carie|infeccao)|posso tomar|(qual|que) (remedio|antibiotico|medicamento|analgesico|pomada)|(vai|vou|vamos|vao) (precisar|ter que|ter de)|gravida|gestante|gravidez|amamentando)\b/,
    medicine: set(
      'remedio remedios medicamento medicamentos antibiotico antibioticos analgesico ' +
        'antiinflamatorio anti inflamatorio dipirona ibuprofeno paracetamol amoxicilina pomada ' +
        // What thins the blood: "ela toma AAS todo dia, pode arrancar dente?"
        'aas aspirina anticoagulante anticoagulantes varfarina marevan clopidogrel',
    ),
    without: set('sem exceto nao nem'),
    only: set('so somente apenas sozinho sozinha sozinhos sozinhas'),
    contactOf:
      /\b(?:telefone|fone|celular|whatsapp|zap|endereco|site|email|numero|contato) (?:da|do|de|dos|das) (\w+)/,
    // …and the formal word for the place: "o endereço completo do estabelecimento".
    ownReference: set(
      'voces vcs voce vc ces clinica empresa loja consultorio escritorio estabelecimento',
    ),
  },
  'en-US': {
    offer: set('offer offers sell sells'),
    asking: set('how what which where when who whom whose want would need can could do does'),
    wish: set('want would like need'),
    reason: set('because cause'),
    aside: set(
      'grandson granddaughter son daughter husband wife mother father mom dad brother sister aunt ' +
        'uncle nephew niece cousin boyfriend girlfriend neighbour neighbor boss bring ' +
        'pick office meeting school shift scared afraid nervous ' +
        'anxious terrified god please staying near because while',
    ),

    greeting:
      /^(hi+|hello+|hey+|hiya|howya|greetings|good (morning|afternoon|evening|day)|g ?'?day|how are you( doing)?|how is it going|what s up|howdy)\b/,
    thanks:
      /^(thanks?|thank you|thx|ty|many thanks|cheers)( (a lot|a ton|so much|very much|for))?\b/,
    please: /^please\b/,
    thanksWithin: /\b(thanks|thank you|thank|grateful|cheers)\b/,
    compare: set('difference differences compare comparison versus vs'),
    smallTalk: set(
      'there all good everything ok okay fine how is it going are you doing today helped help ' +
        'lot ton much really so very great again buddy friend mate folks everyone that s the a ' +
        'for your time patience info information have been helpful kind nice you morning ' +
        'afternoon evening day hope well re doing brilliant perfect awesome lovely wonderful ' +
        // Whom one greets, in Ireland and Nigeria, and how they keep: "Howya lads, hope ye're all
        // keeping well!", "Good evening sir/ma. How is work today?"
        'lads ye keeping sir ma madam work',
    ),
    introduction: /\b(this is|my name is|i am|i m|it s)( (mr|mrs|ms|dr))? \w+/g,
    plan: /^(i ll|i will|we ll|we will|i m going to|we re going to)\b/,
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
    pay: set('pay'),
    catalogue: set(
      'product products service services catalog catalogue offer offers sell list options have ' +
        'treatments procedures',
    ),
    today: set('today'),
    week: set('week'),
    total: set('total all ever overall'),
    newest: set('newest latest recent last new'),
    // "At which hour is your lunch break?": the break is the closing at lunch.
    openingHours: set('open opens opening opened hours close closes closing closed break'),
    serving: set('serve serving working'),
    clock: set('time times hour'),
    weekdays: weekdays(
      'sunday/sundays monday/mondays tuesday/tuesdays wednesday/wednesdays thursday/thursdays friday/fridays saturday/saturdays',
    ),
    now: set('now'),
    tomorrow: set('tomorrow'),
    weekend: /\b(weekends?|week end)\b/,
    holiday: set('holiday holidays christmas easter thanksgiving carnival'),
    hoursFiller: set(
      'day days week weekend weekends until till after before usual usually normally always every ' +
        'today now tomorrow still yet store shop office clinic place morning afternoon evening lunch ' +
        'eve new year years early weekday weekdays am pm night over',
    ),
    diagnosis:
      /\b(what could (it|this|that) be|what could be causing|what s wrong with|what is wrong with|is (it|this|that) (normal|serious|dangerous|a cavity|an infection)|what do i have(?! to)|(should|can) i take|(which|what) (medicine|medication|painkiller|pill|antibiotic)s?|will (he|she|i|they|we) (need|have to)|pregnant|pregnancy|breastfeeding)\b/,
    medicine: set(
      'medicine medicines medication medications drug drugs antibiotic antibiotics painkiller ' +
        'painkillers ibuprofen paracetamol acetaminophen aspirin amoxicillin pill pills',
    ),
    without: set('without except excluding not doesnt dont isnt'),
    only: set('only just alone'),
    contactOf: /\b(?:phone|number|address|website|email|contact) (?:of|for) (?:the )?(\w+)/,
    ownReference: set('you your yours clinic company store shop office business practice'),
  },
  'es-ES': {
    offer: set('hace hacen ofrece ofrecen vende venden pone ponen coloca colocan'),
    asking: set(
      'cuanto cuanta cuantos cuantas cual cuales donde como cuando quien quiero queria quisiera ' +
        'necesito puedo puede pueden tienen tiene aceptan acepta',
    ),
    wish: set('quiero queria quisiera necesito'),
    reason: set('porque pues'),
    aside: set(
      'nieto nieta hijo hija hijos marido esposa suegra suegro hermano hermana tio tia sobrino ' +
        'sobrina primo prima novio novia vecino vecina jefe llevar lleva traer buscar pedir ' +
        'oficina reunion escuela turno miedo nervioso nerviosa dios porque ' +
        'mientras quedo',
    ),

    greeting:
      /^(hola+|buenos dias|buen dia|buenas tardes|buenas noches|buenas+|saludos|que tal|como estas|como va|todo bien|hey|que bola)\b/,
    thanks: /^(muchas |muchisimas )?(gracias+|mil gracias|te lo agradezco)\b/,
    please: /^por favor\b/,
    thanksWithin: /\b(gracias|agradec\w*|agradecid[oa])\b/,
    compare: set('diferencia diferencias comparar compara comparacion versus vs'),
    smallTalk: set(
      'todo bien por ahi aqui que tal como estas esta va vas te me ayudaste ayudado ayuda mucho ' +
        'muy muchisimo genial amigo amiga todos gente son sois de la el por tu su atencion paciencia ' +
        'informacion sos un una genio crack amable amables jaja ustedes usted vos simpatico ' +
        'simpatica simpaticos simpaticas dias tardes noches unos unas perfecto perfecta excelente ' +
        // Whom one greets: "¿Qué bolá? Buenas tardes, mi vida."
        'mi vida',
    ),
    introduction:
      /\b(aqui (es|habla)|mi nombre es|me llamo|soy)( (el|la))?( (don|dona|sr|sra|dr|dra))? \w+/g,
    plan: /^(voy|vamos|ire|iremos)\b/,
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
    price: set(
      'cuanto cuesta cuestan costo coste costos precio precios valor cobran cobras vale valen sale salen',
    ),
    pay: set('pago pagar pagaria pagamos'),
    catalogue: set(
      'producto productos servicio servicios catalogo ofrece ofrecen vende venden lista opciones tienen ' +
        'tarifas tratamientos procedimientos',
    ),
    today: set('hoy'),
    week: set('semana'),
    total: set('total todos todas siempre'),
    newest: set('nuevos nuevas ultimos ultimas recientes'),
    openingHours: set(
      'horario horarios abre abren abrir abris abierto abierta abiertos abiertas apertura ' +
        'cierra cierran cerrar cerrais cerrado cerrada cerrados cerradas cierre',
    ),
    serving: set(
      'atiende atienden atendeis atencion trabaja trabajan trabajais funciona funcionan ' +
        // Seeing patients at a time: "¿tienen consulta por la tarde?"
        'consulta',
    ),
    clock: set('hora horas'),
    weekdays: weekdays('domingo/domingos lunes martes miercoles jueves viernes sabado/sabados'),
    // And as it is said in Mexico and the Caribbean: "¿Están abiertos ahorita?"
    now: set('ahora ahorita'),
    tomorrow: set('manana'),
    weekend: /\b(fin de semana|fines de semana|finde)\b/,
    holiday: set('festivo festivos feriado feriados navidad nochebuena nochevieja pascua carnaval'),
    hoursFiller: set(
      'dia dias semana fin fines finde hasta partir despues antes normal normalmente siempre todo ' +
        'toda todos todas hoy ahora manana vais van sigue seguis tienda empresa oficina consulta ' +
        'clinica local lugar negocio tarde noche mediodia comida almuerzo santa entre',
    ),
    diagnosis:
      /\b(que (puede|podria) ser|es (normal|grave|serio|peligroso|caries|una caries|una infeccion)|que tengo(?! que)|(puedo|debo) tomar|(que|cual) (medicamento|medicina|pastilla|antibiotico|analgesico)|(va|vas|voy|vamos|van) a (necesitar|tener que)|embarazada|embarazo|amamantando|lactancia)\b/,
    medicine: set(
      'remedio remedios medicamento medicamentos medicina antibiotico antibioticos analgesico ' +
        'antiinflamatorio ibuprofeno paracetamol amoxicilina pastilla pastillas ' +
        'aspirina adiro anticoagulante anticoagulantes sintrom',
    ),
    without: set('sin excepto no ni'),
    only: set('solo sola solamente unicamente'),
    contactOf:
      /\b(?:telefono|whatsapp|direccion|web|email|correo|numero|contacto) (?:de|del) (?:la |el |los |las )?(\w+)/,
    ownReference: set(
      'ustedes usted vosotros clinica empresa tienda consulta oficina negocio establecimiento',
    ),
  },
};
