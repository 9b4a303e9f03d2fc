import SearchableMap from 'minisearch/SearchableMap';
import { LANGUAGES, type Language } from '@contrateia/shared';

/**
 * Words that mean the same thing to a customer, within a language and across the three: "obturação"
 * is "restauração", "tártaro" is removed in a "limpeza", a "parking" question is about the
 * "estacionamento". The builtin engine searches words; without this, a business that wrote its
 * texts one way answers only customers who ask the same way, and an English or Spanish customer
 * none at all. Each word of a group is indexed and searched as the group's one term, so an entry
 * and a question meet on whichever of its words each says.
 *
 * The groups are the everyday vocabulary of the small businesses that hire an agent (prices and
 * payment, booking, where and how to reach them, who they serve) and of health and dental care,
 * the first kind of business the product is sold to. A word goes in only where it has one meaning
 * to a customer of such a business: "plano" (a health plan, or a treatment plan) and "tirar" (to
 * remove, or to take an x-ray) do not. Words are normalized (lower case, no accents) and each is
 * matched by its stem (see processWord), so one form stands for its inflections.
 */
// prettier-ignore
const GROUPS: Record<string, Record<Language, string>> = {
  tooth: {
    'pt-BR': 'dente dentes dental dentaria dentario dentarios',
    'en-US': 'tooth teeth dental',
    'es-ES': 'diente dientes muela muelas dental',
  },
  dentist: {
    'pt-BR': 'dentista dentistas odontologo odontologa odontologos',
    'en-US': 'dentist dentists',
    'es-ES': 'dentista dentistas odontologo odontologa odontologos',
  },
  cleaning: {
    'pt-BR': 'limpeza limpezas profilaxia',
    'en-US': 'cleaning cleanings clean prophylaxis polish scale',
    'es-ES': 'limpieza limpiezas profilaxis',
  },
  whitening: {
    'pt-BR': 'clareamento clareamentos clarear clareador clareadora branqueamento',
    'en-US': 'whitening whiten bleaching',
    'es-ES': 'blanqueamiento blanqueamientos blanquear blanqueador',
  },
  filling: {
    'pt-BR': 'restauracao restauracoes restaurar obturacao obturacoes obturar',
    'en-US': 'filling fillings restoration',
    'es-ES': 'empaste empastes obturacion restauracion',
  },
  rootCanal: {
    'pt-BR': 'canal canais endodontia endo',
    'en-US': 'canal canals root endodontic endodontics',
    'es-ES': 'endodoncia conducto conductos endo',
  },
  removal: {
    'pt-BR': 'extracao extracoes extrair arrancar remocao remover exodontia exodontias',
    'en-US': 'extraction extractions extract removal remove pull',
    'es-ES': 'extraccion extracciones extraer sacar quitar exodoncia exodoncias',
  },
  wisdomTooth: {
    'pt-BR': 'siso sisos juizo',
    'en-US': 'wisdom',
    'es-ES': 'juicio',
  },
  xRay: {
    'pt-BR': 'radiografia radiografias raio raios ortopantomografia',
    'en-US': 'xray xrays ray rays radiograph radiography orthopantomogram',
    'es-ES': 'radiografia radiografias rayos ortopantomografia',
  },
  orthodontics: {
    'pt-BR': 'ortodontia ortodontico ortodontista aparelho aparelhos',
    'en-US': 'orthodontics orthodontic orthodontist braces brace',
    'es-ES': 'ortodoncia ortodoncista brackets frenos',
  },
  aligner: {
    'pt-BR': 'alinhador alinhadores invisivel invisiveis transparente transparentes',
    'en-US': 'aligner aligners invisalign invisible',
    'es-ES': 'alineador alineadores invisible invisibles transparente transparentes',
  },
  crown: {
    'pt-BR': 'coroa coroas',
    'en-US': 'crown crowns',
    'es-ES': 'corona coronas',
  },
  anaesthesia: {
    'pt-BR': 'anestesia anestesico',
    'en-US': 'anesthesia anaesthesia anesthetic numb',
    'es-ES': 'anestesia anestesico',
  },
  pain: {
    'pt-BR': 'dor dores doi doer doem doendo dolorido doloroso machuca machucam machucar',
    'en-US': 'pain painful hurt hurts ache aches',
    'es-ES': 'dolor dolores duele duelen doler doloroso',
  },
  sensitivity: {
    'pt-BR': 'sensivel sensiveis sensibilidade frio gelado gelada gelados',
    'en-US': 'sensitive sensitivity cold',
    'es-ES': 'sensible sensibles sensibilidad frio',
  },
  emergency: {
    'pt-BR':
      'urgencia urgencias urgente emergencia emergencias socorro plantao quebrei quebrou quebrado quebrada ' +
      'inchado inchada inchaco encaixe encaixa encaixam encaixar ' +
      // A tooth chipped: "lasquei o dente da frente".
      'lasquei lascou lascado lascada',
    'en-US': 'emergency emergencies urgent urgency broke broken cracked chipped squeeze',
    'es-ES': 'urgencia urgencias urgente emergencia emergencias roto rota rompi rompio parti partio',
  },
  child: {
    'pt-BR': 'crianca criancas infantil bebe bebes odontopediatra odontopediatria',
    'en-US': 'child children kid kids baby babies pediatric',
    'es-ES': 'nino ninos nina ninas infantil bebe bebes odontopediatra odontopediatria',
  },
  accessibility: {
    'pt-BR': 'acessibilidade acessivel rampa cadeirante cadeira rodas elevador escada escadas degrau degraus',
    'en-US': 'accessibility accessible wheelchair ramp elevator lift stairs staircase',
    'es-ES': 'accesibilidad accesible rampa silla ruedas ascensor escalera escaleras escalon escalones',
  },
  parking: {
    'pt-BR':
      'estacionamento estacionamentos estacionar carro garagem moto motos caminhonete caminhao ' +
      'taxi veiculo veiculos',
    'en-US': 'parking park car garage vehicle vehicles truck',
    'es-ES':
      // The American Spanish words too: "¿Tienen parqueo? Voy en carro."
      'estacionamiento estacionamientos estacionar aparcamiento aparcar parking coche garaje ' +
      'parqueo parqueadero carro ' +
      'camioneta vehiculo vehiculos',
  },
  insurance: {
    'pt-BR': 'convenio convenios',
    'en-US': 'insurance insurer insured cover',
    'es-ES': 'seguro seguros aseguradora mutua',
  },
  card: {
    'pt-BR': 'cartao cartoes',
    'en-US': 'card cards',
    'es-ES': 'tarjeta tarjetas',
  },
  installments: {
    'pt-BR': 'parcela parcelas parcelar parcelado parcelada parcelamento vezes',
    'en-US': 'installment installments instalment instalments',
    'es-ES': 'cuota cuotas plazos financiar financiacion',
  },
  payment: {
    'pt-BR': 'pagar pagamento pagamentos',
    'en-US': 'pay payment payments paying',
    'es-ES': 'pagar pago pagos',
  },
  cash: {
    'pt-BR': 'dinheiro especie',
    'en-US': 'cash',
    'es-ES': 'efectivo',
  },
  booking: {
    'pt-BR': 'agendar agendamento agendamentos marcar marque marcacao marcacoes reservar reserva',
    'en-US': 'book booking schedule scheduling reserve reservation',
    'es-ES': 'agendar reservar reserva pedir pido pide piden',
  },
  appointment: {
    'pt-BR': 'consulta consultas atendimento atendimentos',
    'en-US': 'appointment appointments consultation checkup check visit visits exam examination',
    'es-ES': 'cita citas consulta consultas turno turnos',
  },
  // The first visit that looks at everything: "consulta de avaliação", "assessment".
  evaluation: {
    'pt-BR': 'avaliacao avaliacoes avaliar',
    'en-US': 'assessment assessments evaluation',
    'es-ES': 'evaluacion valoracion',
  },
  first: {
    'pt-BR': 'primeira primeiro inicial',
    'en-US': 'first initial',
    'es-ES': 'primera primero inicial',
  },
  home: {
    'pt-BR': 'casa caseiro caseira domicilio',
    'en-US': 'home',
    'es-ES': 'casa casero casera domicilio',
  },
  month: {
    'pt-BR': 'mes meses mensal mensais mensalidade',
    'en-US': 'month months monthly',
    'es-ES': 'mes meses mensual mensuales',
  },
  address: {
    'pt-BR': 'endereco enderecos localizacao localizada localizado morada cep rua',
    'en-US': 'address located location whereabouts street',
    'es-ES': 'direccion ubicacion ubicada ubicado ubicados queda quedan calle',
  },
  phone: {
    'pt-BR': 'telefone telefones fone celular ligar liga ligo numero',
    'en-US': 'phone telephone call number',
    'es-ES': 'telefono telefonos llamar numero',
  },
  website: {
    'pt-BR': 'site website pagina',
    'en-US': 'website site',
    'es-ES': 'web sitio pagina',
  },
  // A paper that proves a payment: "comprovante", the Chilean "boleta".
  receipt: {
    'pt-BR': 'recibo recibos comprovante comprovantes',
    'en-US': 'receipt receipts',
    'es-ES': 'recibo recibos comprobante comprobantes boleta boletas',
  },
  invoice: {
    'pt-BR': 'nota notas fiscal',
    'en-US': 'invoice invoices',
    'es-ES': 'factura facturas',
  },
  bring: {
    'pt-BR': 'levar trazer traga levo trago',
    'en-US': 'bring',
    'es-ES': 'llevar traer traiga lleve',
  },
  // "Vocês atendem crianças?", "aceitam cartão?", "trabalham com Uniodonto?": whether the
  // business takes someone or something.
  serving: {
    'pt-BR':
      'atende atendem atender atendemos atendo atendido aceita aceitam aceitar aceitamos pega pegam serve servem ' +
      'credenciado credenciada credenciados credenciadas',
    'en-US': 'serve serves treat treats accept accepts accepted',
    'es-ES': 'atiende atienden atender atendemos atendeis acepta aceptan aceptar aceptamos',
  },
  duration: {
    'pt-BR': 'demora demoram demorar prazo',
    'en-US': 'long',
    'es-ES': 'tarda tardan demora',
  },
  // Money paid back: "reembolso do convênio", "claim it back".
  reimbursement: {
    'pt-BR': 'reembolso reembolsos reembolsar ressarcimento',
    'en-US': 'reimbursement reimburse reimbursed',
    'es-ES': 'reembolso reembolsos reembolsar',
  },
  tax: {
    'pt-BR': 'imposto impostos irpf declarar declaracao',
    'en-US': 'tax taxes',
    'es-ES': 'impuesto impuestos hacienda declarar declaracion',
  },
  surgery: {
    'pt-BR': 'cirurgia cirurgias cirurgico cirurgica',
    'en-US': 'surgery surgeries surgical',
    'es-ES': 'cirugia cirugias quirurgico quirurgica',
  },
  // What a business hands over: "fornecem recibo?", "passam nota?", "¿me dan factura?"
  provide: {
    'pt-BR': 'fornece fornecem fornecemos emite emitem emitimos emitir passam',
    'en-US': 'provide provides issue issues',
    'es-ES': 'dan dais damos emiten emitimos emitir',
  },
  // A document that says who one is: "tenho que levar algum papel? RG?"
  identity: {
    'pt-BR': 'documento documentos papel papeis rg identidade certidao certidoes',
    'en-US': 'document documents paperwork id passport',
    'es-ES': 'documento documentos papeles identificacion dni pasaporte',
  },
  // Whether one comes alone: "posso ir sozinha?", "preciso ir junto?"
  accompanied: {
    'pt-BR': 'sozinho sozinha desacompanhado desacompanhada junto acompanhado acompanhada responsavel',
    'en-US': 'alone unaccompanied accompanied guardian',
    'es-ES': 'solo sola acompanado acompanada responsable',
  },
  near: {
    'pt-BR': 'perto proximo proxima lado vizinho',
    'en-US': 'near nearby next close',
    'es-ES': 'cerca cercano cercana lado',
  },
  // The middle of a town, where a business says it is: "no Centro de Curitiba", "near the city
  // centre".
  downtown: {
    'pt-BR': 'centro',
    'en-US': 'centre center downtown',
    'es-ES': 'centro',
  },
  // What is kept up at each visit: "manutenção do aparelho", "braces adjustment", "control mensual".
  maintenance: {
    'pt-BR': 'manutencao manutencoes apertar',
    'en-US': 'maintenance adjustment adjustments adjust adjusting',
    'es-ES': 'mantenimiento control controles ajuste ajustes',
  },
  // The plain kind of a thing, as a customer says it: "um dente normal" is the simple extraction.
  simple: {
    'pt-BR': 'simples comum normal',
    'en-US': 'simple plain normal basic',
    'es-ES': 'simple sencillo sencilla comun normal',
  },
  // Work at the business, which a customer's agent does not offer: "queria mandar currículo".
  // Hiring is a job only when the business does it ("vcs tão contratando?", a phrase below):
  // on this platform one hires agents ("hiring an agent", "contratando um agente").
  jobs: {
    'pt-BR': 'curriculo curriculos emprego empregos',
    'en-US': 'resume resumes cv',
    'es-ES': 'curriculum empleo empleos',
  },
  sell: {
    'pt-BR': 'vende vendem vender venda vendas',
    'en-US': 'sell sells sale',
    'es-ES': 'vende venden vender venta ventas',
  },
};

