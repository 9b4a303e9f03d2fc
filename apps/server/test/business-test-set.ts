import type { Language } from '@contrateia/shared';

/**
 * The builtin engine's test set on an account's own agent: the example business
 * (test/examples/clinica-sorriso.json, a dental clinic in Curitiba written in Portuguese) asked as
 * its patients type on WhatsApp. Scored by evaluateBusinessAgent (engine-evaluation.ts), in
 * my-agents.engine.test.ts and `npm run bench`.
 *
 * The questions are written the way different people ask, not copied from the example's FAQ
 * questions or their alternates: the maintainers score the engine on held-out questions too, and
 * a set that repeats the knowledge's own phrasing would only measure that the engine can find its
 * own words.
 *
 * A topic is what the answer must be about: `hours` (the engine's answer from the opening hours
 * and closed dates), `catalogue.item-N` (the Nth item of the example's catalogue, 1-based: its
 * price), `catalogue` (the list, or every item a question names alike: "clareamento" is both the
 * laser and the home treatment), `faq-N` (the Nth FAQ entry, 1-based), `business` (the clinic's
 * presentation, address and phone), `greeting`, `thanks`, or `refusal` when the clinic's data does
 * not hold the answer and the agent must say so (a diagnosis, another business, a service it does
 * not sell, anything else).
 */
export type BusinessTestCase = {
  /** The interface language the question is typed on. */
  ui: Language;
  question: string;
  /** The language the answer must be in: the question's. */
  language: Language;
  topic: string;
};

type Row = [Language, string, Language, string];

// The example's catalogue, 1-based, for reading the rows:
//  1 Consulta de avaliação            5 Restauração em resina          9 Manutenção de aparelho fixo
//  2 Limpeza com aplicação de flúor   6 Tratamento de canal em molar  10 Implante com coroa de porcelana
//  3 Clareamento a laser              7 Extração simples              11 Radiografia panorâmica
//  4 Clareamento caseiro              8 Extração de siso
// and its FAQ: 1 convênio, 2 pagamento e parcelamento, 3 agendar, 4 urgência, 5 crianças,
// 6 estacionamento, 7 clareamento dói, 8 aparelho invisível, 9 tempo do implante, 10 extração dói
// e anestesia, 11 raio-x, 12 acessibilidade, 13 recibo e nota fiscal, 14 o que levar, 15 menor de
// idade sozinho.

