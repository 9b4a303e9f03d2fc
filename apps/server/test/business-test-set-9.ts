import type { Language } from '@contrateia/shared';
import type { BusinessTestCase } from './business-test-set';

/**
 * The example clinic's ninth test set (170 questions), written by a helper session from the
 * clinic's data alone (test/examples/clinica-sorriso.json and its price table), without reading
 * the engine or the other sets. The personas are an acarajé seller from Salvador, a seamstress
 * from the interior of Minas Gerais, a carioca bartender, a paulistano product manager who mixes
 * English into his Portuguese, a court clerk writing formally, a pizza maker dictating by voice
 * with flour on his hands, a beauty influencer, a nun asking for the sisters of her convent, an
 * açaí-shop owner from Belém, an Irish digital nomad, a Nigerian master's student, a Uruguayan
 * footballer just signed by a Curitiba club and a Cuban doctor living in Brazil. Topics as in
 * business-test-set.ts. Questions whose answer is only in the price table's policies
 * (cancellation, warranty, Pix discount) are left out. Held out when it was written: its first
 * run, on the engine that had learnt from the eighth set, gave 66.2 % in scope, 97.3 % refused,
 * 2 wrong facts (one answer that adds the whitening prices to the evaluation's). The engine has
 * since learnt the kinds of message it missed here, so no set measures unseen questions now: the
 * next one written apart from the engine will.
 */
