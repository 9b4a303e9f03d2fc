import type { Language } from '@contrateia/shared';
import type { BusinessTestCase } from './business-test-set';

/**
 * The example clinic's sixth test set (167 questions), written by a helper session from the
 * clinic's data alone (test/examples/clinica-sorriso.json and its price table), without reading
 * the engine or the other sets. The writers are thirteen new personas: a teenager typing slang, a
 * delivery motoboy in a hurry, a lawyer writing formally, the mother of a 5-year-old, a
 * Japanese-Brazilian retiree, a retired truck driver who writes in capitals, a hairdresser who
 * types fast with typos, a bride before the wedding, a company HR person, a British expat and an
 * Indian software developer (English), an Argentine tourist and a Colombian exchange student
 * (Spanish). Topics as in business-test-set.ts. Questions whose answer is only in the price
 * table's policies (cancellation, warranty, Pix discount) are left out. Its first run, before the
 * engine was changed for any of it: 44.8 % in scope, 97.6 % refused, 3 answers with wrong facts.
 * Then the engine learnt the kinds it missed (courtesy with more words, the hours in other forms,
 * who is spoken to), so it is no longer held out. Rows are not edited to pass.
 */
type Row = [Language, string, Language, string];
// prettier-ignore
const ROWS: Row[] = [
  // Teenager typing slang and abbreviations
  ['pt-BR', 'eae td bem? 😎', 'pt-BR', 'greeting'],
  ['pt-BR', 'vcs sao clinica de q? so dentista msm?', 'pt-BR', 'business'],
  ['pt-BR', 'qnt ta a limpeza ai mano', 'pt-BR', 'catalogue.item-2'],
  ['pt-BR', 'tenho 16 anos, posso ir sozinho ou tem q ir c minha mae?', 'pt-BR', 'faq-15'],
  ['pt-BR', 'vcs colocam aparelho? qnt custa pra colocar o fixo', 'pt-BR', 'refusal'],
  ['pt-BR', 'e a manutencao do aparelho por mes sai qnt?', 'pt-BR', 'catalogue.item-9'],
  ['pt-BR', 'aquele aparelho transparente q nem aparece vcs fazem? queria mt', 'pt-BR', 'faq-8'],
  ['pt-BR', 'da pra colocar borrachinha colorida no aparelho? tipo rosa e roxo', 'pt-BR', 'refusal'],
  ['pt-BR', 'slk meu siso ta nascendo e doi dmss, tirar siso ai é qnto', 'pt-BR', 'catalogue.item-8'],
  ['pt-BR', 'tirar o siso doi mt? to morrendo de medo kkkk', 'pt-BR', 'faq-10'],
  ['pt-BR', 'vcs tem insta? queria ver uns antes e depois', 'pt-BR', 'refusal'],
  ['pt-BR', 'vcs abrem sabado de tarde? so consigo dps do cursinho', 'pt-BR', 'hours'],
  ['pt-BR', 'fazem aquele brilhantinho colado no dente?', 'pt-BR', 'refusal'],
  ['pt-BR', 'vlw mano tmj 🤙', 'pt-BR', 'thanks'],

  // Delivery motoboy in a hurry
  ['pt-BR', 'fala, rapidao: onde fica a clinica?', 'pt-BR', 'business'],
  ['pt-BR', 'cnsg parar a moto ai perto?', 'pt-BR', 'faq-6'],
  ['pt-BR', 'quebrei um dente agr no almoço, vcs encaixam hj?', 'pt-BR', 'faq-4'],
  ['pt-BR', 'qnt ta restauraçao', 'pt-BR', 'catalogue.item-5'],
  ['pt-BR', 'abre q horas amanha cedo', 'pt-BR', 'hours'],
  ['pt-BR', 'fecha no almoço?', 'pt-BR', 'hours'],
  ['pt-BR', 'sexta vcs vao ate q horas', 'pt-BR', 'hours'],
  ['pt-BR', 'da pra pagar no pix na hora?', 'pt-BR', 'faq-2'],
  ['pt-BR', 'passa o numero pra eu ligar', 'pt-BR', 'business'],
  ['pt-BR', 'arrancar um dente normal qnt sai', 'pt-BR', 'catalogue.item-7'],
  ['pt-BR', 'tem desconto pra motoboy de app?', 'pt-BR', 'refusal'],
  ['pt-BR', 'posso pilotar a moto dps de tirar o dente ou fico zonzo?', 'pt-BR', 'refusal'],
  ['pt-BR', 'ok vlw 👍', 'pt-BR', 'thanks'],

  // Lawyer writing formally
  ['pt-BR', 'Boa tarde. Gostaria de algumas informações, por gentileza.', 'pt-BR', 'greeting'],
  ['pt-BR', 'Prezados, a clínica fornece documento fiscal que me permita deduzir as despesas na declaração do IRPF?', 'pt-BR', 'faq-13'],
  ['pt-BR', 'Os recibos podem ser emitidos em nome do escritório, com CNPJ?', 'pt-BR', 'refusal'],
  ['pt-BR', 'Solicito o endereço completo da clínica, inclusive o CEP.', 'pt-BR', 'business'],
  ['pt-BR', 'Qual é o valor da consulta inicial de avaliação?', 'pt-BR', 'catalogue.item-1'],
  ['pt-BR', 'A clínica é credenciada à Amil Dental? Possuo o plano empresarial.', 'pt-BR', 'faq-1'],
  ['pt-BR', 'Qual o prazo médio entre a instalação do implante e a colocação da coroa definitiva?', 'pt-BR', 'faq-9'],
  ['pt-BR', 'Qual o custo de um implante unitário com coroa de porcelana?', 'pt-BR', 'catalogue.item-10'],
  ['pt-BR', 'E a radiografia panorâmica, qual o valor?', 'pt-BR', 'catalogue.item-11'],
  ['pt-BR', 'Quais documentos devo apresentar no primeiro atendimento?', 'pt-BR', 'faq-14'],
  ['pt-BR', 'Quem é o responsável técnico da clínica e qual o número de inscrição no CRO?', 'pt-BR', 'refusal'],
  ['pt-BR', 'Os senhores elaboram laudo odontológico para instruir processo judicial?', 'pt-BR', 'refusal'],
  ['pt-BR', 'A clínica funcionará em 21 de abril de 2027?', 'pt-BR', 'hours'],
  ['pt-BR', 'Agradeço a atenção e a presteza. Tenha um bom dia.', 'pt-BR', 'thanks'],

  // Mother of a 5-year-old
  ['pt-BR', 'Oi, boa noite! Tudo bem? 🙂', 'pt-BR', 'greeting'],
  ['pt-BR', 'meu filho tem 5 anos e nunca foi no dentista, vcs atendem criança pequena?', 'pt-BR', 'faq-5'],
  ['pt-BR', 'a dentista de criança vai em q dias da semana?', 'pt-BR', 'faq-5'],
  ['pt-BR', 'a odontopediatra atende de manha ou a tarde? pq ele estuda de manha', 'pt-BR', 'refusal'],
  ['pt-BR', 'ele tem uma manchinha preta no dente de tras, sera q é carie?', 'pt-BR', 'refusal'],
  ['pt-BR', 'quanto fica a primeira consulta dele?', 'pt-BR', 'catalogue.item-1'],
  ['pt-BR', 'vcs fazem aplicacao de selante? quanto?', 'pt-BR', 'refusal'],
  ['pt-BR', 'dente de leite com carie precisa tratar ou deixa cair sozinho?', 'pt-BR', 'refusal'],
  ['pt-BR', 'tem espaço kids ou brinquedo na sala de espera? ele fica mt agitado', 'pt-BR', 'refusal'],
  ['pt-BR', 'vcs pegam Uniodonto? ele é dependente no meu plano', 'pt-BR', 'faq-1'],
  ['pt-BR', 'eu tenho q ficar junto com ele na consulta ne?', 'pt-BR', 'faq-15'],
  ['pt-BR', 'minha caçula tem 1 aninho e ja tem dois dentinhos, ja posso levar ela tb?', 'pt-BR', 'faq-5'],
  ['pt-BR', 'Obrigada pela paciência!! 🥰', 'pt-BR', 'thanks'],

  // Japanese-Brazilian retiree
  ['pt-BR', 'Bom dia. Aqui é o senhor Hiroshi Tanaka, tenho 72 anos.', 'pt-BR', 'greeting'],
  ['pt-BR', 'Uso dentadura em cima. Vocês fazem prótese total? Qual o valor?', 'pt-BR', 'refusal'],
  ['pt-BR', 'E o implante, quanto cobram por dente?', 'pt-BR', 'catalogue.item-10'],
  ['pt-BR', 'Meu vizinho fez aquela dentadura fixa parafusada em implantes, protocolo. Quanto fica aí?', 'pt-BR', 'refusal'],
  ['pt-BR', 'Tomo remédio para afinar o sangue, posso fazer extração normalmente?', 'pt-BR', 'refusal'],
  ['pt-BR', 'Meu joelho não ajuda mais. Consigo chegar no consultório sem subir escada?', 'pt-BR', 'faq-12'],
  ['pt-BR', 'Minha esposa perguntou quantos meses leva o tratamento de implante até ficar com o dente definitivo.', 'pt-BR', 'faq-9'],
  ['pt-BR', 'Vocês atendem no sábado de manhã? Durante a semana faço hemodiálise.', 'pt-BR', 'hours'],
  ['pt-BR', 'Na Sexta-feira Santa de 2027 vocês estarão atendendo?', 'pt-BR', 'hours'],
  ['pt-BR', 'Pode parcelar o implante no cartão? Em quantas vezes?', 'pt-BR', 'faq-2'],
  ['pt-BR', 'A clínica existe há quantos anos?', 'pt-BR', 'business'],
  ['pt-BR', 'Tem algum dentista que fala japonês?', 'pt-BR', 'refusal'],
  ['pt-BR', 'Muito obrigado, arigatou gozaimasu 🙏', 'pt-BR', 'thanks'],

  // Retired truck driver writing in capitals
  ['pt-BR', 'BOM DIA AMIGOS DA CLINICA ☀️', 'pt-BR', 'greeting'],
  ['pt-BR', 'QUANTO CUSTA UM CANAL NO DENTE DO FUNDO, O MOLAR', 'pt-BR', 'catalogue.item-6'],
  ['pt-BR', 'E CANAL NO DENTE DA FRENTE QUANTO SAI', 'pt-BR', 'refusal'],
  ['pt-BR', 'QUANTO PRA ARRANCAR UM DENTE QUE JA TA MOLE', 'pt-BR', 'catalogue.item-7'],
  ['pt-BR', 'VCS ESTAO ABERTOS NO DIA 31 DE DEZEMBRO?', 'pt-BR', 'hours'],
  ['pt-BR', 'PRECISO FAZER RAIO X EM OUTRO LUGAR OU VCS TIRAM AI MESMO?', 'pt-BR', 'faq-11'],
  ['pt-BR', 'QUANTO É A PANORAMICA', 'pt-BR', 'catalogue.item-11'],
  ['pt-BR', 'TEM ONDE ESTACIONAR CAMINHAO? KKK BRINCADEIRA, CARRO MESMO', 'pt-BR', 'faq-6'],
  ['pt-BR', 'PASSA CARTAO DE CREDITO AI OU SO DINHEIRO?', 'pt-BR', 'faq-2'],
  ['pt-BR', 'MEU DENTE TA MOLE E A GENGIVA SANGRANDO, QUE REMEDIO EU TOMO?', 'pt-BR', 'refusal'],
  ['pt-BR', 'VCS FAZEM TRATAMENTO DE GENGIVA? RASPAGEM? QUANTO CUSTA', 'pt-BR', 'refusal'],
  ['pt-BR', 'ATENDEM NO DOMINGO?', 'pt-BR', 'hours'],
  ['pt-BR', 'OBRIGADO DEUS ABENÇOE 🙏🙏', 'pt-BR', 'thanks'],

  // Hairdresser typing fast, with typos and missing letters
  ['pt-BR', 'oii boa trde', 'pt-BR', 'greeting'],
  ['pt-BR', 'qnto e o clareamnto', 'pt-BR', 'catalogue'],
  ['pt-BR', 'vcs fazme clareamento de um dnte so? o q ficou escuro', 'pt-BR', 'refusal'],
  ['pt-BR', 'vcs fazme limpza com fluor? qnto fica', 'pt-BR', 'catalogue.item-2'],
  ['pt-BR', 'quias convenio vcs aceitam', 'pt-BR', 'faq-1'],
  ['pt-BR', 'vcs abrm as 8 ou as 9', 'pt-BR', 'hours'],
  ['pt-BR', 'seg feira vcs fehcam q horas', 'pt-BR', 'hours'],
  ['pt-BR', 'fazem restauracao da cor do dnte? vlor?', 'pt-BR', 'catalogue.item-5'],
  ['pt-BR', 'to com o rosto incahdo do lado do dente, da pra ir ai agr?', 'pt-BR', 'faq-4'],
  ['pt-BR', 'fazem botox??', 'pt-BR', 'refusal'],
  ['pt-BR', 'e harmonizaçao facial tb?', 'pt-BR', 'refusal'],
  ['pt-BR', 'o q tenho q levr no primeiro dia', 'pt-BR', 'faq-14'],
  ['pt-BR', 'brigadaa 💕💕', 'pt-BR', 'thanks'],

  // Bride before the wedding
  ['pt-BR', 'Olá!! Bom diaa ✨💍', 'pt-BR', 'greeting'],
  ['pt-BR', 'Caso daqui a 2 meses e quero os dentes mais brancos pras fotos! Quais opções de clareamento vcs tem?', 'pt-BR', 'catalogue'],
  ['pt-BR', 'O clareamento a laser fica quanto?', 'pt-BR', 'catalogue.item-3'],
  ['pt-BR', 'E o clareamento caseiro, com a moldeira, quanto custa?', 'pt-BR', 'catalogue.item-4'],
  ['pt-BR', 'O clareamento a laser no consultório são quantas sessões?', 'pt-BR', 'catalogue.item-3'],
  ['pt-BR', 'Tenho medo de ficar com os dentes sensíveis bem na semana do casamento 😬', 'pt-BR', 'faq-7'],
  ['pt-BR', 'Da pra dividir o clareamento no cartão?', 'pt-BR', 'faq-2'],
  ['pt-BR', 'Vcs fazem lente de contato dental? quanto é cada dente?', 'pt-BR', 'refusal'],
  ['pt-BR', 'Meu noivo tb quer fazer junto, tem desconto pra casal?', 'pt-BR', 'refusal'],
  ['pt-BR', 'Depois do clareamento posso tomar vinho tinto na festa?', 'pt-BR', 'refusal'],
  ['pt-BR', 'Tenho uma restauração num dente da frente, ela clareia junto?', 'pt-BR', 'refusal'],
  ['pt-BR', 'Muito obrigada, vou chamar vcs pra marcar! 💖', 'pt-BR', 'thanks'],

  // Company HR person
  ['pt-BR', 'Bom dia, tudo bem? Sou do RH de uma transportadora aqui do Centro.', 'pt-BR', 'greeting'],
  ['pt-BR', 'Vocês têm convênio empresarial ou alguma condição especial para funcionários de empresa?', 'pt-BR', 'refusal'],
  ['pt-BR', 'Quais planos odontológicos a clínica aceita? Nossos colaboradores têm Amil Dental.', 'pt-BR', 'faq-1'],
  ['pt-BR', 'Vocês fazem exame odontológico admissional para motoristas?', 'pt-BR', 'refusal'],
  ['pt-BR', 'Emitem nota? Alguns funcionários pedem reembolso do plano.', 'pt-BR', 'faq-13'],
  ['pt-BR', 'Quais serviços a clínica oferece? Queria montar um cartaz pro mural.', 'pt-BR', 'catalogue'],
  ['pt-BR', 'Quantos dentistas a clínica tem?', 'pt-BR', 'business'],
  ['pt-BR', 'Vocês fazem palestra de saúde bucal dentro da empresa?', 'pt-BR', 'refusal'],
  ['pt-BR', 'Qual o horário de expediente de segunda a sexta? Muitos saem às 18h.', 'pt-BR', 'hours'],
  ['pt-BR', 'Os funcionários podem agendar direto com vocês ou precisa passar pelo RH?', 'pt-BR', 'faq-3'],
  ['pt-BR', 'Perfeito, muito obrigada pelas informações!', 'pt-BR', 'thanks'],

  // British expat
  ['en-US', "Hello there! 👋 Hope you're well.", 'en-US', 'greeting'],
  ['en-US', "I've just moved to Curitiba. Whereabouts is the clinic exactly?", 'en-US', 'business'],
  ['en-US', 'Do any of your dentists speak English?', 'en-US', 'refusal'],
  ['en-US', 'How much would a scale and polish be?', 'en-US', 'catalogue.item-2'],
  ['pt-BR', 'Are you open on Saturday afternoons?', 'en-US', 'hours'],
  ['en-US', "I've got Bupa international cover, do you take it?", 'en-US', 'faq-1'],
  ['en-US', "What's the cost of a root canal on a back tooth?", 'en-US', 'catalogue.item-6'],
  ['en-US', 'Can I pay by card, and can I spread the cost of braces over a few months?', 'en-US', 'faq-2'],
  ['en-US', 'My gums bleed a bit when I brush, should I be worried?', 'en-US', 'refusal'],
  ['en-US', 'Could you recommend a good toothpaste for sensitive teeth?', 'en-US', 'refusal'],
  ['en-US', 'My mum is in a wheelchair and visiting next month. Will she manage to get in?', 'en-US', 'faq-12'],
  ['en-US', 'Is there a car park nearby?', 'en-US', 'faq-6'],
  ['en-US', 'Brilliant, cheers for the help!', 'en-US', 'thanks'],

  // Indian software developer on a work visa
  ['en-US', 'Hi, good evening', 'en-US', 'greeting'],
  ['en-US', 'What are your timings on Fridays?', 'en-US', 'hours'],
  ['en-US', 'How much for wisdom tooth removal?', 'en-US', 'catalogue.item-8'],
  ['en-US', 'Do you do clear aligners like Invisalign, and how much does it cost?', 'en-US', 'faq-8'],
  ['en-US', 'Do you provide a proper invoice? My company reimburses medical expenses.', 'en-US', 'faq-13'],
  ['pt-BR', 'Are you open on December 24?', 'en-US', 'hours'],
  ['en-US', 'Can I book an appointment for next Tuesday evening?', 'en-US', 'faq-3'],
  ['en-US', 'Do you offer teeth whitening? What is the price?', 'en-US', 'catalogue'],
  ['en-US', 'How much does a dental crown cost, just the crown without an implant?', 'en-US', 'refusal'],
  ['en-US', 'Do you have a branch in São Paulo too? I travel there a lot.', 'en-US', 'refusal'],
  ['en-US', 'I have a really strong gag reflex. Can the treatment be done under general anaesthesia?', 'en-US', 'refusal'],
  ['en-US', 'What is your phone number?', 'en-US', 'business'],
  ['en-US', 'Thank you so much 🙏', 'en-US', 'thanks'],

  // Argentine tourist
  ['es-ES', '¡Hola! ¿Qué tal? Buen día 🇦🇷', 'es-ES', 'greeting'],
  ['es-ES', 'Estoy de vacaciones en Curitiba y se me partió una muela comiendo. ¿Me pueden atender hoy?', 'es-ES', 'faq-4'],
  ['es-ES', '¿Cuánto sale una consulta?', 'es-ES', 'catalogue.item-1'],
  ['es-ES', '¿Y cuánto sale un arreglo de caries con resina?', 'es-ES', 'catalogue.item-5'],
  ['es-ES', '¿Puedo pagar en dólares o en pesos?', 'es-ES', 'refusal'],
  ['pt-BR', '¿Están abiertos el domingo?', 'es-ES', 'hours'],
  ['es-ES', '¿Cuánto cuesta sacar una muela de juicio?', 'es-ES', 'catalogue.item-8'],
  ['es-ES', 'Me da pánico la aguja... ¿me van a anestesiar para sacar la muela?', 'es-ES', 'faq-10'],
  ['es-ES', '¿Me pueden recetar un antibiótico? Me duele mucho', 'es-ES', 'refusal'],
  ['es-ES', '¿Dónde queda la clínica? Estoy en un hotel cerca de la Rua XV', 'es-ES', 'business'],
  ['es-ES', '¿Hacen la placa de rayos X ahí mismo?', 'es-ES', 'faq-11'],
  ['es-ES', '¿Tienen página web?', 'es-ES', 'business'],
  ['es-ES', '¡Mil gracias, son unos genios! 🙌', 'es-ES', 'thanks'],

  // Colombian exchange student
  ['es-ES', 'Buenas tardes, ¿cómo están?', 'es-ES', 'greeting'],
  ['es-ES', '¿A qué hora abren entre semana?', 'es-ES', 'hours'],
  ['es-ES', '¿Cuánto vale la limpieza?', 'es-ES', 'catalogue.item-2'],
  ['es-ES', '¿Tienen descuento para estudiantes universitarios? Estudio en la UFPR', 'es-ES', 'refusal'],
  ['es-ES', '¿Ponen brackets de zafiro, los estéticos?', 'es-ES', 'refusal'],
  ['es-ES', 'Tengo brackets desde Colombia, ¿me pueden hacer el control mensual? ¿Cuánto cobran?', 'es-ES', 'catalogue.item-9'],
  ['es-ES', '¿Cuánto cuesta el blanqueamiento casero?', 'es-ES', 'catalogue.item-4'],
  ['es-ES', '¿El blanqueamiento es molesto? Ya tengo los dientes algo sensibles al frío', 'es-ES', 'faq-7'],
  ['es-ES', '¿Atienden el 8 de febrero de 2027? Es lunes de carnaval', 'es-ES', 'hours'],
  ['pt-BR', '¿Cómo pido una cita? ¿Por aquí mismo?', 'es-ES', 'faq-3'],
  ['es-ES', '¿Cuál es el mejor cepillo eléctrico para usar con brackets?', 'es-ES', 'refusal'],
  ['es-ES', 'Listo, muchas gracias parce 😊', 'es-ES', 'thanks'],
];

export const BUSINESS_TEST_SET_6: readonly BusinessTestCase[] = ROWS.map(
  ([ui, question, language, topic]) => ({
    ui,
    question,
    language,
    topic,
  }),
);
