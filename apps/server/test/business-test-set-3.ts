import type { Language } from '@contrateia/shared';
import type { BusinessTestCase } from './business-test-set';

/**
 * The example clinic's third test set (152 questions), written apart from the engine and the
 * other sets, from the clinic's data alone: half short questions, half with context, in
 * patients' WhatsApp spelling, about 75 % Portuguese, a quarter out of scope. Measured first, then
 * used, as the second set was, to find the kinds of questions the engine
 * missed; no longer held out. Rows are not edited to pass.
 */
type Row = [Language, string, Language, string];
// prettier-ignore
const ROWS: Row[] = [
  // Hours: weekdays, Saturday, Sunday, lunch break, now, closed dates.
  ['pt-BR', 'sabado vcs tao abertos?', 'pt-BR', 'hours'],
  ['pt-BR', 'abre domingo', 'pt-BR', 'hours'],
  ['pt-BR', 'qual o horario de vcs?', 'pt-BR', 'hours'],
  ['pt-BR', 'ate q horas fica aberto na sexta? so consigo sair do trampo as 5', 'pt-BR', 'hours'],
  ['pt-BR', 'vcs fecham p almoço?', 'pt-BR', 'hours'],
  ['pt-BR', 'ta aberto agora?', 'pt-BR', 'hours'],
  ['pt-BR', 'oi, queria saber se vcs funcionam na vespera de natal, dia 24, pq to de ferias so nessa semana', 'pt-BR', 'hours'],
  ['pt-BR', 'abre no feriado de tiradentes?', 'pt-BR', 'hours'],
  ['pt-BR', 'vcs vao abrir na segunda e terça de carnaval ano q vem? 🎭', 'pt-BR', 'hours'],
  ['pt-BR', 'quinta ate q hrs vcs atendem', 'pt-BR', 'hours'],
  ['pt-BR', 'sabado a tarde tem atendimento?', 'pt-BR', 'hours'],
  ['pt-BR', 'q horas vcs abrem de manha? queria ir bem cedinho antes de ir pro serviço', 'pt-BR', 'hours'],
  ['pt-BR', 'dia primeiro de janeiro vcs trabalham?', 'pt-BR', 'hours'],
  ['pt-BR', 'dia 8 de setembro vcs abrem? é feriado aqui em ctba ne', 'pt-BR', 'hours'],
  ['en-US', 'What time do you close on weekdays?', 'en-US', 'hours'],
  ['pt-BR', 'are you open on sundays?', 'en-US', 'hours'],
  ['es-ES', '¿a qué hora abren el sábado?', 'es-ES', 'hours'],
  ['es-ES', 'hola, que horario tienen de lunes a viernes?', 'es-ES', 'hours'],
  ['es-ES', 'atienden el 31 de diciembre?', 'es-ES', 'hours'],

  // Catalogue item 1: first appointment / evaluation.
  ['pt-BR', 'qto custa a consulta?', 'pt-BR', 'catalogue.item-1'],
  ['pt-BR', 'nunca fui ai, qnto é a primeira consulta p avaliar e fazer o orçamento?', 'pt-BR', 'catalogue.item-1'],
  ['en-US', 'How much is a first check-up appointment?', 'en-US', 'catalogue.item-1'],
  // Item 2: cleaning.
  ['pt-BR', 'qto ta a limpeza', 'pt-BR', 'catalogue.item-2'],
  ['pt-BR', 'queria tirar o tartaro dos dentes, qnto sai?', 'pt-BR', 'catalogue.item-2'],
  ['es-ES', 'cuanto cuesta una limpieza dental?', 'es-ES', 'catalogue.item-2'],
  // Item 3: in-office laser whitening.
  ['pt-BR', 'qto fica o clareamento feito no consultorio c/ luz?', 'pt-BR', 'catalogue.item-3'],
  ['pt-BR', 'quanto é aquele clareamento de laser q faz em 2 sessoes ai na clinica?', 'pt-BR', 'catalogue.item-3'],
  ['en-US', 'how much for laser teeth whitening?', 'en-US', 'catalogue.item-3'],
  // Item 4: at-home whitening.
  ['pt-BR', 'e o clareamento q a gente faz em ksa c/ moldeira, qnto é?', 'pt-BR', 'catalogue.item-4'],
  ['pt-BR', 'qual valor do clareamento de gel p usar em casa?', 'pt-BR', 'catalogue.item-4'],
  ['es-ES', '¿precio del blanqueamiento para hacer en casa?', 'es-ES', 'catalogue.item-4'],
  // Item 5: resin filling.
  ['pt-BR', 'qto custa p obturar um dente?', 'pt-BR', 'catalogue.item-5'],
  ['pt-BR', 'quebrou um pedacinho do dente da frente 😩 qnto fica p restaurar c/ resina da cor do dente?', 'pt-BR', 'catalogue.item-5'],
  ['pt-BR', 'how much is a filling?', 'en-US', 'catalogue.item-5'],
  // Item 6: root canal on a molar.
  ['pt-BR', 'qnto custa canal de dente do fundo (molar)?', 'pt-BR', 'catalogue.item-6'],
  ['pt-BR', 'o dentista do posto falou q preciso tratar o canal do molar, qual o valor ai?', 'pt-BR', 'catalogue.item-6'],
  ['es-ES', '¿cuánto sale una endodoncia de muela?', 'es-ES', 'catalogue.item-6'],
  // Item 7: simple extraction.
  ['pt-BR', 'quanto é p tirar um dente normal, nao é siso', 'pt-BR', 'catalogue.item-7'],
  ['pt-BR', 'preciso arrancar um dente de baixo q ta td quebrado, o dentista disse q nao precisa de cirurgia. quanto vcs cobram?', 'pt-BR', 'catalogue.item-7'],
  ['en-US', 'how much to pull a tooth? a regular one, not a wisdom tooth', 'en-US', 'catalogue.item-7'],
  // Item 8: wisdom tooth.
  ['en-US', 'qto custa tirar o siso?', 'pt-BR', 'catalogue.item-8'],
  ['pt-BR', 'meu siso ta nascendo torto e preso na gengiva, vou ter q operar. qual o valor?', 'pt-BR', 'catalogue.item-8'],
  ['es-ES', '¿cuánto cobran por sacar una muela del juicio?', 'es-ES', 'catalogue.item-8'],
  // Item 9: monthly braces maintenance.
  ['pt-BR', 'quanto é p apertar o aparelho todo mes?', 'pt-BR', 'catalogue.item-9'],
  ['pt-BR', 'uso aparelho de ferrinho e mudei p curitiba, qto fica a manutencao mensal com vcs?', 'pt-BR', 'catalogue.item-9'],
  ['en-US', 'how much is the monthly braces adjustment?', 'en-US', 'catalogue.item-9'],
  // Item 10: implant with crown.
  ['pt-BR', 'qto custa um implante?', 'pt-BR', 'catalogue.item-10'],
  ['pt-BR', 'perdi um dente de cima e queria colocar implante c/ a coroa, qnto fica td?', 'pt-BR', 'catalogue.item-10'],
  ['es-ES', '¿precio de un implante dental?', 'es-ES', 'catalogue.item-10'],
  // Item 11: panoramic X-ray.
  ['pt-BR', 'qto custa a panoramica?', 'pt-BR', 'catalogue.item-11'],
  ['pt-BR', 'o dentista pediu um raio x da boca toda, qnto vcs cobram p fazer?', 'pt-BR', 'catalogue.item-11'],
  ['en-US', 'how much is a panoramic x-ray?', 'en-US', 'catalogue.item-11'],

  // The price list as a whole, or a price that fits two items equally (whitening).
  ['pt-BR', 'me manda a tabela de preços pfv', 'pt-BR', 'catalogue'],
  ['pt-BR', 'quais tratamentos vcs fazem e qto custa cada um?', 'pt-BR', 'catalogue'],
  ['pt-BR', 'qto custa clareamento?', 'pt-BR', 'catalogue'],
  ['pt-BR', 'vcs tem uma lista de valores?', 'pt-BR', 'catalogue'],
  ['en-US', 'what treatments do you have and how much are they?', 'en-US', 'catalogue'],
  ['es-ES', '¿cuánto cuesta un blanqueamiento?', 'es-ES', 'catalogue'],

  // FAQ 1: dental plans.
  ['es-ES', 'vcs pegam uniodonto?', 'pt-BR', 'faq-1'],
  ['pt-BR', 'tenho plano da amil dental pela empresa, posso usar ai?', 'pt-BR', 'faq-1'],
  ['es-ES', 'do you take dental insurance?', 'en-US', 'faq-1'],
  // FAQ 2: payment and instalments.
  ['pt-BR', 'passa cartao de credito?', 'pt-BR', 'faq-2'],
  ['pt-BR', 'da p parcelar o implante em qtas vezes?', 'pt-BR', 'faq-2'],
  ['pt-BR', 'pode ser no pix?', 'pt-BR', 'faq-2'],
  ['es-ES', '¿aceptan tarjeta?', 'es-ES', 'faq-2'],
  // FAQ 3: booking.
  ['pt-BR', 'quero marcar uma limpeza, como faço?', 'pt-BR', 'faq-3'],
  ['pt-BR', 'tem vaga p semana q vem?', 'pt-BR', 'faq-3'],
  ['pt-BR', 'como agendo', 'pt-BR', 'faq-3'],
  ['en-US', "I'd like to book an appointment", 'en-US', 'faq-3'],
  // FAQ 4: emergencies.
  ['pt-BR', 'vcs atendem emergencia?', 'pt-BR', 'faq-4'],
  ['pt-BR', 'quebrei o dente agora no almoço e ta doendo mt, consigo ser atendido hj msm?', 'pt-BR', 'faq-4'],
  ['pt-BR', '¿atienden urgencias?', 'es-ES', 'faq-4'],
  // FAQ 5: children.
  ['pt-BR', 'vcs tem odontopediatra?', 'pt-BR', 'faq-5'],
  ['pt-BR', 'minha filha tem 2 aninhos, ja posso levar ai? q dia tem dentista de criança?', 'pt-BR', 'faq-5'],
  // FAQ 6: parking.
  ['pt-BR', 'tem onde estacionar?', 'pt-BR', 'faq-6'],
  ['pt-BR', 'vou de carro, tem estacionamento perto? paga?', 'pt-BR', 'faq-6'],
  // FAQ 7: whitening sensitivity.
  ['pt-BR', 'clarear os dentes doi mt?', 'pt-BR', 'faq-7'],
  ['pt-BR', 'tenho os dentes meio sensiveis, o clareamento piora isso?', 'pt-BR', 'faq-7'],
  // FAQ 8: clear aligners.
  ['pt-BR', 'fazem aquele aparelho transparente q nao aparece?', 'pt-BR', 'faq-8'],
  ['pt-BR', 'qto custa o aparelho invisivel?', 'pt-BR', 'faq-8'],
  // FAQ 9: implant duration.
  ['pt-BR', 'em qtos meses fica pronto o implante?', 'pt-BR', 'faq-9'],
  ['en-US', 'how long does an implant take from start to finish?', 'en-US', 'faq-9'],
  // FAQ 10: anaesthesia, does extraction hurt.
  ['pt-BR', 'tenho pavor de dentista 😰 vcs fazem anestesia?', 'pt-BR', 'faq-10'],
  ['pt-BR', 'tirar o siso doi mto?', 'pt-BR', 'faq-10'],
  // FAQ 11: X-rays on site.
  ['pt-BR', 'vcs tiram raio x ai msm?', 'pt-BR', 'faq-11'],
  ['pt-BR', 'preciso fazer a radiografia em outro lugar ou vcs fazem?', 'pt-BR', 'faq-11'],
  // FAQ 12: accessibility.
  ['pt-BR', 'minha mae usa cadeira de rodas, ela consegue subir ai?', 'pt-BR', 'faq-12'],
  ['es-ES', '¿tienen acceso para silla de ruedas?', 'es-ES', 'faq-12'],
  // FAQ 13: receipts and invoices.
  ['pt-BR', 'vcs dao nota?', 'pt-BR', 'faq-13'],
  ['pt-BR', 'preciso de recibo c/ cpf p pedir reembolso do plano, vcs fazem?', 'pt-BR', 'faq-13'],
  // FAQ 14: what to bring to the first appointment.
  ['pt-BR', 'preciso levar oq na 1a consulta?', 'pt-BR', 'faq-14'],
  ['es-ES', '¿qué tengo que llevar a la primera cita?', 'es-ES', 'faq-14'],
  // FAQ 15: minors.
  ['pt-BR', 'meu filho tem 16, pode ir sozinho?', 'pt-BR', 'faq-15'],
  ['pt-BR', 'minha filha de 15 anos vai na manutençao do aparelho, eu preciso ir junto?', 'pt-BR', 'faq-15'],

  // Business: address, neighbourhood, phone, website, dentists, since when, specialties.
  ['pt-BR', 'qual o endereço?', 'pt-BR', 'business'],
  ['pt-BR', 'vcs ficam em q bairro?', 'pt-BR', 'business'],
  ['pt-BR', 'qual o telefone fixo de vcs?', 'pt-BR', 'business'],
  ['pt-BR', 'tem site?', 'pt-BR', 'business'],
  ['pt-BR', 'quantos dentistas trabalham ai?', 'pt-BR', 'business'],
  ['pt-BR', 'a clinica existe ha qto tempo?', 'pt-BR', 'business'],
  ['pt-BR', 'vcs fazem ortodontia?', 'pt-BR', 'business'],
  ['en-US', 'where are you located?', 'en-US', 'business'],
  ['en-US', '¿dónde queda la clínica?', 'es-ES', 'business'],
  ['es-ES', '¿qué especialidades tienen?', 'es-ES', 'business'],

  // Greetings and thanks alone.
  ['pt-BR', 'oi', 'pt-BR', 'greeting'],
  ['pt-BR', 'bom dia!! 😊', 'pt-BR', 'greeting'],
  ['en-US', 'hello', 'en-US', 'greeting'],
  ['es-ES', 'hola buenas tardes', 'es-ES', 'greeting'],
  ['pt-BR', 'obrigada!!', 'pt-BR', 'thanks'],
  ['pt-BR', 'vlw, brigadao 🙏', 'pt-BR', 'thanks'],
  ['en-US', 'thanks a lot', 'en-US', 'thanks'],
  ['es-ES', 'muchas gracias', 'es-ES', 'thanks'],

  // Out of scope: diagnosis and medicine.
  ['pt-BR', 'qual remedio eu tomo p dor de dente?', 'pt-BR', 'refusal'],
  ['pt-BR', 'meu dente doi qdo tomo coisa gelada, sera q é carie?', 'pt-BR', 'refusal'],
  ['pt-BR', 'minha gengiva sangra qdo escovo, é gengivite?', 'pt-BR', 'refusal'],
  ['pt-BR', 'posso tomar amoxicilina antes de tirar o siso?', 'pt-BR', 'refusal'],
  ['pt-BR', 'meu rosto inchou do lado do dente, tomo anti-inflamatorio ou nao?', 'pt-BR', 'refusal'],
  ['pt-BR', 'gravida pode fazer clareamento?', 'pt-BR', 'refusal'],
  ['en-US', 'should I take ibuprofen for my swollen tooth?', 'en-US', 'refusal'],
  ['pt-BR', '¿me recomiendan un antibiótico para la muela?', 'es-ES', 'refusal'],
  // Out of scope: treatments, products and prices the clinic does not list.
  ['pt-BR', 'qto custa lente de contato dental?', 'pt-BR', 'refusal'],
  ['pt-BR', 'qto custa uma dentadura?', 'pt-BR', 'refusal'],
  ['pt-BR', 'qnto é só a coroa de porcelana, sem o implante? o pino eu ja tenho', 'pt-BR', 'refusal'],
  ['pt-BR', 'qto custa o enxerto osseo p colocar implante?', 'pt-BR', 'refusal'],
  ['pt-BR', 'qnto fica canal num dente da frente? nao é molar', 'pt-BR', 'refusal'],
  ['pt-BR', 'qto custa colocar aparelho fixo? so a instalaçao', 'pt-BR', 'refusal'],
  ['pt-BR', 'quanto custa a tomografia da boca?', 'pt-BR', 'refusal'],
  ['pt-BR', 'qto custa o raio x periapical de um dente so?', 'pt-BR', 'refusal'],
  ['pt-BR', 'quanto custa a placa p bruxismo?', 'pt-BR', 'refusal'],
  ['pt-BR', 'vcs fazem consulta online por video?', 'pt-BR', 'refusal'],
  ['pt-BR', 'vcs vendem escova eletrica?', 'pt-BR', 'refusal'],
  ['en-US', 'how much are veneers?', 'en-US', 'refusal'],
  ['en-US', 'do you sell mouthguards for sports?', 'en-US', 'refusal'],
  ['es-ES', '¿cuánto cuesta una prótesis dental removible?', 'es-ES', 'refusal'],
  ['es-ES', '¿cuánto cuesta ponerse brackets de zafiro?', 'es-ES', 'refusal'],
  // Out of scope: facts the clinic's data does not hold.
  ['pt-BR', 'qual o nome da ortodontista de vcs?', 'pt-BR', 'refusal'],
  ['pt-BR', 'qto tempo dura o efeito do clareamento?', 'pt-BR', 'refusal'],
  ['pt-BR', 'depois de tirar o siso posso comer o q?', 'pt-BR', 'refusal'],
  ['pt-BR', 'qual onibus eu pego da rodoviaria ate ai?', 'pt-BR', 'refusal'],
  ['pt-BR', 'vcs tao contratando auxiliar de saude bucal? tenho curso', 'pt-BR', 'refusal'],
  // Out of scope: other businesses, shared words.
  ['pt-BR', 'qto custa limpeza de pele?', 'pt-BR', 'refusal'],
  ['pt-BR', 'qual o valor do implante capilar?', 'pt-BR', 'refusal'],
  ['pt-BR', 'vcs fazem manutencao de aparelho auditivo?', 'pt-BR', 'refusal'],
  ['pt-BR', 'vcs fazem radiografia de torax?', 'pt-BR', 'refusal'],
  ['pt-BR', 'o estacionamento central abre domingo?', 'pt-BR', 'refusal'],
  ['pt-BR', 'qto cobra o estacionamento dps da 1 hora gratis?', 'pt-BR', 'refusal'],
  ['pt-BR', 'qual o pronto atendimento odontologico 24h mais perto do centro?', 'pt-BR', 'refusal'],
  ['en-US', 'is there a pharmacy near the clinic?', 'en-US', 'refusal'],
  // Out of scope: general knowledge.
  ['pt-BR', 'qual pasta de dente é melhor p clarear?', 'pt-BR', 'refusal'],
  ['pt-BR', 'vai chover amanha em curitiba?', 'pt-BR', 'refusal'],
  ['en-US', 'can you recommend a good hotel in downtown curitiba?', 'en-US', 'refusal'],
  ['es-ES', '¿cuál es la mejor pasta dental para dientes sensibles?', 'es-ES', 'refusal'],
];
export const BUSINESS_TEST_SET_3: readonly BusinessTestCase[] = ROWS.map(
  ([ui, question, language, topic]) => ({ ui, question, language, topic }),
);
