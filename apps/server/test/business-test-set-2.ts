import type { Language } from '@contrateia/shared';
import type { BusinessTestCase } from './business-test-set';

/**
 * The example clinic's second test set (171 questions): written by someone who read only the
 * clinic's data (examples/clinica-sorriso.json, and the price table's text to know what it does
 * not hold), never the engine's code or the first set. Longer questions, with more said around
 * them, typed as patients write on WhatsApp; a quarter out of scope, many borrowing the clinic's
 * words. The engine was measured on it before it was worked on, then improved on the kinds of
 * questions it missed, never on a row's words; so it is no longer held out, and
 * guards what was learnt. Rows are not edited to pass; a label is fixed only when the clinic's
 * data clearly says otherwise.
 */
type Row = [Language, string, Language, string];
// prettier-ignore
const ROWS: Row[] = [
  // Opening hours, weekdays, dates, holidays, lunch break
  ['pt-BR', 'sabado vcs atendem ate q horas?', 'pt-BR', 'hours'],
  ['pt-BR', 'que horas vcs abrem amanha cedo', 'pt-BR', 'hours'],
  ['pt-BR', 'ta aberto agora?', 'pt-BR', 'hours'],
  ['pt-BR', 'vcs fecham pro almoço? queria passar ai meio dia e pouco', 'pt-BR', 'hours'],
  ['pt-BR', 'domingo tem atendimento?', 'pt-BR', 'hours'],
  ['pt-BR', 'qual o horario de vcs na sexta? saio do trampo 17h30', 'pt-BR', 'hours'],
  ['pt-BR', 'no carnaval vcs vao abrir?', 'pt-BR', 'hours'],
  ['pt-BR', 'dia 24 de dezembro tem expediente ai?', 'pt-BR', 'hours'],
  ['pt-BR', 'vcs funcionam no feriado de tiradentes?', 'pt-BR', 'hours'],
  ['pt-BR', 'sexta feira santa abre?', 'pt-BR', 'hours'],
  ['pt-BR', 'consigo ir depois das 19h numa terça?', 'pt-BR', 'hours'],
  ['pt-BR', 'sabado a tarde tem alguem ai?', 'pt-BR', 'hours'],
  ['en-US', 'Qual o horário de vocês na segunda feira?', 'pt-BR', 'hours'],
  ['pt-BR', 'what time do you close today?', 'en-US', 'hours'],
  ['en-US', 'are you open on new years day?', 'en-US', 'hours'],
  ['es-ES', '¿a qué hora abren el lunes?', 'es-ES', 'hours'],
  ['pt-BR', 'abren los domingos?', 'es-ES', 'hours'],

  // Price of one catalogue item
  ['pt-BR', 'qto custa a primeira consulta?', 'pt-BR', 'catalogue.item-1'],
  ['pt-BR', 'quanto vcs cobram pra avaliar meus dentes? so queria ver o q precisa fazer', 'pt-BR', 'catalogue.item-1'],
  ['pt-BR', 'valor da consulta particular?', 'pt-BR', 'catalogue.item-1'],
  ['pt-BR', 'qnto ta a limpeza?', 'pt-BR', 'catalogue.item-2'],
  ['pt-BR', 'quero tirar o tartaro, qual o valor', 'pt-BR', 'catalogue.item-2'],
  ['es-ES', '¿cuánto cuesta una limpieza dental?', 'es-ES', 'catalogue.item-2'],
  ['pt-BR', 'clareamento no consultorio qto sai?', 'pt-BR', 'catalogue.item-3'],
  ['pt-BR', 'e o branqueamento com laser, quanto?', 'pt-BR', 'catalogue.item-3'],
  ['en-US', 'how much for in-office laser whitening?', 'en-US', 'catalogue.item-3'],
  ['pt-BR', 'clareamento de fazer em casa com moldeira, qual valor?', 'pt-BR', 'catalogue.item-4'],
  ['pt-BR', 'qto ta aquele clareamento caseiro c gel', 'pt-BR', 'catalogue.item-4'],
  ['es-ES', 'cuanto sale el blanqueamiento para hacer en casa?', 'es-ES', 'catalogue.item-4'],
  ['pt-BR', 'quanto custa uma obturação?', 'pt-BR', 'catalogue.item-5'],
  ['pt-BR', 'preço pra restaurar um dente com resina branca', 'pt-BR', 'catalogue.item-5'],
  ['pt-BR', 'lasquei um pedacinho do dente, qto fica pra restaurar c resina?', 'pt-BR', 'catalogue.item-5'],
  ['pt-BR', 'qto ta um tratamento de canal no dente do fundo, molar?', 'pt-BR', 'catalogue.item-6'],
  ['pt-BR', 'preco de canal em molar', 'pt-BR', 'catalogue.item-6'],
  ['es-ES', '¿cuánto cuesta una endodoncia en una muela?', 'es-ES', 'catalogue.item-6'],
  ['pt-BR', 'quanto pra arrancar um dente simples, sem cirurgia?', 'pt-BR', 'catalogue.item-7'],
  ['pt-BR', 'extrair um dente normal (nao é siso) qto fica', 'pt-BR', 'catalogue.item-7'],
  ['pt-BR', 'how much to pull a tooth that doesnt need surgery?', 'en-US', 'catalogue.item-7'],
  ['pt-BR', 'qto custa tirar o siso?', 'pt-BR', 'catalogue.item-8'],
  ['pt-BR', 'cirurgia de dente do juizo valor', 'pt-BR', 'catalogue.item-8'],
  ['es-ES', 'cuánto cobran por sacar una muela del juicio?', 'es-ES', 'catalogue.item-8'],
  ['pt-BR', 'quanto é a manutenção mensal do aparelho?', 'pt-BR', 'catalogue.item-9'],
  ['pt-BR', 'uso aparelho fixo, qto vcs cobram por mes pra apertar?', 'pt-BR', 'catalogue.item-9'],
  ['en-US', 'how much is the monthly braces adjustment?', 'en-US', 'catalogue.item-9'],
  ['pt-BR', 'qto custa um implante?', 'pt-BR', 'catalogue.item-10'],
  ['pt-BR', 'perdi um dente, quanto sai pra por um de implante ja com a coroa?', 'pt-BR', 'catalogue.item-10'],
  ['es-ES', '¿cuánto cuesta un implante dental?', 'es-ES', 'catalogue.item-10'],
  ['pt-BR', 'qto ta o raio x panoramico?', 'pt-BR', 'catalogue.item-11'],
  ['pt-BR', 'a panoramica quanto é? o dentista pediu', 'pt-BR', 'catalogue.item-11'],
  ['en-US', 'how much is a panoramic x ray?', 'en-US', 'catalogue.item-11'],

  // The price list as a whole, or a price that fits two items
  ['pt-BR', 'me passa a tabela de preços pfv', 'pt-BR', 'catalogue'],
  ['pt-BR', 'quais tratamentos vcs tem e os valores?', 'pt-BR', 'catalogue'],
  ['pt-BR', 'qto custa clareamento?', 'pt-BR', 'catalogue'],
  ['pt-BR', 'qto ta pra arrancar um dente?', 'pt-BR', 'catalogue'],
  ['en-US', 'what do you offer and how much does it cost?', 'en-US', 'catalogue'],
  ['es-ES', '¿tienen una lista de precios?', 'es-ES', 'catalogue'],

  // FAQ 1: insurance plans
  ['pt-BR', 'meu plano é odontoprev, vcs pegam?', 'pt-BR', 'faq-1'],
  ['pt-BR', 'tem convenio ou é so particular?', 'pt-BR', 'faq-1'],
  ['pt-BR', 'vcs atendem bradesco dental?', 'pt-BR', 'faq-1'],
  ['en-US', 'do you take dental insurance?', 'en-US', 'faq-1'],
  ['es-ES', '¿aceptan seguro dental?', 'es-ES', 'faq-1'],
  // FAQ 2: payment
  ['pt-BR', 'posso pagar no pix?', 'pt-BR', 'faq-2'],
  ['pt-BR', 'da pra parcelar o clareamento em qtas vezes?', 'pt-BR', 'faq-2'],
  ['pt-BR', 'passa cartao de debito ai?', 'pt-BR', 'faq-2'],
  ['en-US', 'can I pay by credit card?', 'en-US', 'faq-2'],
  ['es-ES', 'se puede pagar el implante en cuotas?', 'es-ES', 'faq-2'],
  // FAQ 3: booking
  ['pt-BR', 'queria marcar uma avaliação, como faço?', 'pt-BR', 'faq-3'],
  ['pt-BR', 'tem vaga pra semana q vem?', 'pt-BR', 'faq-3'],
  ['pt-BR', 'vc consegue marcar pra mim quinta as 15h?', 'pt-BR', 'faq-3'],
  ['en-US', 'quero agendar uma limpeza pro meu marido, como funciona?', 'pt-BR', 'faq-3'],
  ['es-ES', 'quiero pedir un turno, ¿cómo hago?', 'es-ES', 'faq-3'],
  // FAQ 4: emergencies
  ['pt-BR', 'to com uma dor de dente absurda, vcs atendem hj?', 'pt-BR', 'faq-4'],
  ['pt-BR', 'quebrei o dente agr, consigo ser atendido hj ainda?', 'pt-BR', 'faq-4'],
  ['pt-BR', 'tem atendimento de emergencia a noite?', 'pt-BR', 'faq-4'],
  ['pt-BR', 'I have a dental emergency, can you see me today?', 'en-US', 'faq-4'],
  ['es-ES', 'tengo mucho dolor de muela, me pueden atender urgente?', 'es-ES', 'faq-4'],
  // FAQ 5: children
  ['pt-BR', 'vcs atendem criança? meu filho tem 5 anos', 'pt-BR', 'faq-5'],
  ['pt-BR', 'tem odontopediatra? em q dia?', 'pt-BR', 'faq-5'],
  ['pt-BR', 'minha bebe ta com 8 meses e nasceu o 1o dentinho, ja levo ai?', 'pt-BR', 'faq-5'],
  ['es-ES', '¿atienden niños?', 'es-ES', 'faq-5'],
  // FAQ 6: parking
  ['pt-BR', 'tem onde estacionar ai?', 'pt-BR', 'faq-6'],
  ['pt-BR', 'vcs tem garagem? vou de carro', 'pt-BR', 'faq-6'],
  // FAQ 7: whitening sensitivity
  ['pt-BR', 'clareamento deixa os dentes doendo?', 'pt-BR', 'faq-7'],
  ['pt-BR', 'tenho medo do clareamento doer mto, doi?', 'pt-BR', 'faq-7'],
  ['en-US', 'does teeth whitening hurt?', 'en-US', 'faq-7'],
  // FAQ 8: clear aligners
  ['pt-BR', 'vcs fazem aquele aparelho transparente?', 'pt-BR', 'faq-8'],
  ['pt-BR', 'quanto custa invisalign ai?', 'pt-BR', 'faq-8'],
  ['es-ES', '¿hacen ortodoncia invisible?', 'es-ES', 'faq-8'],
  // FAQ 9: implant duration
  ['pt-BR', 'qto tempo leva pra ficar pronto o implante?', 'pt-BR', 'faq-9'],
  ['pt-BR', 'o implante demora mto? caso daqui 2 meses', 'pt-BR', 'faq-9'],
  ['en-US', 'how long does a dental implant take start to finish?', 'en-US', 'faq-9'],
  // FAQ 10: pain and anaesthesia
  ['pt-BR', 'tirar dente doi mto? tenho pavor 😰', 'pt-BR', 'faq-10'],
  ['pt-BR', 'vcs dao anestesia pra fazer canal?', 'pt-BR', 'faq-10'],
  ['en-US', '¿usan anestesia para sacar una muela?', 'es-ES', 'faq-10'],
  // FAQ 11: x-rays at the clinic
  ['pt-BR', 'preciso fazer raio x em outro lugar ou vcs fazem ai msm?', 'pt-BR', 'faq-11'],
  ['pt-BR', 'vcs tem raio x na clinica?', 'pt-BR', 'faq-11'],
  ['pt-BR', 'o resultado da radiografia sai na hora?', 'pt-BR', 'faq-11'],
  // FAQ 12: accessibility
  ['pt-BR', 'minha mae usa cadeira de rodas, ela consegue subir ai?', 'pt-BR', 'faq-12'],
  ['pt-BR', 'o predio tem rampa?', 'pt-BR', 'faq-12'],
  ['en-US', 'is the clinic wheelchair accessible?', 'en-US', 'faq-12'],
  // FAQ 13: receipts and invoices
  ['pt-BR', 'vcs emitem nf? preciso pro reembolso do plano', 'pt-BR', 'faq-13'],
  ['pt-BR', 'da pra pegar recibo pra declarar no IR?', 'pt-BR', 'faq-13'],
  ['es-ES', '¿me dan un recibo para pedir el reembolso al seguro?', 'es-ES', 'faq-13'],
  // FAQ 14: what to bring to the first visit
  ['pt-BR', 'o q eu levo na primeira consulta?', 'pt-BR', 'faq-14'],
  ['pt-BR', 'preciso levar algum exame ou doc na 1a vez?', 'pt-BR', 'faq-14'],
  // FAQ 15: minors
  ['pt-BR', 'tenho 16 anos, posso ir sozinha?', 'pt-BR', 'faq-15'],
  ['pt-BR', 'minha filha de 15 pode ir sem mim fazer a consulta?', 'pt-BR', 'faq-15'],
  ['es-ES', 'mi hijo tiene 17, ¿puede ir solo?', 'es-ES', 'faq-15'],

  // The clinic's presentation
  ['pt-BR', 'qual o endereço de vcs?', 'pt-BR', 'business'],
  ['pt-BR', 'onde fica a clinica? q bairro?', 'pt-BR', 'business'],
  ['pt-BR', 'qual o telefone fixo de vcs', 'pt-BR', 'business'],
  ['pt-BR', 'vcs tem site?', 'pt-BR', 'business'],
  ['pt-BR', 'quantos dentistas trabalham ai?', 'pt-BR', 'business'],
  ['pt-BR', 'a clinica existe desde quando?', 'pt-BR', 'business'],
  ['pt-BR', 'vcs fazem ortodontia?', 'pt-BR', 'business'],
  ['pt-BR', 'vcs trabalham com tratamento de canal tb?', 'pt-BR', 'business'],
  ['es-ES', 'where exactly is the clinic?', 'en-US', 'business'],
  ['es-ES', '¿dónde queda la clínica?', 'es-ES', 'business'],

  // Only a greeting
  ['pt-BR', 'oi boa tarde', 'pt-BR', 'greeting'],
  ['pt-BR', 'olaaa 😊', 'pt-BR', 'greeting'],
  ['en-US', 'hi there!', 'en-US', 'greeting'],
  ['es-ES', 'hola, buenas tardes', 'es-ES', 'greeting'],

  // Only thanks
  ['pt-BR', 'obrigada!!', 'pt-BR', 'thanks'],
  ['pt-BR', 'valeu, brigadao 🙏', 'pt-BR', 'thanks'],
  ['en-US', 'thank you so much', 'en-US', 'thanks'],
  ['es-ES', 'muchas gracias 🙌', 'es-ES', 'thanks'],

  // Out of scope: diagnosis and medicine
  ['pt-BR', 'minha gengiva sangra qnd escovo, sera q é gengivite?', 'pt-BR', 'refusal'],
  ['pt-BR', 'q remedio posso tomar pra dor de dente ate conseguir consulta? nimesulida resolve?', 'pt-BR', 'refusal'],
  ['pt-BR', 'meu siso ta nascendo meio torto, vc acha q precisa tirar?', 'pt-BR', 'refusal'],
  ['pt-BR', 'preciso tomar antibiotico antes de arrancar o dente?', 'pt-BR', 'refusal'],
  ['pt-BR', 'bati o dente da frente e ficou mole, sera q vai cair?', 'pt-BR', 'refusal'],
  ['pt-BR', 'tem uma mancha preta no meu dente, é carie?', 'pt-BR', 'refusal'],
  ['pt-BR', 'o dente de leite do meu filho ta mole, posso arrancar em casa?', 'pt-BR', 'refusal'],
  ['en-US', 'what painkiller should I take for a toothache?', 'en-US', 'refusal'],
  ['es-ES', '¿qué antibiótico tomo para una muela infectada?', 'es-ES', 'refusal'],
  // Out of scope: other businesses and places
  ['pt-BR', 'vc sabe o telefone da odonto do shopping estação?', 'pt-BR', 'refusal'],
  ['pt-BR', 'onde tem farmacia 24h perto do centro?', 'pt-BR', 'refusal'],
  ['pt-BR', 'o estacionamento rotativo da prefeitura ai na rua é qto a hora?', 'pt-BR', 'refusal'],
  ['pt-BR', 'qual onibus eu pego do terminal do boqueirao pra chegar ai?', 'pt-BR', 'refusal'],
  ['pt-BR', 'que horas fecha o shopping muller hj?', 'pt-BR', 'refusal'],
  ['pt-BR', 'can you recommend a good hotel near the clinic?', 'en-US', 'refusal'],
  ['en-US', '¿me recomiendas un restaurante por la zona?', 'es-ES', 'refusal'],
  // Out of scope: services and products the clinic does not list
  ['pt-BR', 'qto custa lente de contato nos dentes?', 'pt-BR', 'refusal'],
  ['pt-BR', 'vcs fazem faceta de porcelana? qual valor', 'pt-BR', 'refusal'],
  ['pt-BR', 'preço de dentadura completa', 'pt-BR', 'refusal'],
  ['pt-BR', 'qto ta o aparelho movel?', 'pt-BR', 'refusal'],
  ['pt-BR', 'quanto custa pra colocar o aparelho fixo? a instalação msm, nao a manutenção', 'pt-BR', 'refusal'],
  ['pt-BR', 'placa pra bruxismo qto fica?', 'pt-BR', 'refusal'],
  ['pt-BR', 'enxerto osseo vcs fazem? valor?', 'pt-BR', 'refusal'],
  ['pt-BR', 'protocolo inferior sobre implante qto sai?', 'pt-BR', 'refusal'],
  ['pt-BR', 'vcs fazem tomografia? preço?', 'pt-BR', 'refusal'],
  ['pt-BR', 'quanto custa um raio x periapical so de um dente?', 'pt-BR', 'refusal'],
  ['pt-BR', 'vcs fazem botox ou harmonizaçao facial?', 'pt-BR', 'refusal'],
  ['pt-BR', 'qual escova eletrica vcs indicam? vcs vendem?', 'pt-BR', 'refusal'],
  ['en-US', 'how much do porcelain veneers cost?', 'en-US', 'refusal'],
  ['es-ES', '¿hacen prótesis removible? cuánto sale?', 'es-ES', 'refusal'],
  // Out of scope: parts or variants of listed items
  ['pt-BR', 'qto é só a coroa de porcelana? o implante eu ja tenho', 'pt-BR', 'refusal'],
  ['pt-BR', 'quanto fica canal em dente da frente?', 'pt-BR', 'refusal'],
  ['pt-BR', 'restauração de amalgama (aquela prata) qto custa?', 'pt-BR', 'refusal'],
  ['pt-BR', 'vcs vendem so o gel clareador? o meu acabou', 'pt-BR', 'refusal'],
  ['pt-BR', 'a aplicação de fluor sozinha, sem a limpeza, qto é?', 'pt-BR', 'refusal'],
  // Out of scope: plans and discounts the data does not describe
  ['pt-BR', 'quanto é a mensalidade do plano odontoprev?', 'pt-BR', 'refusal'],
  ['pt-BR', 'o plano da amil cobre implante?', 'pt-BR', 'refusal'],
  ['pt-BR', 'tem desconto pra estudante ou pra idoso?', 'pt-BR', 'refusal'],
  // Out of scope: personal questions, jobs
  ['pt-BR', 'a dentista é casada? 😅', 'pt-BR', 'refusal'],
  ['pt-BR', 'qual o nome da ortodontista e onde ela se formou?', 'pt-BR', 'refusal'],
  ['pt-BR', 'vcs tao contratando? queria mandar curriculo pra ASB', 'pt-BR', 'refusal'],
  // Out of scope: general knowledge and small talk
  ['pt-BR', 'quem ganhou o jogo do athletico ontem?', 'pt-BR', 'refusal'],
  ['pt-BR', 'vai chover amanha em curitiba?', 'pt-BR', 'refusal'],
  ['pt-BR', 'me passa uma receita de bolo de cenoura kkk', 'pt-BR', 'refusal'],
  ['pt-BR', 'vc é robo? me conta uma piada', 'pt-BR', 'refusal'],
];
export const BUSINESS_TEST_SET_2: readonly BusinessTestCase[] = ROWS.map(
  ([ui, question, language, topic]) => ({ ui, question, language, topic }),
);