/**
 * A group's term: "~" and its position among the groups. No word of a text can be it (words are
 * letters and digits), and none is one typing slip from it, as "parking" would be from
 * "~parking": search forgives a slip in a word of five letters or more.
 */
const GROUP_TERMS = new Map(Object.keys(GROUPS).map((group, position) => [group, `~${position}`]));
const termOf = (group: string) => GROUP_TERMS.get(group)!;

/** Every word of the groups in a language. */
export function wordsOfGroups(language: Language): string[] {
  return Object.values(GROUPS).flatMap((words) => words[language].split(' '));
}

/** The search term of one of the groups. */
export const groupTerm = (group: keyof typeof GROUPS & string) => termOf(group);

/**
 * A stem this long or longer stands for its group's word in every form ("extracoes", "extraída");
 * a shorter one is matched as a whole word only: "cas" is the stem of "casa" and of "caso".
 */
const SHARED_STEM = 5;

/**
 * The group term of a normalized word in `language`, or undefined: by the word as written, or by
 * its stem (`stem` is the search's).
 */
export function conceptsOf(
  stem: (word: string, language: Language) => string,
): (word: string, language: Language) => string | undefined {
  const byLanguage = new Map<Language, Map<string, string>>();
  for (const language of LANGUAGES) {
    const terms = new Map<string, string>();
    for (const [group, words] of Object.entries(GROUPS)) {
      for (const word of words[language].split(' ')) {
        terms.set(word, termOf(group));
        const stemmed = stem(word, language);
        if (stemmed.length >= SHARED_STEM) terms.set(`:${stemmed}`, termOf(group));
      }
    }
    byLanguage.set(language, terms);
  }
  const lookup = (word: string, language: Language) => {
    const terms = byLanguage.get(language);
    if (!terms) return undefined;
    const stemmed = stem(word, language);
    return (
      terms.get(word) ?? (stemmed.length >= SHARED_STEM ? terms.get(`:${stemmed}`) : undefined)
    );
  };
  return (word, language) => {
    const found = lookup(word, language);
    if (found || language === 'en-US') return found;
    // A diminutive is its word ("dentinho", "limpezinha", "citita"): its base with each ending
    // a noun may have; "cafezinho" is "café", "limpezinha" "limpeza": a "z" is either's.
    const base = DIMINUTIVE.exec(word)?.[1];
    if (!base) return undefined;
    const bases = base.endsWith('z') ? [base, base.slice(0, -1)] : [base];
    for (const stemmed of bases) {
      for (const ending of ['o', 'a', 'e', '']) {
        const term = lookup(stemmed + ending, language);
        if (term) return term;
      }
    }
    return undefined;
  };
}

