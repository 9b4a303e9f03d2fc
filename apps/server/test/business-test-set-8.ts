import type { Language } from '@contrateia/shared';
import type { BusinessTestCase } from './business-test-set';

/**
 * The example clinic's eighth test set (166 questions), written by a helper session from the
 * clinic's data alone (test/examples/clinica-sorriso.json and its price table), without reading
 * the engine or the other sets. The personas are a gaúcho just moved from Porto Alegre, a
 * personal trainer who writes in emoji, a night-shift security guard, a nanny asking for her
 * employer's children, a daughter caring for her elderly mother, a Haitian immigrant writing
 * Portuguese as a second language, a saxophonist, a real-estate agent typing between clients, a
 * retired army colonel, an American flight attendant on a layover, a German PhD student writing
 * non-native English, a Paraguayan shopkeeper from Ciudad del Este and a grandmother from Madrid
 * visiting her son. Topics as in business-test-set.ts. Questions whose answer is only in the
 * price table's policies (cancellation, warranty, Pix discount) are left out. Held out when it
 * was written: its first run, on the engine that had learnt from the seventh set, gave 70.3 % in
 * scope, 92.1 % refused, 0 wrong facts (67.2 %, 92.1 %, 0 on the engine before that). The engine
 * has since learnt the kinds of message it missed here; business-test-set-9.ts is the held-out
 * one now.
 */