type Row = [Language, string, Language, string];
// prettier-ignore
const ROWS: Row[] = [
  // An acarajé seller from Salvador, living in Curitiba, Bahian slang.
  ['pt-BR', 'Colé de mermo, meu rei! Boa tarde pra vcs 😄', 'pt-BR', 'greeting'],
  ['pt-BR', 'oxe, vcs abrem sabado? pq durante a semana eu to na feira vendendo acaraje o dia todo', 'pt-BR', 'hours'],
  ['pt-BR', 'e no sabado vai ate q horas? se for so de manha eu corro pra ai cedinho', 'pt-BR', 'hours'],
  ['pt-BR', 'ô pai, quanto ta uma limpeza com fluor ai? meus dente ta precisando viu', 'pt-BR', 'catalogue.item-2'],
  ['pt-BR', 'o dentista la de Salvador disse q eu ia precisar de canal num dente de tras, um molar. quanto sai ai?', 'pt-BR', 'catalogue.item-6'],
  ['pt-BR', 'mainha vem de Salvador mes q vem e quer botar um implante, quanto fica um dente com a coroa?', 'pt-BR', 'catalogue.item-10'],
  ['pt-BR', 'ela tem Uniodonto la da Bahia, serve ai tb ou é so particular?', 'pt-BR', 'faq-1'],
  ['pt-BR', 'e dá pra dividir esse implante no cartao? pagar tudo de uma vez é barril', 'pt-BR', 'faq-2'],
  ['pt-BR', 'vixe, e demora quanto tempo pra ficar pronto? ela so fica uns dois mes aqui', 'pt-BR', 'faq-9'],
  ['pt-BR', 'oxente, dendê mancha o dente? como acaraje todo santo dia kkkk', 'pt-BR', 'refusal'],
  ['pt-BR', 'vcs conhecem alguma clinica boa em Salvador pra mainha continuar o tratamento la?', 'pt-BR', 'refusal'],
  ['pt-BR', 'faz um precinho camarada se eu levar a familia toda? eu, mainha e minhas duas irma', 'pt-BR', 'refusal'],
  ['pt-BR', 'brigadão, meu rei! Deus abençoe vcs 🙏', 'pt-BR', 'thanks'],

  // A seamstress from the interior of Minas Gerais, mineiro speech.
  ['pt-BR', 'Bom dia, sô! Cês tão bão?', 'pt-BR', 'greeting'],
  ['pt-BR', 'uai, cês fica aberto na hora do almoço? eu só consigo sair do ateliê meio dia', 'pt-BR', 'hours'],
  ['pt-BR', 'que trem é esse de clareamento caseiro? quanto custa esse trem?', 'pt-BR', 'catalogue.item-4'],
  ['pt-BR', 'e o de laser sai quanto? é caro dimais da conta?', 'pt-BR', 'catalogue.item-3'],
  ['pt-BR', 'clarear dói, uai? tenho medo de ficar com os dente tudo sensível', 'pt-BR', 'faq-7'],
  ['pt-BR', 'minha netinha tem 3 aninho, cês cuida de criança? que dia que vem a dentista dos pequeno?', 'pt-BR', 'faq-5'],
  ['pt-BR', 'tem lugar pra pará o carro aí perto? é meu genro que vai me levá', 'pt-BR', 'faq-6'],
  ['pt-BR', 'cês fica onde mesmo? num conheço Curitiba direito não', 'pt-BR', 'business'],
  ['pt-BR', 'quanto custa uma obturaçãozinha dessas branquinha, de resina?', 'pt-BR', 'catalogue.item-5'],
  ['pt-BR', 'cês vende fio dental e escova aí na clínica? é pra num precisá ir na farmácia', 'pt-BR', 'refusal'],
  ['pt-BR', 'tem algum ônibus que passa perto daí saindo do Boqueirão?', 'pt-BR', 'refusal'],
  ['pt-BR', 'ocê acha que meu dente tá mole por causa da idade? tenho 67 ano', 'pt-BR', 'refusal'],
  ['pt-BR', 'brigada, fia, Deus te pague! 🙏', 'pt-BR', 'thanks'],

  // A carioca bartender who works nights in Curitiba.
  ['pt-BR', 'Coé, rapaziada! Suave?', 'pt-BR', 'greeting'],
  ['pt-BR', 'papo reto, qual o valor da consulta de avaliação com vcs?', 'pt-BR', 'catalogue.item-1'],
  ['pt-BR', 'sou barman, largo as 4 da manha e acordo tarde... na quinta vcs atendem ate q horas?', 'pt-BR', 'hours'],
  ['pt-BR', 'e sexta fecha mais cedo? pq no rio tudo fica aberto ate tarde kkk', 'pt-BR', 'hours'],
  ['pt-BR', 'caraca mermão, lasquei o dente da frente abrindo garrafa com a boca 🤦‍♂️ ta sangrando um pouco, vcs encaixam hj?', 'pt-BR', 'faq-4'],
  ['pt-BR', 'quanto fica pra tirar um siso q ta nascendo torto?', 'pt-BR', 'catalogue.item-8'],
  ['pt-BR', 'vai ter anestesia né? nao quero sentir nada nao, tô bolado', 'pt-BR', 'faq-10'],
  ['pt-BR', 'maneiro. vcs passam cartao de debito?', 'pt-BR', 'faq-2'],
  ['pt-BR', 'vcs fazem lente de contato nos dentes? aquelas de porcelana tipo de jogador de futebol', 'pt-BR', 'refusal'],
  ['pt-BR', 'tem algum bar sinistro ai perto da clinica pra eu conhecer? 🍻', 'pt-BR', 'refusal'],
  ['pt-BR', 'e pra marcar pra semana q vem, como é a parada?', 'pt-BR', 'faq-3'],
  ['pt-BR', 'vcs abrem no carnaval? se eu nao descer pro rio eu passo ai kkkk', 'pt-BR', 'hours'],
  ['pt-BR', 'valeu mermão, tamo junto 🤙', 'pt-BR', 'thanks'],

  // A paulistano product manager who mixes English into his Portuguese.
  ['pt-BR', 'E aí, mano, bom dia! 👋', 'pt-BR', 'greeting'],
  ['en-US', 'tipo, to montando o budget do mês, vcs tem a tabela de preços completa? manda tudo', 'pt-BR', 'catalogue'],
  ['pt-BR', 'meu, qual o valor da manutenção mensal do aparelho? o meu é aquele fixo de metal', 'pt-BR', 'catalogue.item-9'],
  ['pt-BR', 'e vcs trabalham com alinhador transparente tipo Invisalign? quero dar um upgrade kkk', 'pt-BR', 'faq-8'],
  ['en-US', 'qual o ballpark de preço desse alinhador? só pra eu ter uma ideia', 'pt-BR', 'faq-8'],
  ['pt-BR', 'vcs soltam NF? vou pedir reembolso no plano da empresa', 'pt-BR', 'faq-13'],
  ['pt-BR', 'rola fazer um call rápido com o dentista antes? tipo uma teleconsulta', 'pt-BR', 'refusal'],
  ['pt-BR', 'qual o horário de vcs de segunda a sexta? minha agenda é full de daily e reunião', 'pt-BR', 'hours'],
  ['en-US', 'vcs tão abertos agora? abriu um gap de 1h entre as reuniões', 'pt-BR', 'hours'],
  ['pt-BR', 'o prédio tem elevador ou é escada? to com o pé imobilizado, torci no beach tennis', 'pt-BR', 'faq-12'],
  ['pt-BR', 'vcs são uma clínica grande? quantos dentistas tem aí?', 'pt-BR', 'business'],
  ['pt-BR', 'tem wifi na sala de espera? preciso ficar online', 'pt-BR', 'refusal'],
  ['pt-BR', 'vcs tem parceria com o Wellhub? lá dá desconto em um monte de coisa', 'pt-BR', 'refusal'],
  ['pt-BR', 'da hora, valeu mesmo! 🙌', 'pt-BR', 'thanks'],

  // A court clerk who writes formally.
  ['pt-BR', 'Prezados, boa tarde. Espero que estejam bem.', 'pt-BR', 'greeting'],
  ['pt-BR', 'Gostaria, por gentileza, de saber o valor da radiografia panorâmica realizada na clínica.', 'pt-BR', 'catalogue.item-11'],
  ['pt-BR', 'Solicito, ainda, o endereço completo do estabelecimento, inclusive o CEP.', 'pt-BR', 'business'],
  ['pt-BR', 'O referido exame é realizado nas dependências da própria clínica ou devo providenciá-lo em laboratório externo?', 'pt-BR', 'faq-11'],
  ['pt-BR', 'Informo que sou beneficiário do plano Odontoprev, por intermédio do Tribunal. Seria possível utilizá-lo nessa clínica?', 'pt-BR', 'faq-1'],
  ['pt-BR', 'Ademais, necessito de recibo discriminado para fins de declaração do Imposto de Renda. Os senhores o fornecem?', 'pt-BR', 'faq-13'],
  ['pt-BR', 'Quais documentos devo apresentar por ocasião do primeiro atendimento?', 'pt-BR', 'faq-14'],
  ['pt-BR', 'A clínica funcionará em 21 de abril de 2027, feriado de Tiradentes?', 'pt-BR', 'hours'],
  ['pt-BR', 'Qual o horário de expediente às sextas-feiras, por obséquio?', 'pt-BR', 'hours'],
  ['pt-BR', 'Há, no corpo clínico, profissional especializado em disfunção temporomandibular (DTM)?', 'pt-BR', 'refusal'],
  ['pt-BR', 'Teriam conhecimento de algum cartório nas proximidades para reconhecimento de firma?', 'pt-BR', 'refusal'],
  ['pt-BR', 'Qual a titulação acadêmica dos cirurgiões-dentistas? Algum deles possui doutorado?', 'pt-BR', 'refusal'],
  ['pt-BR', 'Agradeço antecipadamente a atenção dispensada. Atenciosamente.', 'pt-BR', 'thanks'],

  // A pizza maker dictating by voice with flour on his hands: run-ons, spoken punctuation.
  ['pt-BR', 'oi bom dia aqui é o Beto da pizzaria tudo bem com vocês', 'pt-BR', 'greeting'],
  ['pt-BR', 'então eu queria saber quanto é que tá a limpeza aí porque a minha esposa falou que faz tempo que eu não faço uma limpeza ponto de interrogação', 'pt-BR', 'catalogue.item-2'],
  ['pt-BR', 'e vocês abrem que horas de manhã porque a pizzaria só abre de noite então de manhã eu tô livre', 'pt-BR', 'hours'],
  ['pt-BR', 'quanto é que tá pra arrancar um dente normal não é siso não é um dente do lado que tá mole', 'pt-BR', 'catalogue.item-7'],
  ['pt-BR', 'aí eu tenho pavor de agulha vocês dão anestesia ou como é que funciona tem como não sentir dor', 'pt-BR', 'faq-10'],
  ['pt-BR', 'e o pagamento vírgula pode ser em dinheiro ou só no cartão', 'pt-BR', 'faq-2'],
  ['pt-BR', 'meu filho tem 16 anos ele pode ir sozinho lá que eu tô trabalhando ou precisa eu ir junto', 'pt-BR', 'faq-15'],
  ['pt-BR', 'vocês vendem aquela escova elétrica aí na clínica que o meu dentista antigo vendia', 'pt-BR', 'refusal'],
  ['pt-BR', 'qual que é o telefone de vocês pra eu ligar quando eu tiver com a mão limpa', 'pt-BR', 'business'],
  ['pt-BR', 'vocês abrem no domingo porque domingo é o único dia que a pizzaria fecha', 'pt-BR', 'hours'],
  ['pt-BR', 'pode me indicar um remédio bom pra dor de dente até eu conseguir ir aí', 'pt-BR', 'refusal'],
  ['pt-BR', 'vamos fazer uma parceria eu mando pizza pros funcionários e vocês me dão um desconto', 'pt-BR', 'refusal'],
  ['pt-BR', 'tá bom muito obrigado viu valeu mesmo', 'pt-BR', 'thanks'],

  // A beauty influencer.
  ['pt-BR', 'Oiii amores!! 💕✨', 'pt-BR', 'greeting'],
  ['pt-BR', 'gente, quero MUITO clarear os dentes pra uma publi, quanto ta o clareamento de vcs?', 'pt-BR', 'catalogue'],
  ['pt-BR', 'e só o a laser, fica quanto? o caseiro demora demais pra mim', 'pt-BR', 'catalogue.item-3'],
  ['pt-BR', 'vcs topam permuta? eu divulgo a clinica pros meus 80k seguidores e vcs fazem o clareamento 🥰', 'pt-BR', 'refusal'],
  ['pt-BR', 'sou mega sensivel, clarear vai doer?? 😭', 'pt-BR', 'faq-7'],
  ['pt-BR', 'da pra parcelar o clareamento? tipo em 10x', 'pt-BR', 'faq-2'],
  ['pt-BR', 'vcs tem insta? queria marcar vcs nos stories', 'pt-BR', 'refusal'],
  ['en-US', 'onde fica a clinica? quero ver se da pra gravar na frente hehe', 'pt-BR', 'business'],
  ['pt-BR', 'vcs abrem sabado de manha? é o unico dia q nao tenho gravação', 'pt-BR', 'hours'],
  ['pt-BR', 'e harmonização facial, vcs fazem? botox, preenchimento labial...', 'pt-BR', 'refusal'],
  ['pt-BR', 'quanto ta a consulta pra avaliarem se eu posso clarear?', 'pt-BR', 'catalogue.item-1'],
  ['pt-BR', 'gente, to com uma aftinha na boca, isso impede de clarear?', 'pt-BR', 'refusal'],
  ['pt-BR', 'ameiii, obrigadaaa 😘💕', 'pt-BR', 'thanks'],

  // A nun asking for the sisters of her convent.
  ['pt-BR', 'Paz e bem! Bom dia, aqui é a Irmã Lúcia.', 'pt-BR', 'greeting'],
  ['pt-BR', 'Somos seis irmãs aqui no convento e algumas precisam de uma limpeza. Qual o valor por pessoa?', 'pt-BR', 'catalogue.item-2'],
  ['pt-BR', 'A Irmã Teresinha anda em cadeira de rodas. Ela consegue chegar até o consultório?', 'pt-BR', 'faq-12'],
  ['pt-BR', 'Vocês atendem na Semana Santa? Sobretudo na Sexta-feira da Paixão.', 'pt-BR', 'hours'],
  ['pt-BR', 'E no dia 8 de setembro, festa de Nossa Senhora da Luz, a clínica abre?', 'pt-BR', 'hours'],
  ['pt-BR', 'A Irmã Rosa precisa tirar um dente do siso. Quanto custa?', 'pt-BR', 'catalogue.item-8'],
  ['pt-BR', 'Às vezes uma irmã amanhece com dor forte. Vocês atendem essas urgências?', 'pt-BR', 'faq-4'],
  ['pt-BR', 'Vocês fornecem recibo? A madre superiora presta contas de todas as despesas.', 'pt-BR', 'faq-13'],
  ['pt-BR', 'Há algum desconto para instituições religiosas ou filantrópicas?', 'pt-BR', 'refusal'],
  ['pt-BR', 'Algum dentista poderia atender no próprio convento? A Irmã Benedita tem 94 anos e quase não sai.', 'pt-BR', 'refusal'],
  ['pt-BR', 'Como fazemos para marcar três irmãs no mesmo dia?', 'pt-BR', 'faq-3'],
  ['pt-BR', 'Vocês sabem o horário das missas na Catedral, que fica aí perto?', 'pt-BR', 'refusal'],
  ['pt-BR', 'Deus lhes pague pela atenção. Fiquem com Deus!', 'pt-BR', 'thanks'],

  // An açaí-shop owner from Belém, paraense speech.
  ['pt-BR', 'Égua, boa tarde mana! Tudo de boa?', 'pt-BR', 'greeting'],
  ['pt-BR', 'vcs ficam abertos ate q horas hj mana?', 'pt-BR', 'hours'],
  ['pt-BR', 'égua, esse frio daqui ta me deixando com o dente sensivel, é normal isso?', 'pt-BR', 'refusal'],
  ['pt-BR', 'quanto é pra fazer uma restauração? tenho uma carie pequena no dente da frente', 'pt-BR', 'catalogue.item-5'],
  ['pt-BR', 'e a panoramica? o dentista la de Belém tinha me pedido uma', 'pt-BR', 'catalogue.item-11'],
  ['pt-BR', 'meu plano é odontoprev, cobre ai com vcs?', 'pt-BR', 'faq-1'],
  ['pt-BR', 'te mete, o implante é 3800?? é por dente isso?', 'pt-BR', 'catalogue.item-10'],
  ['pt-BR', 'vcs tem estacionamento? ando de carro pra cima e pra baixo por causa da loja', 'pt-BR', 'faq-6'],
  ['pt-BR', 'vcs sabem onde vende açaí de verdade aqui em Curitiba? kkkk o daqui é doce demais', 'pt-BR', 'refusal'],
  ['pt-BR', 'primeira vez q vou ai, preciso levar o q?', 'pt-BR', 'faq-14'],
  ['pt-BR', 'vcs fecham no natal? vou pra Belém passar com a familia e queria resolver antes', 'pt-BR', 'hours'],
  ['pt-BR', 'tem vaga de emprego ai pra auxiliar de saude bucal? minha prima ta procurando', 'pt-BR', 'refusal'],
  ['pt-BR', 'valeu mana, vcs são pai d\'égua 💜', 'pt-BR', 'thanks'],

  // An Irish digital nomad working remotely from Curitiba.
  ['en-US', 'Howya lads, hope ye\'re all keeping well!', 'en-US', 'greeting'],
  ['en-US', 'Would ye be open on a Saturday at all? Weekdays I\'m on calls with Dublin from 8.', 'en-US', 'hours'],
  ['en-US', 'What time do ye break for lunch? I could pop in on mine.', 'en-US', 'hours'],
  ['en-US', 'How much is a scale and polish over there?', 'en-US', 'catalogue.item-2'],
  ['en-US', 'And the first check-up, the one with the full exam, what does that cost?', 'en-US', 'catalogue.item-1'],
  ['pt-BR', 'Chipped a filling on a bit of crackling last night. How much for a new white filling?', 'en-US', 'catalogue.item-5'],
  ['en-US', 'Can I pay with a foreign credit card or do I need this Pix thing everyone has?', 'en-US', 'faq-2'],
  ['en-US', 'Is there a dentist there who speaks English? My Portuguese is pure desperate.', 'en-US', 'refusal'],
  ['en-US', 'Where are ye exactly? I\'m staying over in Batel.', 'en-US', 'business'],
  ['en-US', 'Any idea which bus would get me from Batel to ye?', 'en-US', 'refusal'],
  ['en-US', 'Could ye give me a receipt I can send on to my insurer back home?', 'en-US', 'faq-13'],
  ['pt-BR', 'Are ye open on New Year\'s Eve or is everyone off for the craic?', 'en-US', 'hours'],
  ['en-US', 'Sound, thanks a million! 🍀', 'en-US', 'thanks'],

  // A Nigerian master's student at the federal university.
  ['en-US', 'Good evening sir/ma. How is work today?', 'en-US', 'greeting'],
  ['en-US', 'Please I want to ask, how much is root canal for molar tooth? My lower back tooth.', 'en-US', 'catalogue.item-6'],
  ['en-US', 'Kindly tell me if you people attend to emergency. The pain can come anytime sha.', 'en-US', 'faq-4'],
  ['pt-BR', 'My stipend is small o. Is there any discount for students?', 'en-US', 'refusal'],
  ['en-US', 'Abeg, can I pay small small? Like installment on my card?', 'en-US', 'faq-2'],
  ['en-US', 'What time do you close on Friday? I have lecture till 4pm.', 'en-US', 'hours'],
  ['en-US', 'Please is the x-ray done inside the clinic or I go somewhere else for it?', 'en-US', 'faq-11'],
  ['en-US', 'How much is the panoramic x-ray sef?', 'en-US', 'catalogue.item-11'],
  ['en-US', 'My wife is pregnant. Is it safe for her to do teeth whitening now?', 'en-US', 'refusal'],
  ['pt-BR', 'After the baby comes, how much is the home whitening, the one with trays she wears?', 'en-US', 'catalogue.item-4'],
  ['en-US', 'Do you know where I can buy Nigerian foodstuff in Curitiba? Egusi, garri...', 'en-US', 'refusal'],
  ['en-US', 'My son is 14. Can he go alone for his appointment when I am in class?', 'en-US', 'faq-15'],
  ['en-US', 'Thank you so much, God bless you.', 'en-US', 'thanks'],

  // A Uruguayan footballer just signed by a Curitiba club.
  ['es-ES', '¡Buenas, bo! ¿Todo bien?', 'es-ES', 'greeting'],
  ['pt-BR', 'Ta, te cuento: me comí un codazo en el partido y se me partió un diente. ¿Me pueden ver hoy de urgencia?', 'es-ES', 'faq-4'],
  ['es-ES', 'Capaz que necesito un implante, ¿cuánto sale uno con la corona?', 'es-ES', 'catalogue.item-10'],
  ['es-ES', '¿Y cuánto demora todo eso del implante? La temporada arranca en dos meses.', 'es-ES', 'faq-9'],
  ['pt-BR', '¿Aceptan tarjeta de crédito? Todavía no tengo cuenta en banco brasileño para hacer Pix.', 'es-ES', 'faq-2'],
  ['es-ES', '¿Abren los sábados? Entrenamos de lunes a viernes.', 'es-ES', 'hours'],
  ['es-ES', '¿Qué tengo que llevar la primera vez? Tengo solo el pasaporte uruguayo.', 'es-ES', 'faq-14'],
  ['es-ES', '¿Cuánto sale un protector bucal a medida para jugar al fútbol?', 'es-ES', 'refusal'],
  ['es-ES', 'La limpieza, ¿cuánto vale? Con tanto mate y café tengo los dientes de otro color.', 'es-ES', 'catalogue.item-2'],
  ['pt-BR', '¿Me pasás la lista de precios de todo lo que hacen?', 'es-ES', 'catalogue'],
  ['es-ES', '¿Saben de alguna parrilla uruguaya buena por Curitiba?', 'es-ES', 'refusal'],
  ['es-ES', '¿Dónde quedan, bo? Pasame la dirección.', 'es-ES', 'business'],
  ['es-ES', 'Gracias, crack. Un abrazo grande.', 'es-ES', 'thanks'],

  // A Cuban doctor living in Brazil.
  ['pt-BR', '¿Qué bolá? Buenas tardes, mi vida.', 'es-ES', 'greeting'],
  ['es-ES', 'Soy médica, llevo años en Brasil. ¿Cuánto cuesta la primera consulta de evaluación con ustedes?', 'es-ES', 'catalogue.item-1'],
  ['es-ES', 'Mi niño tiene 6 años, ¿tienen odontopediatra? ¿Qué días viene?', 'es-ES', 'faq-5'],
  ['pt-BR', 'Ahorita tengo una muela picada, ¿cuánto cobran por un empaste de resina?', 'es-ES', 'catalogue.item-5'],
  ['es-ES', '¿Y sacar un diente sencillo, que no lleve cirugía?', 'es-ES', 'catalogue.item-7'],
  ['es-ES', '¿Hacen ortodoncia invisible? Mi hija quiere esos alineadores.', 'es-ES', 'faq-8'],
  ['es-ES', '¿Me pueden recetar amoxicilina? Creo que tengo una infección en la muela.', 'es-ES', 'refusal'],
  ['pt-BR', '¿Atienden en carnaval? Ese lunes lo tengo libre.', 'es-ES', 'hours'],
  ['es-ES', '¿Están abiertos ahorita, chica?', 'es-ES', 'hours'],
  ['es-ES', '¿Tienen parqueo? Voy en carro.', 'es-ES', 'faq-6'],
  ['es-ES', '¿Saben si hay más médicos cubanos por Curitiba? Busco colegas.', 'es-ES', 'refusal'],
  ['pt-BR', '¿Ustedes contratan médicos? Estoy revalidando el título.', 'es-ES', 'refusal'],
  ['es-ES', 'Muchas gracias, mi amor, qué amables.', 'es-ES', 'thanks'],
];

export const BUSINESS_TEST_SET_9: readonly BusinessTestCase[] = ROWS.map(
  ([ui, question, language, topic]) => ({ ui, question, language, topic }),
);