/** Whether a search term is a group's (see GROUPS) rather than a word's stem. */
export const isConcept = (term: string) => term.startsWith('~');

/** A Portuguese or Spanish diminutive and its base: "dentinho", "limpezinha", "citita". */
const DIMINUTIVE = /^(\p{L}{3,}?)(?:inh|it)[oa]s?$/u;

/** A word this long or longer is corrected into a group's word one slip away. */
const SPELLED_FROM = 6;

const groupWords = new Map<Language, SearchableMap<true>>();

/**
 * `word` written as the group word it is one slip (a letter wrong, missing or added) away from
 * ("clariamento" → "clareamento"), or as it is. Search forgives such slips in a word by itself,
 * but a group's term is matched exactly, so its words are corrected first.
 */
export function spellGroupWord(word: string, language: Language): string {
  if (word.length < SPELLED_FROM) return word;
  let known = groupWords.get(language);
  if (!known) {
    known = new SearchableMap<true>();
    for (const words of Object.values(GROUPS)) {
      for (const groupWord of words[language].split(' ')) known.set(groupWord, true);
    }
    groupWords.set(language, known);
  }
  if (known.has(word)) return word;
  let nearest: string | undefined;
  for (const [candidate, [, distance]] of known.fuzzyGet(word, 1)) {
    // Two words one slip away ("parcela", "parcelas" from "parcelo") are one group anyway.
    if (distance === 1) nearest ??= candidate;
  }
  // Two letters swapped, the commonest slip in typing, which fuzzy matching counts as two:
  // "rosto incahdo" is "inchado".
  for (let i = 0; nearest === undefined && i + 1 < word.length; i++) {
    const swapped = word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
    if (known.has(swapped)) nearest = swapped;
  }
  return nearest ?? word;
}

