import type { Language } from '@contrateia/shared';
import type { BusinessTestCase } from './business-test-set';

/**
 * The example clinic's fifth test set (154 questions), written by a helper session from the clinic's
 * data alone (test/examples/clinica-sorriso.json, its price table and the label rules at the top of
 * business-test-set.ts), without reading the engine or the other sets. Twelve people write to the
 * clinic on WhatsApp, each in their own voice: a construction worker, a nurse, a grandmother
 * dictating by voice, a student from Portugal, a Venezuelan living in Curitiba (Spanish, on a phone
 * set to Portuguese), an American engineer, a wheelchair user, a patient afraid of pain, someone
 * comparing prices, a father, a small-business owner and a tourist who asks several things at once.
 * The topics are as in business-test-set.ts: `hours`, `catalogue.item-N` (the Nth catalogue item's
 * price), `catalogue`, `faq-N`, `business`, `greeting`, `thanks` and `refusal` (the data does not
 * hold the answer, or holds only part of it). Questions whose answer is only in the price table's
 * policies (cancellation, warranty, the Pix discount) are left out. Its first run, before the
 * engine was changed for any of it: 50.4 % in scope, 89.7 % refused, 2 wrong facts. Then the
 * engine learnt the kinds it missed (words and phrases of dental care, courtesy, who writes), so it
 * is no longer held out. Rows are not edited to pass.
 */