// prettier-ignore
const ROWS: Row[] = [
  // Hours: from the weekly periods and closed dates, whatever the words ("abre", "abrem",
  // "aberto", "funciona", "atende") and however they are spelt.
  ['pt-BR', 'vcs abrem dmg?', 'pt-BR', 'hours'],
  ['pt-BR', 'Vocês abrem no domingo?', 'pt-BR', 'hours'],
  ['pt-BR', 'que horas a clínica abre?', 'pt-BR', 'hours'],
  ['pt-BR', 'qual o horario de atendimento de vcs', 'pt-BR', 'hours'],
  ['pt-BR', 'estão abertos agora?', 'pt-BR', 'hours'],
  ['pt-BR', 'ta aberto agr?', 'pt-BR', 'hours'],
  ['pt-BR', 'abre sábado?', 'pt-BR', 'hours'],
  ['pt-BR', 'sabado vcs atendem ate q horas', 'pt-BR', 'hours'],
  ['pt-BR', 'amanhã vocês funcionam?', 'pt-BR', 'hours'],
  ['pt-BR', 'vcs vao abrir dia 24/12?', 'pt-BR', 'hours'],
  ['pt-BR', 'dia 31/12 tem atendimento?', 'pt-BR', 'hours'],
  ['pt-BR', 'funcionam nos feriados?', 'pt-BR', 'hours'],
  ['pt-BR', 'a clinica abre no natal?', 'pt-BR', 'hours'],
  ['pt-BR', 'vocês fecham pro almoço?', 'pt-BR', 'hours'],
  ['pt-BR', 'até que horas fica aberto hoje?', 'pt-BR', 'hours'],
  ['pt-BR', 'qual horario de sexta feira', 'pt-BR', 'hours'],
  ['pt-BR', 'quinta à tarde vocês estão abertos?', 'pt-BR', 'hours'],
  ['pt-BR', 'horário de funcionamento?', 'pt-BR', 'hours'],
  ['pt-BR', 'abrem no carnaval?', 'pt-BR', 'hours'],
  ['pt-BR', 'segunda abre q horas', 'pt-BR', 'hours'],
  ['pt-BR', 'oi, vcs tão atendendo hj?', 'pt-BR', 'hours'],
  ['pt-BR', 'fim de semana vocês abrem?', 'pt-BR', 'hours'],
  ['pt-BR', 'no feriado de tiradentes a clínica vai estar aberta?', 'pt-BR', 'hours'],
  ['en-US', 'a clinica ta aberta agora?', 'pt-BR', 'hours'],
  ['en-US', 'are you open on sundays?', 'en-US', 'hours'],
  ['en-US', 'what time do you close today?', 'en-US', 'hours'],
  ['pt-BR', 'are you open on christmas eve?', 'en-US', 'hours'],
  ['en-US', 'opening hours?', 'en-US', 'hours'],
  ['es-ES', '¿a qué hora abren?', 'es-ES', 'hours'],
  ['es-ES', '¿abren los sábados?', 'es-ES', 'hours'],
  ['pt-BR', '¿están abiertos ahora?', 'es-ES', 'hours'],
  ['es-ES', '¿abren el 25/12?', 'es-ES', 'hours'],

  // Prices: one item, named loosely or by what it is ("canal", "siso", "obturação", "tártaro").
  ['pt-BR', 'quanto custa a consulta de avaliação?', 'pt-BR', 'catalogue.item-1'],
  ['pt-BR', 'qto é a primeira consulta', 'pt-BR', 'catalogue.item-1'],
  ['pt-BR', 'valor da avaliação?', 'pt-BR', 'catalogue.item-1'],
  ['pt-BR', 'qto ta a limpeza', 'pt-BR', 'catalogue.item-2'],
  ['pt-BR', 'quanto custa uma limpeza nos dentes?', 'pt-BR', 'catalogue.item-2'],
  ['pt-BR', 'preço da profilaxia', 'pt-BR', 'catalogue.item-2'],
  ['pt-BR', 'quanto é pra tirar o tártaro?', 'pt-BR', 'catalogue.item-2'],
  ['pt-BR', 'quanto sai o clareamento a laser?', 'pt-BR', 'catalogue.item-3'],
  ['pt-BR', 'valor do clareamento feito no consultório', 'pt-BR', 'catalogue.item-3'],
  ['pt-BR', 'qnto custa o clareamento caseiro?', 'pt-BR', 'catalogue.item-4'],
  ['pt-BR', 'preço do clareamento em casa com gel', 'pt-BR', 'catalogue.item-4'],
  ['pt-BR', 'qnto custa o clariamento', 'pt-BR', 'catalogue'],
  ['pt-BR', 'quanto é o clareamento dental?', 'pt-BR', 'catalogue'],
  ['pt-BR', 'quanto custa uma restauração?', 'pt-BR', 'catalogue.item-5'],
  ['pt-BR', 'qual o valor da obturação?', 'pt-BR', 'catalogue.item-5'],
  ['pt-BR', 'preço pra restaurar um dente com resina', 'pt-BR', 'catalogue.item-5'],
  ['pt-BR', 'quanto custa um canal?', 'pt-BR', 'catalogue.item-6'],
  ['pt-BR', 'qto ta o tratamento de canal no molar', 'pt-BR', 'catalogue.item-6'],
  ['pt-BR', 'quanto custa extrair um dente simples?', 'pt-BR', 'catalogue.item-7'],
  ['pt-BR', 'valor da extraçao simples', 'pt-BR', 'catalogue.item-7'],
  ['pt-BR', 'quanto custa tirar o siso?', 'pt-BR', 'catalogue.item-8'],
  ['pt-BR', 'qto é a cirurgia do siso', 'pt-BR', 'catalogue.item-8'],
  ['pt-BR', 'preço pra arrancar dente do juízo', 'pt-BR', 'catalogue.item-8'],
  ['pt-BR', 'quanto é a manutenção do aparelho?', 'pt-BR', 'catalogue.item-9'],
  ['pt-BR', 'qto pago por mes do aparelho fixo', 'pt-BR', 'catalogue.item-9'],
  ['pt-BR', 'quanto custa um implante?', 'pt-BR', 'catalogue.item-10'],
  ['pt-BR', 'qual o preço do implante dentário', 'pt-BR', 'catalogue.item-10'],
  ['en-US', 'implante com coroa sai quanto?', 'pt-BR', 'catalogue.item-10'],
  ['pt-BR', 'quanto custa a radiografia panorâmica?', 'pt-BR', 'catalogue.item-11'],
  ['pt-BR', 'valor do raio x panoramico', 'pt-BR', 'catalogue.item-11'],
  ['pt-BR', 'qto é a panorâmica', 'pt-BR', 'catalogue.item-11'],
  ['pt-BR', 'quais serviços vocês oferecem?', 'pt-BR', 'catalogue'],
  ['pt-BR', 'me passa a tabela de preços por favor', 'pt-BR', 'catalogue'],
  ['pt-BR', 'quais os valores dos tratamentos?', 'pt-BR', 'catalogue'],
  ['pt-BR', 'que procedimentos vcs fazem?', 'pt-BR', 'catalogue'],
  ['en-US', 'how much is a teeth cleaning?', 'en-US', 'catalogue.item-2'],
  ['en-US', 'how much does a root canal cost?', 'en-US', 'catalogue.item-6'],
  ['pt-BR', 'price of wisdom tooth removal?', 'en-US', 'catalogue.item-8'],
  ['en-US', 'how much for a dental implant?', 'en-US', 'catalogue.item-10'],
  ['en-US', 'how much is the first appointment?', 'en-US', 'catalogue.item-1'],
  ['en-US', 'what treatments do you offer?', 'en-US', 'catalogue'],
  ['es-ES', '¿cuánto cuesta una limpieza?', 'es-ES', 'catalogue.item-2'],
  ['es-ES', '¿cuánto sale un implante?', 'es-ES', 'catalogue.item-10'],
  ['pt-BR', '¿precio de la extracción de la muela del juicio?', 'es-ES', 'catalogue.item-8'],
  ['es-ES', '¿cuánto cuesta la radiografía panorámica?', 'es-ES', 'catalogue.item-11'],
  ['es-ES', '¿qué servicios ofrecen?', 'es-ES', 'catalogue'],
  ['es-ES', '¿cuánto cuesta el blanqueamiento?', 'es-ES', 'catalogue'],

  // The frequent questions, asked in other words.
  ['pt-BR', 'vcs aceitam convenio?', 'pt-BR', 'faq-1'],
  ['pt-BR', 'meu plano é a Amil, vocês atendem?', 'pt-BR', 'faq-1'],
  ['pt-BR', 'trabalham com uniodonto?', 'pt-BR', 'faq-1'],
  ['pt-BR', 'aceitam Bradesco Dental?', 'pt-BR', 'faq-1'],
  ['pt-BR', 'posso pagar no pix?', 'pt-BR', 'faq-2'],
  ['pt-BR', 'vcs passam cartao de credito?', 'pt-BR', 'faq-2'],
  ['pt-BR', 'em quantas vezes posso parcelar o aparelho?', 'pt-BR', 'faq-2'],
  ['pt-BR', 'vcs fazem parcelamento?', 'pt-BR', 'faq-2'],
  ['pt-BR', 'o clareamento pode ser parcelado?', 'pt-BR', 'faq-2'],
  ['pt-BR', 'tem juros no cartão?', 'pt-BR', 'faq-2'],
  ['pt-BR', 'quero agendar uma avaliação', 'pt-BR', 'faq-3'],
  ['pt-BR', 'como eu marco horario?', 'pt-BR', 'faq-3'],
  ['pt-BR', 'gostaria de marcar uma limpeza pra semana que vem', 'pt-BR', 'faq-3'],
  ['pt-BR', 'da pra agendar por aqui?', 'pt-BR', 'faq-3'],
  ['pt-BR', 'quebrei um dente agora, vocês atendem hoje?', 'pt-BR', 'faq-4'],
  ['pt-BR', 'to com mt dor de dente socorro', 'pt-BR', 'faq-4'],
  ['pt-BR', 'vocês atendem emergência?', 'pt-BR', 'faq-4'],
  ['pt-BR', 'atendem criança pequena?', 'pt-BR', 'faq-5'],
  ['pt-BR', 'vcs tem odontopediatra?', 'pt-BR', 'faq-5'],
  ['pt-BR', 'qual a idade certa pra levar o bebê no dentista?', 'pt-BR', 'faq-5'],
  ['pt-BR', 'tem onde estacionar?', 'pt-BR', 'faq-6'],
  ['pt-BR', 'vou de carro, onde deixo?', 'pt-BR', 'faq-6'],
  ['pt-BR', 'o clareamento doi muito?', 'pt-BR', 'faq-7'],
  ['pt-BR', 'clarear os dentes dá sensibilidade?', 'pt-BR', 'faq-7'],
  ['pt-BR', 'vocês fazem alinhador invisível?', 'pt-BR', 'faq-8'],
  ['pt-BR', 'tem aparelho transparente?', 'pt-BR', 'faq-8'],
  ['pt-BR', 'quanto custa o aparelho invisível?', 'pt-BR', 'faq-8'],
  ['pt-BR', 'implante demora quanto tempo pra ficar pronto?', 'pt-BR', 'faq-9'],
  ['pt-BR', 'quantos meses leva o implante?', 'pt-BR', 'faq-9'],
  ['pt-BR', 'tirar o siso dói?', 'pt-BR', 'faq-10'],
  ['pt-BR', 'vcs fazem com anestesia?', 'pt-BR', 'faq-10'],
  ['pt-BR', 'extrair dente doi muito?', 'pt-BR', 'faq-10'],
  ['pt-BR', 'preciso trazer raio-x ou vcs fazem?', 'pt-BR', 'faq-11'],
  ['pt-BR', 'tiram radiografia ai mesmo?', 'pt-BR', 'faq-11'],
  ['pt-BR', 'o prédio tem rampa?', 'pt-BR', 'faq-12'],
  ['pt-BR', 'minha mãe usa cadeira de rodas, ela consegue entrar?', 'pt-BR', 'faq-12'],
  ['pt-BR', 'preciso de nota pra pedir reembolso no convenio', 'pt-BR', 'faq-13'],
  ['pt-BR', 'consigo recibo com CPF pra declarar no imposto?', 'pt-BR', 'faq-13'],
  ['pt-BR', 'o que tenho que levar na consulta?', 'pt-BR', 'faq-14'],
  ['pt-BR', 'o que devo trazer no primeiro atendimento?', 'pt-BR', 'faq-14'],
  ['pt-BR', 'minha filha tem 16 anos, pode ir sozinha?', 'pt-BR', 'faq-15'],
  ['pt-BR', 'adolescente precisa ir acompanhado?', 'pt-BR', 'faq-15'],
  ['en-US', 'vcs aceitam cartão de débito?', 'pt-BR', 'faq-2'],
  ['en-US', 'do you accept dental insurance?', 'en-US', 'faq-1'],
  ['en-US', 'can I pay with credit card?', 'en-US', 'faq-2'],
  ['pt-BR', 'how do I book an appointment?', 'en-US', 'faq-3'],
  ['en-US', 'do you see children?', 'en-US', 'faq-5'],
  ['en-US', 'is there parking nearby?', 'en-US', 'faq-6'],
  ['en-US', 'do you do invisalign?', 'en-US', 'faq-8'],
  ['en-US', 'is the clinic wheelchair accessible?', 'en-US', 'faq-12'],
  ['es-ES', '¿aceptan seguro dental?', 'es-ES', 'faq-1'],
  ['es-ES', '¿puedo pagar con tarjeta?', 'es-ES', 'faq-2'],
  ['pt-BR', '¿cómo pido una cita?', 'es-ES', 'faq-3'],
  ['es-ES', '¿atienden a niños?', 'es-ES', 'faq-5'],
  ['es-ES', '¿tienen estacionamiento?', 'es-ES', 'faq-6'],
  ['es-ES', '¿el blanqueamiento duele?', 'es-ES', 'faq-7'],

  // The clinic itself: who it is, where, how to reach it.
  ['pt-BR', 'onde fica a clínica?', 'pt-BR', 'business'],
  ['pt-BR', 'qual o endereço de vcs', 'pt-BR', 'business'],
  ['pt-BR', 'qual o telefone da clinica?', 'pt-BR', 'business'],
  ['pt-BR', 'vcs ficam em q bairro?', 'pt-BR', 'business'],
  ['pt-BR', 'vocês tem site?', 'pt-BR', 'business'],
  ['pt-BR', 'quantos dentistas trabalham aí?', 'pt-BR', 'business'],
  ['pt-BR', 'a clínica existe desde quando?', 'pt-BR', 'business'],
  ['pt-BR', 'vocês fazem ortodontia?', 'pt-BR', 'business'],
  ['en-US', 'where are you located?', 'en-US', 'business'],
  ['en-US', "what's your phone number?", 'en-US', 'business'],
  ['es-ES', '¿cuál es la dirección?', 'es-ES', 'business'],

  // Greetings and thanks, with emoji and more words.
  ['pt-BR', 'oi', 'pt-BR', 'greeting'],
  ['pt-BR', 'bom dia!! tudo bem?', 'pt-BR', 'greeting'],
  ['pt-BR', 'boa tarde 😊', 'pt-BR', 'greeting'],
  ['pt-BR', 'obrigada!!', 'pt-BR', 'thanks'],
  ['pt-BR', 'valeu, ajudou mt 👍', 'pt-BR', 'thanks'],
  ['pt-BR', 'muito obrigado pela atenção', 'pt-BR', 'thanks'],
  ['en-US', 'hi there', 'en-US', 'greeting'],
  ['en-US', 'thanks a lot!', 'en-US', 'thanks'],
  ['es-ES', 'hola, buenos días', 'es-ES', 'greeting'],
  ['es-ES', '¡muchas gracias!', 'es-ES', 'thanks'],

  // Out of scope: a diagnosis or a medicine, which the clinic's instructions forbid; many share
  // words with what the clinic does know ("siso", "extrair", "sensível").
  ['pt-BR', 'tenho uma mancha escura no dente, é cárie?', 'pt-BR', 'refusal'],
  ['pt-BR', 'meu siso tá nascendo torto, preciso tirar?', 'pt-BR', 'refusal'],
  ['pt-BR', 'qual antibiótico eu tomo pra infecção no dente?', 'pt-BR', 'refusal'],
  ['pt-BR', 'posso tomar ibuprofeno depois de extrair o dente?', 'pt-BR', 'refusal'],
  ['pt-BR', 'minha gengiva tá inchada e sangrando, o que eu tenho?', 'pt-BR', 'refusal'],
  ['pt-BR', 'o dente de leite do meu filho tá mole, é normal?', 'pt-BR', 'refusal'],
  ['pt-BR', 'meu dente fica sensível com gelado, o que pode ser?', 'pt-BR', 'refusal'],
  ['pt-BR', 'acordo com dor no maxilar, será bruxismo?', 'pt-BR', 'refusal'],
  ['pt-BR', 'qual pasta de dente é melhor pra sensibilidade?', 'pt-BR', 'refusal'],
  ['en-US', 'what could be causing my bad breath?', 'en-US', 'refusal'],
  ['en-US', 'which painkiller should I take for a toothache?', 'en-US', 'refusal'],
  ['es-ES', '¿qué medicamento tomo para el dolor de muelas?', 'es-ES', 'refusal'],
  // Another business's question, some with the words of this one's hours or prices.
  ['pt-BR', 'qual o horário da farmácia aqui do lado?', 'pt-BR', 'refusal'],
  ['pt-BR', 'o estacionamento central abre domingo?', 'pt-BR', 'refusal'],
  ['pt-BR', 'vcs vendem óculos?', 'pt-BR', 'refusal'],
  ['pt-BR', 'quanto custa um corte de cabelo?', 'pt-BR', 'refusal'],
  ['pt-BR', 'tem consulta com dermatologista?', 'pt-BR', 'refusal'],
  ['pt-BR', 'qual o telefone da Uniodonto?', 'pt-BR', 'refusal'],
  ['pt-BR', 'onde fica o posto de saúde mais perto?', 'pt-BR', 'refusal'],
  ['pt-BR', 'vocês entregam marmita?', 'pt-BR', 'refusal'],
  ['pt-BR', 'que horas passa o ônibus pro centro?', 'pt-BR', 'refusal'],
  ['en-US', 'do you sell electric toothbrushes?', 'en-US', 'refusal'],
  ['en-US', 'what time does the mall open?', 'en-US', 'refusal'],
  ['es-ES', '¿venden cepillos de dientes?', 'es-ES', 'refusal'],
  // The price of a service the clinic does not sell: never another item's price.
  ['pt-BR', 'quanto custa uma lente de contato dental?', 'pt-BR', 'refusal'],
  ['pt-BR', 'qual o valor da faceta de porcelana?', 'pt-BR', 'refusal'],
  ['pt-BR', 'quanto custa uma dentadura?', 'pt-BR', 'refusal'],
  ['pt-BR', 'qto ta o botox?', 'pt-BR', 'refusal'],
  ['pt-BR', 'preço da protese protocolo', 'pt-BR', 'refusal'],
  ['pt-BR', 'quanto custa só a coroa de porcelana, sem o implante?', 'pt-BR', 'refusal'],
  ['pt-BR', 'quanto custa a gengivoplastia?', 'pt-BR', 'refusal'],
  ['pt-BR', 'quanto é o enxerto ósseo?', 'pt-BR', 'refusal'],
  ['pt-BR', 'quanto custa pra colocar o aparelho fixo?', 'pt-BR', 'refusal'],
  ['pt-BR', 'qual o valor do canal num dente da frente?', 'pt-BR', 'refusal'],
  ['pt-BR', 'quanto é o clareamento interno de dente escurecido?', 'pt-BR', 'refusal'],
  ['pt-BR', 'quanto custa a manutenção do aparelho móvel?', 'pt-BR', 'refusal'],
  ['en-US', 'how much are porcelain veneers?', 'en-US', 'refusal'],
  ['es-ES', '¿cuánto cuesta una carilla dental?', 'es-ES', 'refusal'],
  ['pt-BR', '¿cuánto cuesta una dentadura postiza?', 'es-ES', 'refusal'],
  // Anything else.
  ['pt-BR', 'quem ganhou a copa de 2002?', 'pt-BR', 'refusal'],
  ['pt-BR', 'me escreve um poema sobre sorrisos', 'pt-BR', 'refusal'],
  ['pt-BR', 'qual a capital da austrália?', 'pt-BR', 'refusal'],
  ['pt-BR', 'vai chover amanhã em curitiba?', 'pt-BR', 'refusal'],
  ['pt-BR', 'me conta uma piada', 'pt-BR', 'refusal'],
  ['pt-BR', 'quanto é 15% de 1200?', 'pt-BR', 'refusal'],
  ['pt-BR', 'quanto foi o jogo do athletico ontem?', 'pt-BR', 'refusal'],
  ['pt-BR', 'vocês têm vaga de emprego pra auxiliar?', 'pt-BR', 'refusal'],
  ['pt-BR', 'qual o nome da dentista das crianças?', 'pt-BR', 'refusal'],
  ['pt-BR', 'tem wi-fi na recepção?', 'pt-BR', 'refusal'],
  ['pt-BR', 'posso levar meu cachorro na consulta?', 'pt-BR', 'refusal'],
  ['pt-BR', 'vocês fazem harmonização facial?', 'pt-BR', 'refusal'],
  ['en-US', 'write me a haiku about teeth', 'en-US', 'refusal'],
  ['en-US', 'who won the world cup in 2002?', 'en-US', 'refusal'],
  ['pt-BR', "what's the weather like in curitiba?", 'en-US', 'refusal'],
  ['es-ES', '¿quién es el presidente de Brasil?', 'es-ES', 'refusal'],
  ['es-ES', 'escríbeme un poema de amor', 'es-ES', 'refusal'],
];

export const BUSINESS_TEST_SET: readonly BusinessTestCase[] = ROWS.map(
  ([ui, question, language, topic]) => ({ ui, question, language, topic }),
);