/**
 * Phrases that say what one word of a group does, written as that word: "trabalham com Uniodonto"
 * asks whether they take it, as "aceitam" does, while "trabalham" alone ("quantos dentistas
 * trabalham aí?") does not.
 */
// prettier-ignore
const PHRASES: Record<Language, readonly [RegExp, string][]> = {
  'pt-BR': [
    [/\btrabalh(a|am|amos) com\b/g, 'aceita'],
    // The business hiring is about a job ("vcs estão contratando?", and no slip of "contato").
    [/\b(estao|esta) contratando\b(?! (um|uma|o|a) )/g, 'emprego'],
    // "Dá pra" asks whether one can: "dá pra parcelar?" ("da" alone is "of": "coronel da reserva").
    [/\bda (para|pra)\b/g, 'pode'],
    [/\bdeix(ar|o|a) (o |meu |a |minha )?(carro|moto)\b/g, 'estacionar'],
    [/\bdinheiro vivo\b/g, 'dinheiro'],
    [/\bquanto (que )?sai\b/g, 'quanto custa'],
    [/\bsai (por )?quanto\b/g, 'custa quanto'],
    [/\bdentes? do juizo\b/g, 'siso'],
    [/\bterceiros? molar(es)?\b/g, 'siso'],
    // What is left out of a price: "sem contar a restauração" is "sem a restauração".
    [/\bsem contar( com)?\b/g, 'sem'],
    // White teeth are whitened ones: "deixar os dentes brancos"; a white filling is a filling
    // ("restauração branquinha, da cor do dente"): its colour tells no other item.
    [/\b(deixar|deixa|deixo|ficar|fica|ter|tenha) (os |meus |o |meu )?dentes? (mais |bem )?(branc|branquinh)(o|os|a|as)\b/g, 'clarear os dentes'],
    [/\b(restauracao|restauracoes|obturacao|obturacoes) ((daquelas?|bem|mais) )?(branc|branquinh)(a|as)\b/g, '$1'],
    // A card's brand after accepting or paying is the card: "aceitam Visa?"
    [/\b(aceita|aceitam|pagar com|pago com|passa|passam) (visa|master|mastercard|elo|amex|hipercard)\b/g, '$1 cartao'],
    [/\bimposto de renda\b/g, 'imposto'],
    // What a thing is for, in writing: "recibo para fins de declaração", "por intermédio do
    // Tribunal".
    [/\b(para|a) fins? de\b/g, 'para'],
    [/\bpor intermedio d(o|a|e)\b/g, 'por'],
    // An address or a list whole is the address or the list: "o endereço completo", "a tabela de
    // preços completa" ("o tratamento completo" is another thing than a session).
    [/\b(endereco|tabela|lista)( de (precos|valores|procedimentos))? complet[oa]\b/g, '$1$2'],
    // The day of the visit, which names nothing asked: "precisa levar o que no dia?"; "no dia 20"
    // names a date.
    [/\b(no|nesse|neste|naquele) dia\b(?! \d)/g, ''],
    // How long a treatment takes: "quanto tempo leva do começo até ficar pronto?", "o prazo para a
    // conclusão de um implante".
    [/\bquanto tempo (leva|levam)\b/g, 'quanto tempo demora'],
    [/\b(desde o|do) (comeco|inicio) (ate|ao fim|ao final)\b/g, ''],
    [/\b(conclusao|finalizacao|termino)\b/g, 'pronto'],
    // How long the business has been open is since when: "há quanto tempo a clínica está em
    // funcionamento?" ("desde 2009").
    [/\b(ha|faz) quanto tempo\b/g, 'desde quando'],
    // An x-ray of the whole mouth is the panoramic: "aquela radiografia da boca inteira".
    [/\b(radiografia|raio[- ]x|raios[- ]x)( d[ae])? boca (toda|inteira)\b/g, 'radiografia panoramica'],
    // Where they are: "vcs ficam onde exatamente?" ("onde ficam as imagens?" asks of another thing).
    // And with the verb first: "onde fica a clinica?"
    [/\b(voces|a clinica) (ficam|fica|estao|esta) onde\b|\bonde (voces|a clinica) (ficam|fica|estao|esta)\b|\bonde (ficam|fica|estao|esta) (voces|a clinica)\b/g, 'endereco'],
    // Booking asked for oneself: "marca pra mim quinta 18h?", "me marca"; "marca" alone may be a
    // brand ("qual marca de implante?").
    [/\bmarca (para|pra) (mim|nos|ele|ela)\b|\bme marca\b/g, 'marcar'],
    // A landline is the phone: "o telefone fixo de vocês".
    [/\btelefone fixo\b/g, 'telefone'],
    // Taking out a tooth is an extraction ("tirar o siso dói?"); "tirar" alone is not ("tirar
    // um raio-x", "tirar uma dúvida").
    [/\btir(ar|a|o|ou|ei|am|aram|em|arem) (o |a |um |uma |os |as |meu |minha |esse |este )?(siso|sisos|dente|dentes)\b/g, 'arrancar $3'],
    // What does not show is invisible: "aparelho transparente que não aparece".
    [/\b(que|q) (nao|n) aparece(m)?\b/g, 'invisivel'],
    // Since when, which asks nothing: "tá doendo desde ontem".
    [/\bdesde (ontem|anteontem|cedo|(a |o )?(semana|mes) passad[ao])\b/g, ''],
    // How long ago (a count with its unit, or "pouco", "tempo"), which is no offer: "faz uns três
    // dias que dói", "faz tempo que ele não vai"; "faz dois implantes?" still asks.
    [/\b(desde )?faz (uns |umas |mais de |quase )?((um|uma|\d+|dois|duas|tres|quatro|cinco|seis|sete|oito|nove|dez|quinze|vinte) (horas?|dias?|semanas?|meses|mes|anos?)|(pouco|muito)( tempo)?|tempo|anos|meses|dias|semanas)\b/g, ''],
  ],
  'en-US': [
    [/\bwork(s)? with\b/g, 'accept'],
    // The business hiring is about a job: "are you hiring?"
    [/\b(are|is) (you|ye|they|the clinic) hiring\b/g, 'cv'],
    // Taking a card or a plan is accepting it: "do you take Visa?"
    [/\b(do|does|will|would|can) (you|they) take\b/g, '$1 $2 accept'],
    [/\bwisdom teeth\b/g, 'wisdom'],
    [/\bthird molars?\b/g, 'wisdom'],
    [/\bnot (counting|including)\b/g, 'without'],
    [/\b(whiter|white) teeth\b|\bteeth whiter\b/g, 'whitening'],
    [/\bwhite (filling|fillings)\b/g, '$1'],
    [/\bclear (aligners?|braces?|trays?)\b/g, 'invisible $1'],
    [/\b(accept|accepts|pay with|pay by) (visa|mastercard|amex|american express)\b/g, '$1 card'],
    // Claiming a payment back is a reimbursement ("claim it back on my insurance").
    [/\bclaim (it |them |this |that )?back\b/g, 'reimbursement'],
    [/\b(the )?first time\b/g, 'first'],
    // "At all" and "over there" only stress what is asked: "would you be open on a Saturday at
    // all?", "how much is a scale and polish over there?"
    [/\b(at all|over there)\b/g, ''],
    // Where they are is the address: "where are ye exactly?" ("where are the x-rays?" asks of
    // another thing); "you people" is you.
    [/\bwhere are you( guys| people)?( located| based)?\b/g, 'address'],
    [/\byou (people|guys|lot)\b/g, 'you'],
    // An x-ray of the whole mouth is the panoramic: "an X-ray of the whole mouth".
    [/\b(x[- ]?rays?|radiographs?) of (the|my) (whole|full|entire) mouth\b|\b(whole|full) mouth (x[- ]?rays?|radiographs?)\b/g, 'panoramic xray'],
    // Since when, which asks nothing: "it's hurt since yesterday".
    [/\bsince (yesterday|last night|this morning|last week)\b/g, ''],
  ],
  'es-ES': [
    [/\btrabaj(a|an|amos) con\b/g, 'acepta'],
    // The business hiring is about a job: "¿están contratando?"
    [/\b(estan|esta) contratando\b(?! (un|una|el|la) )/g, 'empleo'],
    [/\bsacar (un |el |una )?(turno|cita|hora)\b/g, 'reservar'],
    // Since when: "me duele desde ayer".
    [/\bdesde (ayer|anteayer|anoche|temprano|(la )?semana pasada|(el )?mes pasado)\b/g, ''],
    // How long ago, which is no offer: "vivo aquí desde hace poco", "hace tres días que duele".
    [/\b(desde )?hace (unos |unas |mas de |casi )?((un|una|\d+|dos|tres|cuatro|cinco|seis|siete|ocho|nueve|diez|quince|veinte) (horas?|dias?|semanas?|meses|mes|anos?)|(poco|mucho)( tiempo)?|tiempo|anos|meses|dias|semanas)\b/g, ''],
    [/\bimpuesto a la renta\b/g, 'impuesto'],
    [/\bcuanto (me )?sale\b/g, 'cuanto cuesta'],
    [/\bmuelas? del juicio\b/g, 'juicio'],
    [/\bterceros? molar(es)?\b/g, 'juicio'],
    [/\bsin contar( con)?\b/g, 'sin'],
    // "Vale" alone says it will do ("¿con el DNI vale?"); a price asks "cuánto vale".
    [/(?<!\b(cuanto|que) )\bvale\b/g, ''],
    [/\bradiografias? de toda la boca\b/g, 'radiografia panoramica'],
    [/\bdientes? (mas )?blanc(o|os|a|as)\b/g, 'blanqueamiento'],
    [/\b(empaste|empastes) blanc(o|os)\b/g, '$1'],
    [/\b(acepta|aceptan|pagar con|pago con) (visa|master|mastercard|amex)\b/g, '$1 tarjeta'],
  ],
};

/** `normalized` with each phrase of PHRASES written as its word. */
export function samePhrases(normalized: string, language: Language): string {
  let text = normalized;
  for (const [phrase, word] of PHRASES[language]) text = text.replace(phrase, word);
  return text;
}