type Row = [Language, string, Language, string];
// prettier-ignore
const ROWS: Row[] = [
  // Seu Valdir, pedreiro: escreve como fala, sem acento nem pontuação.
  ['pt-BR', 'opa boa tarde', 'pt-BR', 'greeting'],
  ['pt-BR', 'qnto ta a limpeza ai', 'pt-BR', 'catalogue.item-2'],
  ['pt-BR', 'cé abre sabado?', 'pt-BR', 'hours'],
  ['pt-BR', 'vcs atende o amil dental? meu patrao pagou pra nois', 'pt-BR', 'faq-1'],
  ['pt-BR', 'qnto sai pra arranca um dente q nao precisa corta a gengiva', 'pt-BR', 'catalogue.item-7'],
  ['pt-BR', 'qnto custa pra tira o siso', 'pt-BR', 'catalogue.item-8'],
  ['pt-BR', 'to cum dente quebrado doendo dimais vcs encaixa hj', 'pt-BR', 'faq-4'],
  ['pt-BR', 'oque preciso leva no dia da primera consulta', 'pt-BR', 'faq-14'],
  ['pt-BR', 'da pra paga no pix ou so dinheiro', 'pt-BR', 'faq-2'],
  ['pt-BR', 'consigo marca por aqui pelo zap msm?', 'pt-BR', 'faq-3'],
  ['pt-BR', 'onde q fica ai a clinica', 'pt-BR', 'business'],
  ['pt-BR', 'meu dente ta ficando preto oq q é isso', 'pt-BR', 'refusal'],
  ['pt-BR', 'vcs atende dps das 7 da noite? saio da obra tarde', 'pt-BR', 'hours'],
  ['pt-BR', 'qnto ce cobra num canal de dente do fundo, molar', 'pt-BR', 'catalogue.item-6'],
  ['pt-BR', 'qnto fica aquelas lente de contato nos dente igual dos jogador', 'pt-BR', 'refusal'],

  // Renata, enfermeira: termos técnicos, frases completas.
  ['pt-BR', 'Boa tarde. Qual o valor da profilaxia com aplicação tópica de flúor?', 'pt-BR', 'catalogue.item-2'],
  ['pt-BR', 'Qual o valor da endodontia em molar, sem contar a restauração definitiva?', 'pt-BR', 'catalogue.item-6'],
  ['pt-BR', 'Quanto custa a exodontia de terceiro molar semi-incluso?', 'pt-BR', 'catalogue.item-8'],
  ['pt-BR', 'Qual o valor de uma exodontia simples, sem retalho cirúrgico?', 'pt-BR', 'catalogue.item-7'],
  ['pt-BR', 'Qual o valor da ortopantomografia?', 'pt-BR', 'catalogue.item-11'],
  ['pt-BR', 'A radiografia panorâmica é realizada na própria clínica ou devo encaminhar para um centro de imagem?', 'pt-BR', 'faq-11'],
  ['pt-BR', 'Os procedimentos cirúrgicos são realizados sob anestesia local?', 'pt-BR', 'faq-10'],
  ['pt-BR', 'Qual o intervalo médio entre a instalação do implante e a coroa definitiva?', 'pt-BR', 'faq-9'],
  ['pt-BR', 'Vocês prescrevem antibioticoterapia profilática antes da exodontia?', 'pt-BR', 'refusal'],
  ['pt-BR', 'Tenho alergia a lidocaína. Vocês trabalham com articaína?', 'pt-BR', 'refusal'],
  ['pt-BR', 'Estou gestante de 20 semanas. Posso fazer clareamento?', 'pt-BR', 'refusal'],
  ['pt-BR', 'Qual o número do CRO do responsável técnico da clínica?', 'pt-BR', 'refusal'],
  ['pt-BR', 'Trabalho em plantão 12x36: vocês atendem na segunda-feira no horário de almoço?', 'pt-BR', 'hours'],

  // Dona Cida, 78 anos, dita por voz: frases longas, sem pontuação.
  ['pt-BR', 'boa tarde minha filha aqui é a dona cida tudo bem com você', 'pt-BR', 'greeting'],
  ['pt-BR', 'eu queria saber quanto que custa um implante de dente com a coroa de porcelana porque eu perdi um dente lá de baixo', 'pt-BR', 'catalogue.item-10'],
  ['pt-BR', 'vocês fazem dentadura aquela que tira e põe porque a minha tá frouxa', 'pt-BR', 'refusal'],
  ['pt-BR', 'minha filha eu não subo escada por causa do joelho dá pra subir aí de elevador ou rampa', 'pt-BR', 'faq-12'],
  ['pt-BR', 'eu tenho o uniodonto que o meu neto paga pra mim vocês aceitam esse', 'pt-BR', 'faq-1'],
  ['pt-BR', 'qual que é o endereço de vocês que eu vou pedir pro meu neto me levar', 'pt-BR', 'business'],
  ['pt-BR', 'e o meu neto vai de carro onde que ele deixa o carro enquanto eu tô sendo atendida', 'pt-BR', 'faq-6'],
  ['pt-BR', 'a minha gengiva sangra quando eu escovo isso é grave minha filha', 'pt-BR', 'refusal'],
  ['pt-BR', 'vocês abrem no sábado de manhã que é o dia que o meu neto pode', 'pt-BR', 'hours'],
  ['pt-BR', 'no dia de tiradentes vocês abrem ou fica fechado', 'pt-BR', 'hours'],
  ['pt-BR', 'como é que eu faço pra marcar com vocês eu não sei mexer direito nesse celular', 'pt-BR', 'faq-3'],
  ['pt-BR', 'e pra tirar dente vocês dão anestesia né porque eu já sofri muito no dentista', 'pt-BR', 'faq-10'],
  ['pt-BR', 'muito obrigada minha filha deus te abençoe', 'pt-BR', 'thanks'],

  // Inês, estudante portuguesa de intercâmbio na UFPR: português europeu.
  ['pt-BR', 'Qual é a morada da clínica, por favor?', 'pt-BR', 'business'],
  ['pt-BR', 'Quanto custa uma consulta de higiene oral com flúor?', 'pt-BR', 'catalogue.item-2'],
  ['pt-BR', 'Gostava de fazer uma marcação. Como devo proceder?', 'pt-BR', 'faq-3'],
  ['pt-BR', 'Quanto custa o branqueamento feito em casa, com as goteiras?', 'pt-BR', 'catalogue.item-4'],
  ['pt-BR', 'Quanto é tapar uma cárie com resina? Cá em Portugal chamamos-lhe obturação.', 'pt-BR', 'catalogue.item-5'],
  ['pt-BR', 'Posso tomar o pequeno-almoço antes de arrancar o siso ou tenho de ir em jejum?', 'pt-BR', 'refusal'],
  ['pt-BR', 'Têm desconto para estudantes universitários?', 'pt-BR', 'refusal'],
  ['pt-BR', 'Em Lisboa usava alinhadores. Aí também fazem ortodontia invisível?', 'pt-BR', 'faq-8'],
  ['pt-BR', 'Passam recibo? Tenho de o enviar à minha seguradora para ser reembolsada.', 'pt-BR', 'faq-13'],
  ['pt-BR', 'Estão abertos na Sexta-feira Santa, a 26 de março?', 'pt-BR', 'hours'],
  ['pt-BR', 'A clínica fica perto da Reitoria da UFPR? Vou a pé.', 'pt-BR', 'refusal'],
  ['pt-BR', 'Qual é o vosso número de telefone? E têm página no Facebook?', 'pt-BR', 'refusal'],
  ['pt-BR', 'Obrigadíssima, são muito simpáticos!', 'pt-BR', 'thanks'],

  // Yusmary, venezuelana em Curitiba: espanhol com palavras em português, celular em português.
  ['pt-BR', 'Buenas tardes, ¿ustedes atienden por el convênio Amil Dental? ya tengo la carteirinha', 'es-ES', 'faq-1'],
  ['pt-BR', '¿Cuánto me sale sacar una muela del juicio? el dentista dijo que está semi-inclusa', 'es-ES', 'catalogue.item-8'],
  ['pt-BR', '¿A qué hora abren los sábados y hasta qué hora?', 'es-ES', 'hours'],
  ['pt-BR', '¿Cierran en Carnaval? en febrero quería ir', 'es-ES', 'hours'],
  ['pt-BR', '¿mañana abren? quiero pasar en la mañana', 'es-ES', 'hours'],
  ['pt-BR', '¿Se puede pagar el implante en cuotas con tarjeta de crédito? ¿sin juros?', 'es-ES', 'faq-2'],
  ['pt-BR', '¿Dónde queda la clínica exactamente? trabajo en el Centro', 'es-ES', 'business'],
  ['pt-BR', 'Todavía no tengo CPF, solo el protocolo de refugio, ¿me pueden atender igual?', 'es-ES', 'refusal'],
  ['pt-BR', '¿Hay algún dentista que hable español?', 'es-ES', 'refusal'],
  ['pt-BR', 'Mi niña tiene 4 años, ¿tienen odontopediatra? ¿qué días?', 'es-ES', 'faq-5'],
  ['pt-BR', '¿Cuánto cuesta el raio-x panorámico?', 'es-ES', 'catalogue.item-11'],
  ['pt-BR', 'Soy odontóloga venezolana, ¿están contratando?', 'es-ES', 'refusal'],
  ['pt-BR', 'Muchas gracias, muy amables ustedes', 'es-ES', 'thanks'],

  // Mike, engenheiro americano em Curitiba a trabalho: inglês, algumas grafias britânicas.
  ['en-US', 'Hi there, good morning!', 'en-US', 'greeting'],
  ['en-US', 'How much is the in-office laser whitening programme?', 'en-US', 'catalogue.item-3'],
  ['en-US', 'Is whitening painful? How long does any sensitivity last?', 'en-US', 'faq-7'],
  ['en-US', 'Do you take credit cards, and can I split the whitening into instalments?', 'en-US', 'faq-2'],
  ['en-US', 'What are your opening hours on Saturdays?', 'en-US', 'hours'],
  ['en-US', 'Will the clinic be open on Christmas Eve?', 'en-US', 'hours'],
  ['en-US', 'What’s your street address? I’m staying near the city centre.', 'en-US', 'business'],
  ['en-US', 'Could you recommend an English-speaking dentist?', 'en-US', 'refusal'],
  ['en-US', 'I need a porcelain crown on a front tooth, no implant. How much would that be?', 'en-US', 'refusal'],
  ['en-US', 'Do you do clear aligners, Invisalign-type, instead of metal braces?', 'en-US', 'faq-8'],
  ['en-US', 'Realistically, how many months from placing an implant to having the final crown?', 'en-US', 'faq-9'],
  ['en-US', 'Is there a panoramic X-ray machine on site, or do I have to go to an imaging lab?', 'en-US', 'faq-11'],
  ['en-US', 'Is the centre safe to walk around after dark?', 'en-US', 'refusal'],
  ['en-US', 'Cheers, that’s really helpful, thanks!', 'en-US', 'thanks'],

  // Ruth, cadeirante, escreve em inglês: acesso, acompanhante, ligação.
  ['en-US', 'I use a wheelchair. Can I get into the building without any steps?', 'en-US', 'faq-12'],
  ['en-US', 'Is the treatment room big enough for me to get my wheelchair in?', 'en-US', 'faq-12'],
  ['en-US', 'Can my service dog come in with me?', 'en-US', 'refusal'],
  ['en-US', 'Is there an accessible restroom on your floor?', 'en-US', 'refusal'],
  ['en-US', 'Are there disabled parking bays at the car park next to the building?', 'en-US', 'refusal'],
  ['en-US', 'Does anyone on your team know Libras? My daughter is deaf and would come along.', 'en-US', 'refusal'],
  ['en-US', 'What’s the clinic’s phone number? Calling is easier for me than typing.', 'en-US', 'business'],
  ['en-US', 'How do I book an appointment? Can I do it right here on WhatsApp?', 'en-US', 'faq-3'],
  ['en-US', 'Can my carer stay in the treatment room with me during the procedure?', 'en-US', 'refusal'],
  ['en-US', 'Until what time are you open on Fridays? My accessible transport has to be booked ahead.', 'en-US', 'hours'],
  ['en-US', 'How much does a simple tooth extraction cost, one that doesn’t need surgery?', 'en-US', 'catalogue.item-7'],
  ['en-US', 'Do you have a dentist who specialises in patients with special needs?', 'en-US', 'refusal'],
  ['en-US', 'How much is the first assessment appointment?', 'en-US', 'catalogue.item-1'],

  // Camila, com muito medo de dor: ansiosa, pontuação dobrada.
  ['pt-BR', 'oi... tenho pavor de dentista. vou sentir dor quando tirarem o meu dente??', 'pt-BR', 'faq-10'],
  ['pt-BR', 'o clareamento a laser machuca? meus dentes já são meio sensíveis e tô com medo', 'pt-BR', 'faq-7'],
  ['pt-BR', 'o canal vocês fazem com anestesia né?? me fala que sim pelo amor de deus', 'pt-BR', 'faq-10'],
  ['pt-BR', 'vocês fazem sedação pra quem tem crise de pânico?', 'pt-BR', 'refusal'],
  ['pt-BR', 'posso tomar um rivotril antes da consulta pra ficar mais calma?', 'pt-BR', 'refusal'],
  ['pt-BR', 'quanto custa a cirurgia do siso? quero resolver logo antes que eu desista', 'pt-BR', 'catalogue.item-8'],
  ['pt-BR', 'meu medo é ficar meses banguela: quanto tempo leva do implante até a coroa definitiva?', 'pt-BR', 'faq-9'],
  ['pt-BR', 'tem alguma dentista bem calma e paciente? qual o nome dela?', 'pt-BR', 'refusal'],
  ['pt-BR', 'meu dente tá latejando e a bochecha inchou, será que é infecção?', 'pt-BR', 'refusal'],
  ['pt-BR', 'tô com uma dor forte desde ontem, dá pra ser atendida ainda hoje?', 'pt-BR', 'faq-4'],
  ['pt-BR', 'vocês estão abertos agora? queria ligar antes de perder a coragem', 'pt-BR', 'hours'],
  ['pt-BR', 'quanto é a avaliação? queria só conversar com o dentista primeiro antes de fazer qualquer coisa', 'pt-BR', 'catalogue.item-1'],
  ['pt-BR', 'ufa, obrigada pela paciência comigo', 'pt-BR', 'thanks'],

  // Marcelo, comparando preços com outras clínicas: direto, objetivo.
  ['pt-BR', 'Boa tarde. Estou orçando em três clínicas: qual o valor da limpeza de vocês?', 'pt-BR', 'catalogue.item-2'],
  ['pt-BR', 'Na outra clínica o clareamento a laser saiu 900. O de vocês fica quanto?', 'pt-BR', 'catalogue.item-3'],
  ['pt-BR', 'Quanto vocês cobram no clareamento caseiro com as moldeiras?', 'pt-BR', 'catalogue.item-4'],
  ['pt-BR', 'Vocês cobrem o preço se eu trouxer o orçamento de outra clínica?', 'pt-BR', 'refusal'],
  ['pt-BR', 'Quanto sai um implante com coroa de porcelana, por dente?', 'pt-BR', 'catalogue.item-10'],
  ['pt-BR', 'Qual o valor mensal da manutenção do aparelho fixo?', 'pt-BR', 'catalogue.item-9'],
  ['pt-BR', 'E pra colocar o aparelho fixo, quanto custa a instalação?', 'pt-BR', 'refusal'],
  ['pt-BR', 'A consulta de avaliação é cobrada? Quanto?', 'pt-BR', 'catalogue.item-1'],
  ['pt-BR', 'Qual a diferença de preço entre tirar um dente normal e tirar o siso?', 'pt-BR', 'catalogue'],
  ['pt-BR', 'Vocês são mais baratos que a Sorridents?', 'pt-BR', 'refusal'],
  ['pt-BR', 'Em quantas vezes sem juros dá pra dividir o clareamento?', 'pt-BR', 'faq-2'],
  ['pt-BR', 'Me manda a tabela completa de preços de vocês?', 'pt-BR', 'catalogue'],

  // Fábio, pai de três: pergunta pelos filhos.
  ['pt-BR', 'Boa noite! Tenho dois filhos, de 3 e 7 anos. Vocês cuidam de dente de criança também?', 'pt-BR', 'faq-5'],
  ['pt-BR', 'Em que dias da semana a dentista de criança atende?', 'pt-BR', 'faq-5'],
  ['pt-BR', 'A caçula tem 8 meses e acabou de sair o primeiro dentinho. Já é hora de levar ela?', 'pt-BR', 'faq-5'],
  ['pt-BR', 'Meu filho de 17 quer ir sozinho na primeira consulta, sem mim. Pode?', 'pt-BR', 'faq-15'],
  ['pt-BR', 'Minha filha de 15 vai fazer uma extração com anestesia. Eu preciso estar junto?', 'pt-BR', 'faq-15'],
  ['pt-BR', 'Os dentes do meu filho estão nascendo tortos, ele vai precisar de aparelho?', 'pt-BR', 'refusal'],
  ['pt-BR', 'Quanto custa a manutenção mensal do aparelho fixo da minha mais velha?', 'pt-BR', 'catalogue.item-9'],
  ['pt-BR', 'Vocês fazem selante nos dentinhos das crianças?', 'pt-BR', 'refusal'],
  ['pt-BR', 'Como se chama a odontopediatra de vocês?', 'pt-BR', 'refusal'],
  ['pt-BR', 'Temos Odontoprev, as crianças estão no meu plano. Vocês atendem por ele?', 'pt-BR', 'faq-1'],
  ['pt-BR', 'Tem brinquedoteca ou algum espaço pras crianças esperarem?', 'pt-BR', 'refusal'],
  ['pt-BR', 'Vocês abrem na terça de manhã? Queria levar os dois antes da escola.', 'pt-BR', 'hours'],

  // Sandra, dona de uma loja no Centro: quer nota fiscal, pouco tempo.
  ['pt-BR', 'Bom dia. Sou MEI e preciso de nota fiscal do tratamento. Vocês emitem?', 'pt-BR', 'faq-13'],
  ['pt-BR', 'A nota pode sair no CNPJ da minha empresa em vez do meu CPF?', 'pt-BR', 'refusal'],
  ['pt-BR', 'O recibo sai com o CRO do dentista? O meu convênio pede isso pro reembolso.', 'pt-BR', 'faq-13'],
  ['pt-BR', 'Vocês têm plano odontológico empresarial pros meus funcionários?', 'pt-BR', 'refusal'],
  ['pt-BR', 'Abro a loja às 9h. Dá pra ser atendida às 7h30, antes disso?', 'pt-BR', 'hours'],
  ['pt-BR', 'No feriado de 8 de setembro a clínica funciona?', 'pt-BR', 'hours'],
  ['pt-BR', 'Qual o valor de uma restauração em resina, por dente?', 'pt-BR', 'catalogue.item-5'],
  ['pt-BR', 'Quanto fica um canal em molar?', 'pt-BR', 'catalogue.item-6'],
  ['pt-BR', 'Vou de carro entre uma reunião e outra: tem onde parar perto da clínica?', 'pt-BR', 'faq-6'],
  ['pt-BR', 'Qual o CNPJ da clínica? Preciso cadastrar vocês como fornecedor.', 'pt-BR', 'refusal'],
  ['pt-BR', 'Me passa o telefone fixo da clínica pra minha secretária ligar?', 'pt-BR', 'business'],

  // Lucía, turista argentina: várias perguntas numa mensagem só.
  ['es-ES', 'Hola! ¿Dónde quedan, cuál es el teléfono y hace cuánto que existe la clínica?', 'es-ES', 'business'],
  ['es-ES', '¿Cuánto cuesta el blanqueamiento con láser y cuánto el casero?', 'es-ES', 'catalogue'],
  ['es-ES', '¿Cuánto sale la limpieza, la radiografía panorámica y la consulta de evaluación?', 'es-ES', 'catalogue'],
  ['es-ES', '¿Aceptan débito, crédito y efectivo? ¿Y el implante se puede pagar en cuotas sin interés?', 'es-ES', 'faq-2'],
  ['es-ES', '¿Tienen estacionamiento propio? Si no, ¿dónde dejo el auto?', 'es-ES', 'faq-6'],
  ['es-ES', '¿Tienen Instagram? ¿Y cuál es la dirección?', 'es-ES', 'refusal'],
  ['es-ES', '¿Atienden urgencias? ¿Y si me pasa algo de noche o un domingo?', 'es-ES', 'faq-4'],
  ['es-ES', '¿Hacen alineadores invisibles? ¿Cuánto cuestan más o menos?', 'es-ES', 'faq-8'],
  ['es-ES', '¿Qué tengo que llevar a la primera consulta? ¿Sirve cualquier documento o tiene que tener foto?', 'es-ES', 'faq-14'],
  ['es-ES', 'Mi hijo tiene 16 años, ¿puede ir solo a la primera consulta o tengo que ir yo?', 'es-ES', 'faq-15'],
  ['es-ES', '¿Abren el 24 y el 31 de diciembre? ¿Y el 1 de enero?', 'es-ES', 'hours'],
  ['es-ES', '¿El blanqueamiento duele? ¿Quedan sensibles los dientes? ¿Por cuántos días?', 'es-ES', 'faq-7'],
];

export const BUSINESS_TEST_SET_5: readonly BusinessTestCase[] = ROWS.map(
  ([ui, question, language, topic]) => ({ ui, question, language, topic }),
);