type Row = [Language, string, Language, string];
// prettier-ignore
const ROWS: Row[] = [
  // A gaúcho who moved from Porto Alegre for work last week, regional slang.
  ['pt-BR', 'Buenas, tchê! Tudo tri?', 'pt-BR', 'greeting'],
  ['pt-BR', 'bah, me mudei pra Curitiba semana passada e to sem dentista aqui. vcs ficam onde exatamente?', 'pt-BR', 'business'],
  ['pt-BR', 'e q horas vcs abrem de manha? pego no servico as 9', 'pt-BR', 'hours'],
  ['pt-BR', 'capaz q tenha horario de sabado ne? durante a semana é osso', 'pt-BR', 'hours'],
  ['pt-BR', 'quanto sai uma limpeza de tartaro? la em poa eu pagava uns 150 pila', 'pt-BR', 'catalogue.item-2'],
  ['pt-BR', 'tenho o Amil Dental pela firma, serve ai ou é so particular?', 'pt-BR', 'faq-1'],
  ['pt-BR', 'bah, e chimarrao mancha o dente? os meus tao meio amarelado de tanto mate', 'pt-BR', 'refusal'],
  ['pt-BR', 'quanto fica pra clarear entao? tem aquele q a gente faz em casa tb ne', 'pt-BR', 'catalogue'],
  ['pt-BR', 'conhecem algum dentista bom la em Porto Alegre pra minha mae?', 'pt-BR', 'refusal'],
  ['pt-BR', 'posso passar no cartao em umas vezes?', 'pt-BR', 'faq-2'],
  ['pt-BR', 'vcs abrem dia 20 de setembro? la no RS é feriado', 'pt-BR', 'hours'],
  ['pt-BR', 'tem desconto pra quem é de fora do estado?', 'pt-BR', 'refusal'],
  ['pt-BR', 'valeu tchê, tri obrigado!', 'pt-BR', 'thanks'],

  // A personal trainer who writes in emoji between classes.
  ['pt-BR', 'Eaaai time 💪🔥 tudo certo?', 'pt-BR', 'greeting'],
  ['pt-BR', 'Bora cuidar do sorriso tb né 😁 qnto ta o clareamento a laser?', 'pt-BR', 'catalogue.item-3'],
  ['pt-BR', 'e doi? pq tenho dente sensivel, qnd tomo agua gelada depois do treino ja sinto 🥶', 'pt-BR', 'faq-7'],
  ['pt-BR', 'vcs abrem cedinho? tipo 6h? dou aula as 7 😅', 'pt-BR', 'hours'],
  ['pt-BR', 'e de noite vai ate q horas? saio da academia umas 18h30', 'pt-BR', 'hours'],
  ['pt-BR', 'uso protetor bucal no muay thai, vcs fazem sob medida? qnto fica? 🥊', 'pt-BR', 'refusal'],
  ['pt-BR', 'whey protein estraga o dente? 🤔', 'pt-BR', 'refusal'],
  ['pt-BR', 'vcs fazem aquele aparelho transparente? queria alinhar os dentes sem ficar com ferro na boca nos stories 📸', 'pt-BR', 'faq-8'],
  ['pt-BR', 'quero fazer um post indicando vcs, qual o @ do insta de vcs?', 'pt-BR', 'refusal'],
  ['pt-BR', 'da pra parcelar o clareamento? 💸', 'pt-BR', 'faq-2'],
  ['pt-BR', 'qnto custa a avaliação inicial?', 'pt-BR', 'catalogue.item-1'],
  ['pt-BR', 'e restaurar na cor do dente? lasquei um pedacinho do dente da frente no supino kkkk', 'pt-BR', 'catalogue.item-5'],
  ['pt-BR', 'Valeuuu 🙌💪 tmj', 'pt-BR', 'thanks'],

  // A night-shift security guard who sleeps in the morning.
  ['pt-BR', 'boa tarde. trabalho de vigia a noite e durmo de manha. vcs atendem ate q horas?', 'pt-BR', 'hours'],
  ['pt-BR', 'tem como ser depois das 19? saio de casa as 20 pro servico', 'pt-BR', 'hours'],
  ['pt-BR', 'na sexta fecha mais cedo?', 'pt-BR', 'hours'],
  ['pt-BR', 'to com uma dor no dente do fundo faz 3 dia, da pra ser atendido hj mesmo?', 'pt-BR', 'faq-4'],
  ['pt-BR', 'e se a dor apertar de madrugada no servico, tem plantao ai?', 'pt-BR', 'faq-4'],
  ['pt-BR', 'qual remedio eu tomo pra aguentar ate ir ai?', 'pt-BR', 'refusal'],
  ['pt-BR', 'quanto ta o canal de dente molar?', 'pt-BR', 'catalogue.item-6'],
  ['pt-BR', 'e esse valor do canal ja inclui a restauraçao no final?', 'pt-BR', 'catalogue.item-6'],
  ['pt-BR', 'qual o endereço de um pronto socorro odontologico 24h aqui perto?', 'pt-BR', 'refusal'],
  ['pt-BR', 'marco pelo zap mesmo ou tem q ligar?', 'pt-BR', 'faq-3'],
  ['pt-BR', 'da pra ir de onibus do terminal do pinheirinho? qual linha pega?', 'pt-BR', 'refusal'],
  ['pt-BR', 'blz obrigado ai', 'pt-BR', 'thanks'],

  // A nanny asking for the two children of the family she works for.
  ['pt-BR', 'Oi, boa tarde! Tudo bem?', 'pt-BR', 'greeting'],
  ['pt-BR', 'Sou babá de duas crianças e a patroa pediu pra eu ver dentista pra elas. Vcs atendem criança pequena? A menor tem 3 aninhos', 'pt-BR', 'faq-5'],
  ['pt-BR', 'Quais dias tem a dentista de criança?', 'pt-BR', 'faq-5'],
  ['pt-BR', 'O menino tem 13 anos, ele pode ir sozinho de tarde depois da escola?', 'pt-BR', 'faq-15'],
  ['pt-BR', 'A pequena ainda chupa chupeta, isso entorta os dentes dela?', 'pt-BR', 'refusal'],
  ['pt-BR', 'Quanto custa uma consultinha pra avaliar os dentes dela?', 'pt-BR', 'catalogue.item-1'],
  ['pt-BR', 'A patroa tem Odontoprev e as crianças são dependentes. Vcs aceitam?', 'pt-BR', 'faq-1'],
  ['pt-BR', 'Precisa levar o que no dia? Certidão de nascimento?', 'pt-BR', 'faq-14'],
  ['pt-BR', 'A dentista passa aquele flúor nos dentes? Quanto é?', 'pt-BR', 'catalogue.item-2'],
  ['pt-BR', 'Vcs dão adesivo ou brinquedinho pra criança q se comporta? kkk ela morre de medo', 'pt-BR', 'refusal'],
  ['pt-BR', 'O menino usa aparelho de ferrinho, quanto é a manutenção todo mês?', 'pt-BR', 'catalogue.item-9'],
  ['pt-BR', 'Tem elevador no prédio? Vou com o carrinho de bebê', 'pt-BR', 'faq-12'],
  ['pt-BR', 'Vcs abrem na terça de manhã?', 'pt-BR', 'hours'],
  ['pt-BR', 'Brigada, vou passar tudo pra patroa 😊', 'pt-BR', 'thanks'],

  // A daughter caring for her 82-year-old mother, long messages, some dictated.
  ['pt-BR', 'Bom dia. Minha mãe tem 82 anos e usa dentadura, mas a de baixo está frouxa. Vocês fazem dentadura nova?', 'pt-BR', 'refusal'],
  ['pt-BR', 'Se não for dentadura, quanto fica um implante já com a coroa?', 'pt-BR', 'catalogue.item-10'],
  ['pt-BR', 'E quanto tempo leva do começo até ficar pronto? Ela é muito ansiosa', 'pt-BR', 'faq-9'],
  ['pt-BR', 'Ela é cadeirante desde o AVC. Dá pra chegar com a cadeira até o consultório?', 'pt-BR', 'faq-12'],
  ['pt-BR', 'Ela toma AAS todo dia, pode arrancar dente assim mesmo?', 'pt-BR', 'refusal'],
  ['pt-BR', 'Vocês atendem em casa? Tirar ela de casa é uma operação de guerra kkk', 'pt-BR', 'refusal'],
  ['pt-BR', 'Vou levar ela de carro, tem onde deixar o carro perto?', 'pt-BR', 'faq-6'],
  ['pt-BR', 'bom dia eu queria saber se vocês atendem sábado porque durante a semana eu trabalho e não consigo levar a minha mãe', 'pt-BR', 'hours'],
  ['pt-BR', 'O plano dela é Uniodonto. Atende?', 'pt-BR', 'faq-1'],
  ['pt-BR', 'Vou precisar de recibo pra pedir reembolso do plano e pôr no imposto de renda dela', 'pt-BR', 'faq-13'],
  ['pt-BR', 'Se precisar fazer aquela radiografia da boca inteira, quanto custa?', 'pt-BR', 'catalogue.item-11'],
  ['pt-BR', 'Vocês têm algum dentista especialista em idoso?', 'pt-BR', 'refusal'],
  ['pt-BR', 'Muito obrigada pela paciência, de verdade.', 'pt-BR', 'thanks'],

  // A Haitian immigrant writing Portuguese as a second language, some on an English interface.
  ['en-US', 'Bom dia amigo, tudo bem com voce?', 'pt-BR', 'greeting'],
  ['en-US', 'Eu sou do Haiti, eu moro em Curitiba faz 2 ano. Eu quer saber preço de limpeza dente', 'pt-BR', 'catalogue.item-2'],
  ['pt-BR', 'Clinica fica aonde? Eu trabalha no Centro tambem', 'pt-BR', 'business'],
  ['en-US', 'Voces fala creole ou frances? Meu portugues nao e muito bom', 'pt-BR', 'refusal'],
  ['pt-BR', 'Quanto custa tirar dente siso? Ele doi muito la atras', 'pt-BR', 'catalogue.item-8'],
  ['pt-BR', 'Tirar dente doi? Voces da anestesia?', 'pt-BR', 'faq-10'],
  ['en-US', 'Eu nao tem CPF ainda, so tem protocolo de refugio. Pode atender eu?', 'pt-BR', 'refusal'],
  ['pt-BR', 'Pode pagar dinheiro? Eu nao tem cartao', 'pt-BR', 'faq-2'],
  ['pt-BR', 'Domingo voces abre? Eu so folga domingo', 'pt-BR', 'hours'],
  ['pt-BR', 'Tem SUS ai? Consulta de graça?', 'pt-BR', 'refusal'],
  ['en-US', 'Como eu marca consulta? Pode marcar aqui no zap?', 'pt-BR', 'faq-3'],
  ['pt-BR', 'Mesi! Obrigado muito, Deus abençoa', 'pt-BR', 'thanks'],

  // A saxophonist who plays at night and wakes up late.
  ['pt-BR', 'salve salve! 🎷', 'pt-BR', 'greeting'],
  ['pt-BR', 'sou saxofonista e to com um dente da frente meio mole, atrapalha a embocadura. é grave?', 'pt-BR', 'refusal'],
  ['pt-BR', 'tirar um dente simples, sem cirurgia, qto sai? espero q n precise kkk', 'pt-BR', 'catalogue.item-7'],
  ['pt-BR', 'e restaurar com resina, qual o valor por dente?', 'pt-BR', 'catalogue.item-5'],
  ['pt-BR', 'toco na noite e acordo tarde. depois do almoço vcs voltam q horas?', 'pt-BR', 'hours'],
  ['pt-BR', 'tenho show sexta a noite, vcs ficam abertos sexta ate q horas?', 'pt-BR', 'hours'],
  ['pt-BR', 'clarear deixa o dente sensivel? nao posso ficar sem tocar', 'pt-BR', 'faq-7'],
  ['pt-BR', 'quanto fica o clareamento caseiro, aquele da moldeira?', 'pt-BR', 'catalogue.item-4'],
  ['pt-BR', 'vcs fazem placa pra bruxismo? ranjo os dentes dormindo', 'pt-BR', 'refusal'],
  ['pt-BR', 'vcs emitem nota fiscal? preciso pra declarar', 'pt-BR', 'faq-13'],
  ['pt-BR', 'tem wi-fi na sala de espera? vou levar partitura pra estudar', 'pt-BR', 'refusal'],
  ['pt-BR', 'valeu mesmo, tmj! 🎶', 'pt-BR', 'thanks'],

  // A real-estate agent typing fast between clients.
  ['pt-BR', 'opa, td bem? corretor aqui, correria total kkk', 'pt-BR', 'greeting'],
  ['pt-BR', 'vcs tao na marechal deodoro né? q numero e sala?', 'pt-BR', 'business'],
  ['pt-BR', 'o telefone fixo de vcs qual é? perdi', 'pt-BR', 'business'],
  ['pt-BR', 'to com cliente o dia td, consigo passar tipo 12h30 no intervalo?', 'pt-BR', 'hours'],
  ['pt-BR', 'e amnh as 8 ja ta aberto?', 'pt-BR', 'hours'],
  ['pt-BR', 'qto ta a tabela de vcs? manda td ai pfv', 'pt-BR', 'catalogue'],
  ['pt-BR', 'vcs sabem se tem sala pra alugar nesse predio? tenho cliente procurando conjunto comercial ai kkk', 'pt-BR', 'refusal'],
  ['pt-BR', 'da pra fazer limpeza e avaliação no msm dia? qto fica as duas juntas?', 'pt-BR', 'catalogue'],
  ['pt-BR', 'aceita pix?', 'pt-BR', 'faq-2'],
  ['pt-BR', 'tem estacionamento? ando de carro o dia td', 'pt-BR', 'faq-6'],
  ['pt-BR', 'vcs fazem desconto pra corretor ou tem parceria com imobiliaria?', 'pt-BR', 'refusal'],
  ['pt-BR', 'marca pra mim quinta 18h?', 'pt-BR', 'faq-3'],
  ['pt-BR', 'show, vlw!! 👊', 'pt-BR', 'thanks'],

  // A retired army colonel, terse and formal.
  ['pt-BR', 'Boa tarde. Sou coronel da reserva. Solicito informações.', 'pt-BR', 'greeting'],
  ['pt-BR', 'Qual o horário de funcionamento da clínica, de segunda a sábado?', 'pt-BR', 'hours'],
  ['pt-BR', 'A clínica funciona no dia 7 de setembro?', 'pt-BR', 'hours'],
  ['pt-BR', 'Informe o valor da extração de dente siso.', 'pt-BR', 'catalogue.item-8'],
  ['pt-BR', 'Qual o prazo para a conclusão de um implante dentário?', 'pt-BR', 'faq-9'],
  ['pt-BR', 'Os senhores trabalham com a Odontoprev?', 'pt-BR', 'faq-1'],
  ['pt-BR', 'Desejo ser atendido pelo dentista mais experiente. Qual o nome dele?', 'pt-BR', 'refusal'],
  ['pt-BR', 'Quantos dentistas compõem o corpo clínico?', 'pt-BR', 'business'],
  ['pt-BR', 'Qual a opinião da clínica sobre a fluoretação da água? Considero desnecessária.', 'pt-BR', 'refusal'],
  ['pt-BR', 'Há quanto tempo a clínica está em funcionamento?', 'pt-BR', 'business'],
  ['pt-BR', 'Que documentação devo portar no dia do primeiro atendimento?', 'pt-BR', 'faq-14'],
  ['pt-BR', 'Existe desconto para militares da reserva?', 'pt-BR', 'refusal'],
  ['pt-BR', 'Agradeço a atenção. Passar bem.', 'pt-BR', 'thanks'],

  // An American flight attendant on a two-day layover.
  ['en-US', 'Hi there! 👋', 'en-US', 'greeting'],
  ['en-US', "I'm a flight attendant on a 2-day layover in Curitiba. Are you open tomorrow morning?", 'en-US', 'hours'],
  ['en-US', 'What time do you close on Saturdays?', 'en-US', 'hours'],
  ['en-US', 'I chipped a tooth on the flight, so annoying. How much is a tooth-colored filling?', 'en-US', 'catalogue.item-5'],
  ['en-US', "Could you squeeze me in today if it's urgent? I fly out Thursday.", 'en-US', 'faq-4'],
  ['en-US', "Can the dentist write me a note for my airline saying I'm fit to fly after the procedure?", 'en-US', 'refusal'],
  ['pt-BR', "What's your address? I'll grab an Uber from the hotel.", 'en-US', 'business'],
  ['en-US', 'Do you take credit cards? I only have my Visa on me.', 'en-US', 'faq-2'],
  ['en-US', 'Will I get a receipt I can send to my insurance back home for reimbursement?', 'en-US', 'faq-13'],
  ['en-US', 'Is it safe to fly the day after a tooth is pulled? Cabin pressure worries me.', 'en-US', 'refusal'],
  ['en-US', 'Is there a pharmacy in your building?', 'en-US', 'refusal'],
  ['en-US', "Thanks so much, you're a lifesaver!", 'en-US', 'thanks'],

  // A German PhD student writing non-native English, often on a phone set to Portuguese.
  ['pt-BR', 'Good day. I am a PhD student from Germany, here in Curitiba for one semester.', 'en-US', 'greeting'],
  ['pt-BR', 'How much costs the first examination at your practice?', 'en-US', 'catalogue.item-1'],
  ['pt-BR', 'In Germany we make the dental cleaning every half year. What is the price for this by you?', 'en-US', 'catalogue.item-2'],
  ['en-US', 'How can I make an appointment? Is it enough to write here?', 'en-US', 'faq-3'],
  ['pt-BR', 'Do you make the panoramic X-ray yourselves, or must I go to a radiology institute?', 'en-US', 'faq-11'],
  ['pt-BR', 'And which price has the panoramic X-ray?', 'en-US', 'catalogue.item-11'],
  ['en-US', 'Will my German Krankenkasse pay back the costs? Do you know this?', 'en-US', 'refusal'],
  ['pt-BR', 'At which hour is your lunch break? I want to come between two seminars.', 'en-US', 'hours'],
  ['pt-BR', 'Is the clinic closed at Carnival? I plan to travel but I am not sure of the dates.', 'en-US', 'hours'],
  ['en-US', 'Can you recommend a good German bakery near you? I miss real bread.', 'en-US', 'refusal'],
  ['pt-BR', 'For the whitening with laser, how many sessions are it and what does it cost?', 'en-US', 'catalogue.item-3'],
  ['pt-BR', 'My professor says amalgam fillings are dangerous. Should I replace my old ones?', 'en-US', 'refusal'],
  ['en-US', 'Many thanks for the informations!', 'en-US', 'thanks'],

  // A Paraguayan shopkeeper from Ciudad del Este, Spanish with some Portuguese, phone set to Portuguese.
  ['pt-BR', 'Hola buenas, que tal? 😊', 'es-ES', 'greeting'],
  ['pt-BR', 'Soy de Ciudad del Este, vengo a Curitiba a comprar mercaderia. Cuanto sale la limpieza de dientes?', 'es-ES', 'catalogue.item-2'],
  ['pt-BR', 'y el implante con la corona cuanto es? en paraguay es mas barato creo', 'es-ES', 'catalogue.item-10'],
  ['es-ES', 'me pueden hacer factura paraguaya con mi RUC?', 'es-ES', 'refusal'],
  ['pt-BR', 'se puede pagar en cuotas con tarjeta? en cuantas?', 'es-ES', 'faq-2'],
  ['pt-BR', 'llego el sabado temprano en el colectivo, a que hora abren el sabado?', 'es-ES', 'hours'],
  ['es-ES', 'y el domingo atienden? vuelvo el domingo a la noche', 'es-ES', 'hours'],
  ['pt-BR', 'cuanto cobran por la primera consulta, la que revisan todo?', 'es-ES', 'catalogue.item-1'],
  ['pt-BR', 'tengo una muela que me duele hace una semana, me pueden atender el mismo dia?', 'es-ES', 'faq-4'],
  ['pt-BR', 'en que terminal de onibus me bajo para ir a la clinica?', 'es-ES', 'refusal'],
  ['pt-BR', 'hay algun hotel barato cerca de ustedes?', 'es-ES', 'refusal'],
  ['pt-BR', 'cuanto sale sacar una muela del juicio?', 'es-ES', 'catalogue.item-8'],
  ['pt-BR', 'muchas gracias, muy amable 🙏', 'es-ES', 'thanks'],

  // A grandmother from Madrid visiting her son in Curitiba.
  ['es-ES', 'Buenas tardes, ¿qué tal están?', 'es-ES', 'greeting'],
  ['es-ES', 'Estoy de visita en casa de mi hijo y se me ha caído un empaste. ¿Cuánto cuesta uno nuevo de los blancos?', 'es-ES', 'catalogue.item-5'],
  ['es-ES', '¿Tienen ustedes consulta por la tarde? Por las mañanas cuido de mi nieta.', 'es-ES', 'hours'],
  ['es-ES', '¿Y los viernes a qué hora cierran? Vale, vale.', 'es-ES', 'hours'],
  ['pt-BR', 'Mi nieta tiene 2 añitos y todavía no ha ido al dentista, ¿ya es hora de llevarla?', 'es-ES', 'faq-5'],
  ['es-ES', '¿El edificio tiene ascensor? Tengo las rodillas fatal.', 'es-ES', 'faq-12'],
  ['es-ES', '¿Me pueden mandar el presupuesto a mi correo electrónico?', 'es-ES', 'refusal'],
  ['es-ES', 'Me tienen que quitar una muela pero me da pánico, ¿me dormirán la boca?', 'es-ES', 'faq-10'],
  ['es-ES', '¿Tengo que llevar el pasaporte o con el DNI vale?', 'es-ES', 'faq-14'],
  ['es-ES', '¿Qué pastilla me tomo para el dolor mientras tanto? ¿Un Nolotil?', 'es-ES', 'refusal'],
  ['pt-BR', '¿Estarán abiertos en Nochebuena? Querría volver a Madrid con la boca arreglada.', 'es-ES', 'hours'],
  ['es-ES', '¿Me recomiendan algún restaurante bueno por el centro para comer después?', 'es-ES', 'refusal'],
  ['es-ES', 'Muchísimas gracias, majos. Muy amables.', 'es-ES', 'thanks'],
];

export const BUSINESS_TEST_SET_8: readonly BusinessTestCase[] = ROWS.map(
  ([ui, question, language, topic]) => ({ ui, question, language, topic }),
);
