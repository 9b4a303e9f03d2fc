import type {
  AgentConfiguration,
  KnowledgeEntry,
  Language,
  LocalizedText,
  SeededAgentName,
} from '@contrateia/shared';
import { perLanguage } from './ai.phrases';

/**
 * The five agents of spec §1 as they are seeded on first start: texts, instructions for a
 * language model, welcome messages and the knowledge the builtin engine answers from. Admins can
 * edit all of it afterwards; this is only the starting point.
 */
export type SeededAgent = {
  name: SeededAgentName;
  displayName: LocalizedText;
  description: LocalizedText;
  configuration: AgentConfiguration;
  adminOnly: boolean;
};

type EntryText = { title: string; content: string; keywords: string[] };

/** One topic in the three languages; ids are `<agent>.<topic>.<language>`. */
function topic(
  id: string,
  link: string | undefined,
  texts: Record<Language, EntryText>,
): KnowledgeEntry[] {
  return (Object.keys(texts) as Language[]).map((language) => ({
    id: `${id}.${language}`,
    language,
    ...texts[language],
    ...(link ? { link } : {}),
  }));
}

const MODEL = { model: null, temperature: 0.3, maxReplyLength: 2000 };

const BRIEF =
  'ContrateIA is a web application, sold first in Brazil, where people hire their own AI agents, chat with ' +
  'them, and connect a WhatsApp number so that an agent answers their contacts. ';
const CONCISE = 'Be concise: a few short sentences or a short list, in Markdown.';

// guia ----------------------------------------------------------------------------------------
// The first three topics are the ones offered when a question finds nothing: keep the most asked first.

const GUIA_KNOWLEDGE: KnowledgeEntry[] = [
  ...topic('guia.hire', '/dashboard', {
    'pt-BR': {
      title: 'Contratar um agente',
      content:
        'No Painel, a seção **Agentes disponíveis** mostra os agentes que você ainda não contratou. Clique em ' +
        '**Contratar** no agente que quiser: ele passa na hora para **Seus agentes contratados**, sem recarregar ' +
        'a página. Depois clique em **Conversar** para abrir a página dele. Toda conta nova já começa com o Guia ' +
        'contratado; o Administrador só aparece para administradores.',
      keywords: [
        'contratar',
        'contratação',
        'contrato',
        'agente',
        'agentes disponíveis',
        'adicionar agente',
        'novo agente',
      ],
    },
    'en-US': {
      title: 'Hire an agent',
      content:
        "On the Dashboard, **Available Agents** lists the agents you haven't hired yet. Click **Hire** on the one " +
        'you want: it moves at once to **Your Hired Agents**, without reloading the page. Then click **Chat** to ' +
        'open its page. Every new account starts with the Guide already hired; the Administrator is offered to ' +
        'administrators only.',
      keywords: [
        'hire',
        'hiring',
        'agent',
        'available agents',
        'add an agent',
        'new agent',
        'get an agent',
      ],
    },
    'es-ES': {
      title: 'Contratar un agente',
      content:
        'En el Panel, **Agentes disponibles** muestra los agentes que aún no has contratado. Haz clic en ' +
        '**Contratar** en el que quieras: pasa al instante a **Tus agentes contratados**, sin recargar la página. ' +
        'Después haz clic en **Chatear** para abrir su página. Toda cuenta nueva empieza con la Guía ya ' +
        'contratada; el Administrador solo se ofrece a los administradores.',
      keywords: [
        'contratar',
        'contratación',
        'agente',
        'agentes disponibles',
        'añadir agente',
        'nuevo agente',
      ],
    },
  }),
  ...topic('guia.whatsapp', '/whatsapp', {
    'pt-BR': {
      title: 'Conectar o WhatsApp',
      content:
        'Abra a página **WhatsApp** e clique em **Conectar**: aparece um QR code. No celular, abra o WhatsApp, ' +
        'toque em **Configurações** (ou no menu ⋮) > **Aparelhos conectados** > **Conectar um aparelho** e aponte ' +
        'a câmera para o código. Quando a conexão termina, o indicador fica verde e suas conversas aparecem na ' +
        'lista. Para desligar, clique em **Desconectar**.',
      keywords: [
        'whatsapp',
        'conectar',
        'conexão',
        'qr code',
        'aparelhos conectados',
        'celular',
        'número',
        'telefone',
        'vincular',
      ],
    },
    'en-US': {
      title: 'Connect WhatsApp',
      content:
        'Open the **WhatsApp** page and click **Connect**: a QR code appears. On your phone, open WhatsApp, tap ' +
        '**Settings** (or the ⋮ menu) > **Linked devices** > **Link a device**, and point the camera at the code. ' +
        'When the connection is made, the indicator turns green and your conversations appear in the list. To ' +
        'unlink, click **Disconnect**.',
      keywords: [
        'whatsapp',
        'connect',
        'connection',
        'link',
        'qr code',
        'linked devices',
        'phone',
        'number',
        'pair',
      ],
    },
    'es-ES': {
      title: 'Conectar WhatsApp',
      content:
        'Abre la página **WhatsApp** y haz clic en **Conectar**: aparece un código QR. En el móvil, abre WhatsApp, ' +
        'toca **Ajustes** (o el menú ⋮) > **Dispositivos vinculados** > **Vincular un dispositivo** y apunta la ' +
        'cámara al código. Cuando la conexión se completa, el indicador se pone verde y tus conversaciones ' +
        'aparecen en la lista. Para desconectar, haz clic en **Desconectar**.',
      keywords: [
        'whatsapp',
        'conectar',
        'conexión',
        'vincular',
        'código qr',
        'dispositivos vinculados',
        'móvil',
        'teléfono',
        'número',
      ],
    },
  }),
  ...topic('guia.language', undefined, {
    'pt-BR': {
      title: 'Trocar o idioma',
      content:
        'Use o seletor **Idioma** no topo de qualquer página (na página de entrada, os botões com bandeiras) e ' +
        'escolha Português (Brasil), English ou Español. A interface e as respostas dos agentes passam a usar o ' +
        'idioma escolhido. O português fica em contrateia.com.br e o inglês e o espanhol em hireyourai.com; se ' +
        'o idioma pertence a outro endereço, pedimos confirmação antes de levar você até lá.',
      keywords: [
        'idioma',
        'língua',
        'trocar idioma',
        'mudar idioma',
        'inglês',
        'espanhol',
        'português',
        'tradução',
      ],
    },
    'en-US': {
      title: 'Change the language',
      content:
        'Use the **Language** selector at the top of any page (on the sign-in page, the flag buttons) and choose ' +
        "Português (Brasil), English or Español. The interface and the agents' replies switch to that language. " +
        'Portuguese lives at contrateia.com.br, and English and Spanish at hireyourai.com; if the language ' +
        'belongs to another address, we ask before taking you there.',
      keywords: [
        'language',
        'change language',
        'switch language',
        'english',
        'spanish',
        'portuguese',
        'translate',
      ],
    },
    'es-ES': {
      title: 'Cambiar el idioma',
      content:
        'Usa el selector **Idioma** en la parte superior de cualquier página (en la página de inicio de sesión, ' +
        'los botones con banderas) y elige Português (Brasil), English o Español. La interfaz y las respuestas de ' +
        'los agentes pasan a ese idioma. El portugués está en contrateia.com.br, y el inglés y el español en ' +
        'hireyourai.com; si el idioma pertenece a otra dirección, te pedimos confirmación antes de llevarte allí.',
      keywords: [
        'idioma',
        'lengua',
        'cambiar idioma',
        'inglés',
        'español',
        'portugués',
        'traducción',
      ],
    },
  }),
  ...topic('guia.chat', '/dashboard', {
    'pt-BR': {
      title: 'Conversar com um agente',
      content:
        'Abra a página do agente pelo botão **Conversar** em **Seus agentes contratados**, no Painel (o Guia fica ' +
        'em /guia, o Assistente em /assistente). Escreva a mensagem e pressione **Enter** para enviar; ' +
        '**Shift+Enter** cria uma nova linha. A resposta aparece enquanto é escrita. Mensagens em branco não são ' +
        'enviadas, e a próxima só pode ser enviada quando a resposta terminar. Suas conversas ficam guardadas: ao ' +
        'voltar à página, a conversa continua de onde parou.',
      keywords: [
        'conversar',
        'conversa',
        'chat',
        'mensagem',
        'enviar',
        'enter',
        'nova linha',
        'falar com agente',
        'perguntar',
        'histórico',
      ],
    },
    'en-US': {
      title: 'Chat with an agent',
      content:
        "Open an agent's page with the **Chat** button under **Your Hired Agents** on the Dashboard (the Guide is " +
        'at /guia, the Assistant at /assistente). Type your message and press **Enter** to send; **Shift+Enter** ' +
        'starts a new line. The reply appears as it is written. Blank messages are not sent, and you can send the ' +
        'next one once the reply has finished. Your conversations are kept: come back to the page and it carries ' +
        'on where you left off.',
      keywords: [
        'chat',
        'conversation',
        'message',
        'send',
        'enter',
        'new line',
        'talk to an agent',
        'ask',
        'history',
      ],
    },
    'es-ES': {
      title: 'Chatear con un agente',
      content:
        'Abre la página de un agente con el botón **Chatear** en **Tus agentes contratados**, en el Panel (la Guía ' +
        'está en /guia, el Asistente en /assistente). Escribe tu mensaje y pulsa **Intro** para enviarlo; ' +
        '**Mayús+Intro** crea una línea nueva. La respuesta aparece a medida que se escribe. Los mensajes en ' +
        'blanco no se envían, y puedes enviar el siguiente cuando la respuesta haya terminado. Tus ' +
        'conversaciones se guardan: al volver a la página, continúa donde la dejaste.',
      keywords: [
        'chatear',
        'chat',
        'conversación',
        'mensaje',
        'enviar',
        'intro',
        'enter',
        'nueva línea',
        'hablar con un agente',
        'preguntar',
        'historial',
      ],
    },
  }),
  ...topic('guia.clear', undefined, {
    'pt-BR': {
      title: 'Limpar a conversa',
      content:
        'O botão **Limpar conversa**, no topo de cada página de agente, começa uma conversa nova e mostra de novo ' +
        'a mensagem de boas-vindas. A conversa anterior não é apagada: ela continua guardada na sua conta (no ' +
        'Auxtrat, aparece na lista de outras conversas).',
      keywords: [
        'limpar',
        'limpar conversa',
        'clear chat',
        'apagar',
        'nova conversa',
        'recomeçar',
        'zerar',
      ],
    },
    'en-US': {
      title: 'Clear the chat',
      content:
        'The **Clear Chat** button at the top of each agent page starts a fresh conversation and shows the welcome ' +
        'message again. The previous conversation is not deleted: it stays in your account (on Auxtrat, it ' +
        'appears in the list of other conversations).',
      keywords: [
        'clear',
        'clear chat',
        'delete',
        'erase',
        'new conversation',
        'start over',
        'reset',
      ],
    },
    'es-ES': {
      title: 'Limpiar el chat',
      content:
        'El botón **Limpiar chat**, en la parte superior de cada página de agente, empieza una conversación nueva ' +
        'y vuelve a mostrar el mensaje de bienvenida. La conversación anterior no se borra: sigue guardada en tu ' +
        'cuenta (en Auxtrat, aparece en la lista de otras conversaciones).',
      keywords: [
        'limpiar',
        'limpiar chat',
        'clear chat',
        'borrar',
        'nueva conversación',
        'empezar de nuevo',
        'reiniciar',
      ],
    },
  }),
  ...topic('guia.register', '/register', {
    'pt-BR': {
      title: 'Criar uma conta (cadastro)',
      content:
        'Na página **Criar conta**, preencha nome completo, e-mail, senha (pelo menos 6 caracteres) e a ' +
        'confirmação, e clique em **Enviar código de verificação**. Enviamos um código de 6 dígitos para o seu ' +
        'e-mail: digite-o e clique em **Verificar e criar conta**. Se o código não chegar, veja a caixa de spam; ' +
        'depois de 60 segundos você pode pedir outro em **Reenviar código**. Com a conta criada, entre com seu ' +
        'e-mail e sua senha.',
      keywords: [
        'cadastro',
        'cadastrar',
        'registrar',
        'criar conta',
        'nova conta',
        'código de verificação',
        'verificar e-mail',
        'reenviar código',
        'não recebi o código',
        'otp',
      ],
    },
    'en-US': {
      title: 'Register: create an account',
      content:
        'On the **Create Account** page, fill in your full name, e-mail, password (at least 6 characters) and its ' +
        'confirmation, and click **Send Verification Code**. We e-mail you a 6-digit code: type it and click ' +
        "**Verify & Create Account**. If the code doesn't arrive, check your spam folder; after 60 seconds you can " +
        'ask for another with **Resend code**. Once the account exists, sign in with your e-mail and password.',
      keywords: [
        'register',
        'registration',
        'sign up',
        'create account',
        'new account',
        'verification code',
        'verify email',
        'resend code',
        'code not received',
        'otp',
      ],
    },
    'es-ES': {
      title: 'Registrarse: crear una cuenta',
      content:
        'En la página **Crear cuenta**, rellena tu nombre completo, correo electrónico, contraseña (al menos 6 ' +
        'caracteres) y su confirmación, y haz clic en **Enviar código de verificación**. Te enviamos por correo un ' +
        'código de 6 dígitos: escríbelo y haz clic en **Verificar y crear cuenta**. Si el código no llega, revisa ' +
        'la carpeta de spam; pasados 60 segundos puedes pedir otro con **Reenviar código**. Con la cuenta creada, ' +
        'inicia sesión con tu correo y tu contraseña.',
      keywords: [
        'registro',
        'registrarse',
        'crear cuenta',
        'nueva cuenta',
        'código de verificación',
        'verificar correo',
        'reenviar código',
        'no recibí el código',
        'otp',
      ],
    },
  }),
  ...topic('guia.signin', '/login', {
    'pt-BR': {
      title: 'Entrar na sua conta',
      content:
        'Na página **Entrar**, digite seu usuário ou e-mail e sua senha e clique em **Entrar**: você vai para o ' +
        'Painel. Seu usuário é a parte do e-mail antes do @ (por exemplo, maria). Se a entrada falhar, confira o ' +
        'e-mail e a senha.',
      keywords: [
        'entrar',
        'login',
        'logar',
        'acessar',
        'acesso',
        'senha',
        'usuário',
        'iniciar sessão',
      ],
    },
    'en-US': {
      title: 'Sign in',
      content:
        'On the **Sign In** page, type your username or e-mail and your password and click **Sign In**: you land ' +
        'on the Dashboard. Your username is the part of your e-mail before the @ (for example, maria). If signing ' +
        'in fails, check your e-mail and password.',
      keywords: ['sign in', 'login', 'log in', 'access', 'password', 'username'],
    },
    'es-ES': {
      title: 'Iniciar sesión',
      content:
        'En la página **Iniciar sesión**, escribe tu usuario o correo y tu contraseña y haz clic en **Iniciar ' +
        'sesión**: llegas al Panel. Tu usuario es la parte del correo antes de la @ (por ejemplo, maria). Si no ' +
        'puedes entrar, revisa el correo y la contraseña.',
      keywords: ['iniciar sesión', 'entrar', 'login', 'acceder', 'acceso', 'contraseña', 'usuario'],
    },
  }),
  ...topic('guia.signout', undefined, {
    'pt-BR': {
      title: 'Sair da conta',
      content:
        'Clique em **Sair**, no topo de qualquer página. A sessão termina neste navegador e você volta para a ' +
        'página de entrada.',
      keywords: ['sair', 'saio', 'saída', 'logout', 'deslogar', 'encerrar sessão', 'fazer logout'],
    },
    'en-US': {
      title: 'Sign out',
      content:
        'Click **Logout** at the top of any page. Your session ends in this browser and you return to the ' +
        'sign-in page.',
      keywords: ['sign out', 'log out', 'logout', 'exit', 'leave', 'end session'],
    },
    'es-ES': {
      title: 'Cerrar sesión',
      content:
        'Haz clic en **Cerrar sesión**, en la parte superior de cualquier página. La sesión termina en este ' +
        'navegador y vuelves a la página de inicio de sesión.',
      keywords: ['cerrar sesión', 'salir', 'logout', 'terminar sesión'],
    },
  }),
  ...topic('guia.dashboard', '/dashboard', {
    'pt-BR': {
      title: 'O Painel',
      content:
        'O **Painel** é a página inicial depois de entrar. Mostra seu nome e e-mail, seus números (agentes ' +
        'contratados, conversas e mensagens), **Seus agentes contratados** com o botão **Conversar**, **Agentes ' +
        'disponíveis** com o botão **Contratar** e um chat rápido para falar com um agente sem sair da página.',
      keywords: [
        'painel',
        'dashboard',
        'início',
        'página inicial',
        'estatísticas',
        'números',
        'resumo',
        'chat rápido',
      ],
    },
    'en-US': {
      title: 'The Dashboard',
      content:
        'The **Dashboard** is where you land after signing in. It shows your name and e-mail, your figures (hired ' +
        'agents, conversations and messages), **Your Hired Agents** with a **Chat** button, **Available Agents** ' +
        'with a **Hire** button, and a quick chat panel to talk to an agent without leaving the page.',
      keywords: [
        'dashboard',
        'home',
        'start page',
        'stats',
        'statistics',
        'figures',
        'overview',
        'quick chat',
      ],
    },
    'es-ES': {
      title: 'El Panel',
      content:
        'El **Panel** es la página a la que llegas al iniciar sesión. Muestra tu nombre y correo, tus cifras ' +
        '(agentes contratados, conversaciones y mensajes), **Tus agentes contratados** con el botón **Chatear**, ' +
        '**Agentes disponibles** con el botón **Contratar** y un chat rápido para hablar con un agente sin salir ' +
        'de la página.',
      keywords: [
        'panel',
        'dashboard',
        'inicio',
        'página principal',
        'estadísticas',
        'cifras',
        'resumen',
        'chat rápido',
      ],
    },
  }),
  ...topic('guia.auxtrat', '/auxtrat', {
    'pt-BR': {
      title: 'A página do Auxtrat e o Sincronizar agente',
      content:
        'Em **/auxtrat** você conversa com o especialista em produtos e serviços. A barra lateral **Outras ' +
        'conversas do Auxtrat** lista suas conversas anteriores (Conversa #, os 6 últimos caracteres do código, ' +
        'o número de mensagens e a data); clique numa para abri-la e use **Atualizar** para recarregar a lista. ' +
        'O botão **Sincronizar agente** mostra um QR code que liga a conversa ao WhatsApp: ele vale por 10 ' +
        'minutos, **Gerar novo código** cria outro (e invalida o anterior) e **Fechar** fecha a janela.',
      keywords: [
        'auxtrat',
        'sincronizar',
        'sincronizar agente',
        'sync agent',
        'qr code',
        'outras conversas',
        'conversas anteriores',
        'conversas antigas',
        'gerar novo código',
      ],
    },
    'en-US': {
      title: 'The Auxtrat page and Sync Agent',
      content:
        'At **/auxtrat** you chat with the products and services specialist. The **Other Auxtrat Conversations** ' +
        'sidebar lists your earlier conversations (Conversation #, the last 6 characters of its id, the number of ' +
        'messages and the date); click one to open it, and use **Refresh** to reload the list. The **Sync Agent** ' +
        'button shows a QR code that links the conversation to WhatsApp: it is valid for 10 minutes, **Generate ' +
        'New Code** makes another (and cancels the old one), and **Close** closes the window.',
      keywords: [
        'auxtrat',
        'sync',
        'sync agent',
        'synchronize',
        'qr code',
        'other conversations',
        'past conversations',
        'old conversations',
        'generate new code',
      ],
    },
    'es-ES': {
      title: 'La página de Auxtrat y Sincronizar agente',
      content:
        'En **/auxtrat** chateas con el especialista en productos y servicios. La barra lateral **Otras ' +
        'conversaciones de Auxtrat** lista tus conversaciones anteriores (Conversación #, los 6 últimos ' +
        'caracteres de su código, el número de mensajes y la fecha); haz clic en una para abrirla y usa ' +
        '**Actualizar** para recargar la lista. El botón **Sincronizar agente** muestra un código QR que vincula ' +
        'la conversación con WhatsApp: vale 10 minutos, **Generar nuevo código** crea otro (y anula el anterior) ' +
        'y **Cerrar** cierra la ventana.',
      keywords: [
        'auxtrat',
        'sincronizar',
        'sincronizar agente',
        'sync agent',
        'código qr',
        'otras conversaciones',
        'conversaciones anteriores',
        'conversaciones antiguas',
        'generar nuevo código',
      ],
    },
  }),
  ...topic('guia.agents', '/dashboard', {
    'pt-BR': {
      title: 'Os agentes da ContrateIA',
      content:
        'O **Guia** explica como usar a ContrateIA. O **Assistente** cumprimenta, diz a data e a hora e faz ' +
        'contas. O **Auxtrat** conhece nossos produtos e serviços e seus preços. O **Indirect** cuida de mensagens ' +
        'anônimas. O **Administrador** responde sobre o sistema e só aparece para administradores. Com um modelo ' +
        'de linguagem configurado, todos respondem também a perguntas abertas.',
      keywords: [
        'agentes',
        'quais agentes',
        'agentes que existem',
        'assistente',
        'auxtrat',
        'indirect',
        'administrador',
        'tipos de agente',
        'o que cada agente faz',
      ],
    },
    'en-US': {
      title: "ContrateIA's agents",
      content:
        'The **Guide** explains how to use ContrateIA. The **Assistant** greets you, tells the date and time and ' +
        'does sums. **Auxtrat** knows our products and services and their prices. **Indirect** handles anonymous ' +
        'messages. The **Administrator** answers questions about the system and is offered to administrators only. ' +
        'With a language model configured, they all answer open questions too.',
      keywords: [
        'agents',
        'which agents',
        'agents that exist',
        'assistant',
        'auxtrat',
        'indirect',
        'administrator',
        'kinds of agent',
        'what each agent does',
      ],
    },
    'es-ES': {
      title: 'Los agentes de ContrateIA',
      content:
        'La **Guía** explica cómo usar ContrateIA. El **Asistente** saluda, dice la fecha y la hora y hace ' +
        'cuentas. **Auxtrat** conoce nuestros productos y servicios y sus precios. **Indirect** se ocupa de los ' +
        'mensajes anónimos. El **Administrador** responde sobre el sistema y solo se ofrece a los ' +
        'administradores. Con un modelo de lenguaje configurado, todos responden también a preguntas abiertas.',
      keywords: [
        'agentes',
        'qué agentes',
        'agentes que existen',
        'asistente',
        'auxtrat',
        'indirect',
        'administrador',
        'tipos de agente',
        'qué hace cada agente',
      ],
    },
  }),
  ...topic('guia.whatsappConversations', '/whatsapp-enhanced', {
    'pt-BR': {
      title: 'Conversas do WhatsApp e respostas automáticas',
      content:
        'Com o WhatsApp ligado, a página **WhatsApp** lista suas conversas. Em cada uma, o botão **IA** liga ou ' +
        'desliga as respostas automáticas do agente; desligado (modo manual), só você responde, pela caixa de ' +
        'mensagem. Na versão avançada (**/whatsapp-enhanced**) você também ativa a lista de permitidos, para a ' +
        'IA responder só aos contatos aprovados, e escolhe qual agente atende cada conversa em **Atribuir agente**.',
      keywords: [
        'conversas do whatsapp',
        'resposta automática',
        'ligar ia',
        'desligar ia',
        'modo manual',
        'whitelist',
        'lista de permitidos',
        'atribuir agente',
        'contatos',
      ],
    },
    'en-US': {
      title: 'WhatsApp conversations and automatic replies',
      content:
        'Once WhatsApp is linked, the **WhatsApp** page lists your conversations. In each one, the **AI** button ' +
        "turns the agent's automatic replies on or off; when off (manual mode), only you reply, from the message " +
        'box. The enhanced version (**/whatsapp-enhanced**) also lets you turn on the whitelist, so the AI answers ' +
        'approved contacts only, and choose which agent handles each conversation with **Assign Agent**.',
      keywords: [
        'whatsapp conversations',
        'automatic reply',
        'auto reply',
        'turn ai on',
        'turn ai off',
        'manual mode',
        'whitelist',
        'assign agent',
        'contacts',
      ],
    },
    'es-ES': {
      title: 'Conversaciones de WhatsApp y respuestas automáticas',
      content:
        'Con WhatsApp vinculado, la página **WhatsApp** lista tus conversaciones. En cada una, el botón **IA** ' +
        'activa o desactiva las respuestas automáticas del agente; desactivado (modo manual), solo respondes tú, ' +
        'desde el cuadro de mensaje. La versión avanzada (**/whatsapp-enhanced**) también permite activar la ' +
        'lista de permitidos, para que la IA responda solo a los contactos aprobados, y elegir qué agente atiende ' +
        'cada conversación con **Asignar agente**.',
      keywords: [
        'conversaciones de whatsapp',
        'respuesta automática',
        'activar ia',
        'desactivar ia',
        'modo manual',
        'whitelist',
        'lista de permitidos',
        'asignar agente',
        'contactos',
      ],
    },
  }),
  ...topic('guia.roleMode', '/dashboard', {
    'pt-BR': {
      title: 'Alternar entre modo administrador e modo usuário',
      content:
        'Só para administradores: no topo da página, o seletor **Modo** troca entre **Modo administrador** e ' +
        '**Modo usuário**. No modo usuário você vê a ContrateIA como um usuário comum, e as páginas de ' +
        'administração ficam bloqueadas até você voltar. O selo ao lado do seu nome mostra o modo atual (verde: ' +
        'administrador; azul: usuário).',
      keywords: [
        'modo',
        'modo administrador',
        'modo usuário',
        'trocar modo',
        'alternar modo',
        'perfil',
        'papel',
        'admin',
      ],
    },
    'en-US': {
      title: 'Switch between admin mode and user mode',
      content:
        'For administrators only: at the top of the page, the **Mode** selector switches between **Admin mode** ' +
        'and **User mode**. In user mode you see ContrateIA as an ordinary user, and the admin pages are closed ' +
        'until you switch back. The badge next to your name shows the current mode (green: admin; blue: user).',
      keywords: ['mode', 'admin mode', 'user mode', 'switch mode', 'switch role', 'role', 'admin'],
    },
    'es-ES': {
      title: 'Cambiar entre modo administrador y modo usuario',
      content:
        'Solo para administradores: en la parte superior de la página, el selector **Modo** cambia entre **Modo ' +
        'administrador** y **Modo usuario**. En modo usuario ves ContrateIA como un usuario normal, y las páginas ' +
        'de administración quedan cerradas hasta que vuelvas. La insignia junto a tu nombre muestra el modo ' +
        'actual (verde: administrador; azul: usuario).',
      keywords: [
        'modo',
        'modo administrador',
        'modo usuario',
        'cambiar modo',
        'cambiar rol',
        'rol',
        'admin',
      ],
    },
  }),
  ...topic('guia.admin', '/admin', {
    'pt-BR': {
      title: 'O painel de administração',
      content:
        'Administradores encontram em **/admin** as abas **Conteúdo** (textos das páginas de entrada e cadastro), ' +
        '**Tema** (cores), **Configurações do sistema** (manutenção, cadastro, verificação de e-mail, arquivos, ' +
        'tempo de sessão) e **Agentes** (criar, ativar, desativar, excluir e testar agentes). Há também ' +
        '**Imagens** (/images), **Monitor** (/monitor) e **Logs** (/logs).',
      keywords: [
        'administração',
        'painel de administração',
        'admin',
        'configurações',
        'tema',
        'conteúdo',
        'gerenciar agentes',
        'imagens',
        'monitor',
        'logs',
      ],
    },
    'en-US': {
      title: 'The admin panel',
      content:
        'Administrators find at **/admin** the tabs **Content** (texts of the sign-in and registration pages), ' +
        '**Theme** (colours), **System Settings** (maintenance, registration, e-mail verification, files, session ' +
        'length) and **Agents** (create, activate, deactivate, delete and test agents). There are also **Images** ' +
        '(/images), **Monitor** (/monitor) and **Logs** (/logs).',
      keywords: [
        'admin panel',
        'administration',
        'admin',
        'settings',
        'theme',
        'content',
        'manage agents',
        'images',
        'monitor',
        'logs',
      ],
    },
    'es-ES': {
      title: 'El panel de administración',
      content:
        'Los administradores encuentran en **/admin** las pestañas **Contenido** (textos de las páginas de inicio ' +
        'de sesión y registro), **Tema** (colores), **Ajustes del sistema** (mantenimiento, registro, ' +
        'verificación de correo, archivos, duración de la sesión) y **Agentes** (crear, activar, desactivar, ' +
        'eliminar y probar agentes). También están **Imágenes** (/images), **Monitor** (/monitor) y **Registros** ' +
        '(/logs).',
      keywords: [
        'administración',
        'panel de administración',
        'admin',
        'ajustes',
        'tema',
        'contenido',
        'gestionar agentes',
        'imágenes',
        'monitor',
        'registros',
        'logs',
      ],
    },
  }),
  ...topic('guia.indirect', '/indirect', {
    'pt-BR': {
      title: 'Mensagens anônimas (Indirect)',
      content:
        'O agente **Indirect** (/indirect) vai enviar uma mensagem sua a um número de telefone pelo WhatsApp da ' +
        'plataforma, sem revelar quem enviou; as respostas voltam para o seu chat com ele. O envio chega com a ' +
        'integração do WhatsApp; por enquanto o Indirect explica como vai funcionar.',
      keywords: [
        'indirect',
        'anônimo',
        'anônima',
        'mensagem anônima',
        'anonimato',
        'sem identificação',
      ],
    },
    'en-US': {
      title: 'Anonymous messages (Indirect)',
      content:
        'The **Indirect** agent (/indirect) will send your message to a phone number through the platform’s ' +
        'WhatsApp without revealing who sent it; replies come back to your chat with it. Sending arrives with the ' +
        'WhatsApp integration; for now Indirect explains how it will work.',
      keywords: ['indirect', 'anonymous', 'anonymous message', 'anonymously', 'without my name'],
    },
    'es-ES': {
      title: 'Mensajes anónimos (Indirect)',
      content:
        'El agente **Indirect** (/indirect) enviará tu mensaje a un número de teléfono por el WhatsApp de la ' +
        'plataforma sin revelar quién lo envía; las respuestas vuelven a tu chat con él. El envío llega con la ' +
        'integración de WhatsApp; por ahora Indirect explica cómo funcionará.',
      keywords: [
        'indirect',
        'anónimo',
        'anónima',
        'mensaje anónimo',
        'anonimato',
        'sin identificarme',
      ],
    },
  }),
];

// auxtrat -------------------------------------------------------------------------------------
// A sample catalogue of a small Brazilian business-services company. Prices are in reais in
// every language (the company sells in Brazil), written in each language's number format.

type PriceUnit = 'once' | 'month' | 'employeeMonth';

type CatalogueItem = {
  id: string;
  price: number;
  unit: PriceUnit;
  texts: Record<Language, { name: string; description: string; keywords: string[] }>;
};

const PRICE_WORDS: Record<Language, { label: string; units: Record<PriceUnit, string> }> = {
  'pt-BR': {
    label: 'Preço',
    units: { once: 'pagamento único', month: 'por mês', employeeMonth: 'por funcionário, por mês' },
  },
  'en-US': {
    label: 'Price',
    units: {
      once: 'one-off payment',
      month: 'per month',
      employeeMonth: 'per employee, per month',
    },
  },
  'es-ES': {
    label: 'Precio',
    units: { once: 'pago único', month: 'al mes', employeeMonth: 'por empleado, al mes' },
  },
};

const priceFormat = perLanguage(
  (language) =>
    new Intl.NumberFormat(language, {
      style: 'currency',
      currency: 'BRL',
      currencyDisplay: 'narrowSymbol',
    }),
);

/** "Preço: R$ 1.800,00 por mês." in the entry's language. */
function priceLine(price: number, unit: PriceUnit, language: Language): string {
  const amount = priceFormat(language).format(price);
  const words = PRICE_WORDS[language];
  return `${words.label}: ${amount} (${words.units[unit]}).`;
}

const CATALOGUE: CatalogueItem[] = [
  {
    id: 'consulting',
    price: 1800,
    unit: 'month',
    texts: {
      'pt-BR': {
        name: 'Consultoria de gestão',
        description:
          'Diagnóstico do negócio e plano de ação com um consultor: processos, custos, metas e indicadores, com encontros a cada quinze dias.',
        keywords: ['consultoria', 'consultor', 'gestão', 'processos', 'estratégia', 'planejamento'],
      },
      'en-US': {
        name: 'Management consulting',
        description:
          'A business diagnosis and action plan with a consultant: processes, costs, goals and indicators, with a meeting every two weeks.',
        keywords: ['consulting', 'consultant', 'consultancy', 'management', 'strategy', 'planning'],
      },
      'es-ES': {
        name: 'Consultoría de gestión',
        description:
          'Diagnóstico del negocio y plan de acción con un consultor: procesos, costes, metas e indicadores, con reuniones cada quince días.',
        keywords: [
          'consultoría',
          'consultor',
          'gestión',
          'procesos',
          'estrategia',
          'planificación',
        ],
      },
    },
  },
  {
    id: 'company',
    price: 990,
    unit: 'once',
    texts: {
      'pt-BR': {
        name: 'Abertura de empresa',
        description:
          'Abrimos sua empresa do início ao fim: escolha do tipo (MEI, ME ou LTDA), CNPJ, inscrições e alvará de funcionamento.',
        keywords: ['abrir empresa', 'abertura', 'cnpj', 'ltda', 'me', 'alvará', 'formalizar'],
      },
      'en-US': {
        name: 'Company registration',
        description:
          'We open your company from start to finish: choosing the type (MEI, ME or LTDA), the CNPJ number, registrations and the operating licence.',
        keywords: [
          'open a company',
          'start a business',
          'incorporation',
          'cnpj',
          'ltda',
          'licence',
          'license',
        ],
      },
      'es-ES': {
        name: 'Apertura de empresa',
        description:
          'Abrimos tu empresa de principio a fin: elección del tipo (MEI, ME o LTDA), CNPJ, inscripciones y licencia de apertura.',
        keywords: ['abrir empresa', 'apertura', 'constituir', 'cnpj', 'ltda', 'licencia'],
      },
    },
  },
  {
    id: 'mei',
    price: 119,
    unit: 'month',
    texts: {
      'pt-BR': {
        name: 'Contabilidade para MEI',
        description:
          'Guia DAS todo mês, declaração anual (DASN-SIMEI) e ajuda para emitir notas fiscais.',
        keywords: [
          'contabilidade',
          'contador',
          'mei',
          'das',
          'dasn',
          'nota fiscal',
          'microempreendedor',
        ],
      },
      'en-US': {
        name: 'Bookkeeping for MEI',
        description:
          'The monthly DAS payment slip, the annual return (DASN-SIMEI) and help issuing invoices, for individual micro-entrepreneurs.',
        keywords: [
          'bookkeeping',
          'accounting',
          'accountant',
          'mei',
          'das',
          'invoice',
          'micro-entrepreneur',
        ],
      },
      'es-ES': {
        name: 'Contabilidad para MEI',
        description:
          'La guía DAS cada mes, la declaración anual (DASN-SIMEI) y ayuda para emitir facturas, para microemprendedores.',
        keywords: ['contabilidad', 'contador', 'mei', 'das', 'factura', 'microemprendedor'],
      },
    },
  },
  {
    id: 'payroll',
    price: 45,
    unit: 'employeeMonth',
    texts: {
      'pt-BR': {
        name: 'Folha de pagamento',
        description:
          'Cálculo de salários, férias, 13º, FGTS e INSS, com envio ao eSocial e holerites para a equipe.',
        keywords: [
          'folha',
          'folha de pagamento',
          'salário',
          'holerite',
          'funcionários',
          'esocial',
          'fgts',
          'inss',
          'férias',
        ],
      },
      'en-US': {
        name: 'Payroll',
        description:
          'Salaries, holidays, the 13th salary, FGTS and INSS worked out, with eSocial filings and payslips for your team.',
        keywords: [
          'payroll',
          'salary',
          'salaries',
          'payslip',
          'employees',
          'esocial',
          'fgts',
          'inss',
          'holidays',
        ],
      },
      'es-ES': {
        name: 'Nómina',
        description:
          'Cálculo de salarios, vacaciones, 13.º, FGTS e INSS, con envío al eSocial y recibos de sueldo para el equipo.',
        keywords: [
          'nómina',
          'nominas',
          'salario',
          'recibo de sueldo',
          'empleados',
          'esocial',
          'fgts',
          'inss',
          'vacaciones',
        ],
      },
    },
  },
  {
    id: 'incomeTax',
    price: 250,
    unit: 'once',
    texts: {
      'pt-BR': {
        name: 'Declaração de Imposto de Renda (IRPF)',
        description:
          'Preparamos e enviamos sua declaração de pessoa física, revisando deduções e acompanhando a restituição.',
        keywords: [
          'imposto de renda',
          'irpf',
          'declaração',
          'restituição',
          'leão',
          'receita federal',
        ],
      },
      'en-US': {
        name: 'Personal income tax return (IRPF)',
        description:
          'We prepare and file your personal income tax return, review your deductions and follow up on any refund.',
        keywords: ['income tax', 'tax return', 'irpf', 'taxes', 'refund', 'receita federal'],
      },
      'es-ES': {
        name: 'Declaración de la renta (IRPF)',
        description:
          'Preparamos y presentamos tu declaración de la renta de persona física, revisando deducciones y siguiendo la devolución.',
        keywords: [
          'declaración de la renta',
          'impuesto sobre la renta',
          'irpf',
          'impuestos',
          'devolución',
          'receita federal',
        ],
      },
    },
  },
  {
    id: 'certificate',
    price: 220,
    unit: 'once',
    texts: {
      'pt-BR': {
        name: 'Certificado digital e-CNPJ A1',
        description:
          'Emissão com validação por videoconferência, válido por 12 meses, para emitir notas e acessar os sistemas do governo.',
        keywords: [
          'certificado',
          'certificado digital',
          'e-cnpj',
          'a1',
          'assinatura digital',
          'token',
        ],
      },
      'en-US': {
        name: 'e-CNPJ A1 digital certificate',
        description:
          "Issued with identity validation by video call, valid for 12 months, to issue invoices and use the government's systems.",
        keywords: [
          'certificate',
          'digital certificate',
          'e-cnpj',
          'a1',
          'digital signature',
          'token',
        ],
      },
      'es-ES': {
        name: 'Certificado digital e-CNPJ A1',
        description:
          'Emisión con validación por videollamada, válido durante 12 meses, para emitir facturas y acceder a los sistemas del gobierno.',
        keywords: ['certificado', 'certificado digital', 'e-cnpj', 'a1', 'firma digital', 'token'],
      },
    },
  },
  {
    id: 'website',
    price: 2400,
    unit: 'once',
    texts: {
      'pt-BR': {
        name: 'Site institucional',
        description:
          'Site de até 5 páginas, que se adapta ao celular, com formulário de contato, botão de WhatsApp e domínio configurado.',
        keywords: [
          'site',
          'website',
          'página na internet',
          'landing page',
          'domínio',
          'criação de site',
        ],
      },
      'en-US': {
        name: 'Business website',
        description:
          'A website of up to 5 pages that works on phones, with a contact form, a WhatsApp button and your domain set up.',
        keywords: ['website', 'site', 'web page', 'landing page', 'domain', 'web design'],
      },
      'es-ES': {
        name: 'Sitio web corporativo',
        description:
          'Un sitio de hasta 5 páginas adaptado al móvil, con formulario de contacto, botón de WhatsApp y dominio configurado.',
        keywords: ['sitio web', 'página web', 'web', 'landing page', 'dominio', 'diseño web'],
      },
    },
  },
  {
    id: 'social',
    price: 1200,
    unit: 'month',
    texts: {
      'pt-BR': {
        name: 'Gestão de redes sociais',
        description:
          '12 publicações por mês no Instagram e no Facebook, com artes, textos e um relatório mensal de resultados.',
        keywords: [
          'redes sociais',
          'instagram',
          'facebook',
          'social media',
          'posts',
          'marketing digital',
        ],
      },
      'en-US': {
        name: 'Social media management',
        description:
          '12 posts a month on Instagram and Facebook, with artwork, captions and a monthly results report.',
        keywords: ['social media', 'instagram', 'facebook', 'posts', 'digital marketing'],
      },
      'es-ES': {
        name: 'Gestión de redes sociales',
        description:
          '12 publicaciones al mes en Instagram y Facebook, con diseños, textos y un informe mensual de resultados.',
        keywords: [
          'redes sociales',
          'instagram',
          'facebook',
          'social media',
          'publicaciones',
          'marketing digital',
        ],
      },
    },
  },
  {
    id: 'trademark',
    price: 1350,
    unit: 'once',
    texts: {
      'pt-BR': {
        name: 'Registro de marca no INPI',
        description:
          'Pesquisa de viabilidade, pedido de registro e acompanhamento do processo até a concessão. As taxas do INPI são pagas à parte.',
        keywords: ['marca', 'registro de marca', 'inpi', 'patente', 'logotipo', 'proteger marca'],
      },
      'en-US': {
        name: 'Trademark registration (INPI)',
        description:
          "Availability search, the registration filing and follow-up until the mark is granted. INPI's own fees are paid separately.",
        keywords: ['trademark', 'brand', 'register a brand', 'inpi', 'logo', 'protect my brand'],
      },
      'es-ES': {
        name: 'Registro de marca en el INPI',
        description:
          'Búsqueda de viabilidad, solicitud de registro y seguimiento del proceso hasta la concesión. Las tasas del INPI se pagan aparte.',
        keywords: ['marca', 'registro de marca', 'inpi', 'patente', 'logotipo', 'proteger marca'],
      },
    },
  },
  {
    id: 'whatsappBot',
    price: 1900,
    unit: 'once',
    texts: {
      'pt-BR': {
        name: 'Atendimento automático no WhatsApp',
        description:
          'Implantação de um agente de IA que responde seus clientes no WhatsApp, treinado com as informações do seu negócio, com 30 dias de ajustes.',
        keywords: [
          'whatsapp',
          'atendimento',
          'chatbot',
          'robô',
          'bot',
          'atendimento automático',
          'ia',
        ],
      },
      'en-US': {
        name: 'Automated WhatsApp customer service',
        description:
          'Setting up an AI agent that answers your customers on WhatsApp, trained on your business information, with 30 days of fine-tuning.',
        keywords: ['whatsapp', 'customer service', 'chatbot', 'bot', 'automation', 'ai'],
      },
      'es-ES': {
        name: 'Atención automática por WhatsApp',
        description:
          'Implantación de un agente de IA que responde a tus clientes por WhatsApp, entrenado con la información de tu negocio, con 30 días de ajustes.',
        keywords: ['whatsapp', 'atención al cliente', 'chatbot', 'bot', 'automatización', 'ia'],
      },
    },
  },
];

const AUXTRAT_KNOWLEDGE: KnowledgeEntry[] = CATALOGUE.flatMap((item) =>
  (Object.keys(item.texts) as Language[]).map((language) => {
    const text = item.texts[language];
    return {
      id: `auxtrat.${item.id}.${language}`,
      language,
      title: text.name,
      content: `${text.description}\n\n${priceLine(item.price, item.unit, language)}`,
      keywords: text.keywords,
    };
  }),
);

// administrador -------------------------------------------------------------------------------
// Live figures come from the engine's facts; these entries say where admins find things.

const ADMINISTRADOR_KNOWLEDGE: KnowledgeEntry[] = [
  ...topic('administrador.panel', '/admin', {
    'pt-BR': {
      title: 'O painel de administração',
      content:
        'Em **/admin** ficam as abas **Conteúdo** (títulos e textos das páginas de entrada e cadastro), **Tema** ' +
        '(cores, aplicadas na hora), **Configurações do sistema** e **Agentes**.',
      keywords: [
        'painel de administração',
        'admin',
        'administração',
        'conteúdo',
        'tema',
        'cores',
        'textos',
      ],
    },
    'en-US': {
      title: 'The admin panel',
      content:
        '**/admin** holds the tabs **Content** (titles and texts of the sign-in and registration pages), **Theme** ' +
        '(colours, applied at once), **System Settings** and **Agents**.',
      keywords: [
        'admin panel',
        'admin',
        'administration',
        'content',
        'theme',
        'colours',
        'colors',
        'texts',
      ],
    },
    'es-ES': {
      title: 'El panel de administración',
      content:
        'En **/admin** están las pestañas **Contenido** (títulos y textos de las páginas de inicio de sesión y ' +
        'registro), **Tema** (colores, aplicados al instante), **Ajustes del sistema** y **Agentes**.',
      keywords: [
        'panel de administración',
        'admin',
        'administración',
        'contenido',
        'tema',
        'colores',
        'textos',
      ],
    },
  }),
  ...topic('administrador.agents', '/admin', {
    'pt-BR': {
      title: 'Gerenciar agentes',
      content:
        'Na aba **Agentes** de /admin você cria agentes (nome, nome de exibição, descrição, instruções, mensagem ' +
        'de boas-vindas, modelo e conhecimento), ativa ou desativa, exclui e testa cada um num chat de teste. ' +
        'Ali também se criam usuários de um agente só, que usam apenas o agente escolhido.',
      keywords: [
        'agentes',
        'criar agente',
        'desativar agente',
        'ativar agente',
        'excluir agente',
        'testar agente',
        'usuário de um agente só',
        'conhecimento',
      ],
    },
    'en-US': {
      title: 'Manage agents',
      content:
        'In the **Agents** tab of /admin you create agents (name, display name, description, instructions, ' +
        'welcome message, model and knowledge), activate or deactivate them, delete them and try each one in a ' +
        'test chat. Single-agent users, who can use only the agent chosen for them, are created there too.',
      keywords: [
        'agents',
        'create agent',
        'deactivate agent',
        'activate agent',
        'delete agent',
        'test agent',
        'single-agent user',
        'knowledge',
      ],
    },
    'es-ES': {
      title: 'Gestionar agentes',
      content:
        'En la pestaña **Agentes** de /admin creas agentes (nombre, nombre visible, descripción, instrucciones, ' +
        'mensaje de bienvenida, modelo y conocimiento), los activas o desactivas, los eliminas y pruebas cada uno ' +
        'en un chat de prueba. Allí también se crean usuarios de un solo agente, que solo usan el agente elegido.',
      keywords: [
        'agentes',
        'crear agente',
        'desactivar agente',
        'activar agente',
        'eliminar agente',
        'probar agente',
        'usuario de un solo agente',
        'conocimiento',
      ],
    },
  }),
  ...topic('administrador.settings', '/admin', {
    'pt-BR': {
      title: 'Configurações do sistema',
      content:
        'Na aba **Configurações do sistema** de /admin: modo de manutenção (só administradores entram), cadastro ' +
        'aberto ou fechado, verificação de e-mail no cadastro, tamanho máximo e tipos de arquivo aceitos e o ' +
        'tempo da sessão. O servidor aplica cada uma na hora.',
      keywords: [
        'configurações',
        'manutenção',
        'modo de manutenção',
        'cadastro',
        'verificação de e-mail',
        'tamanho de arquivo',
        'sessão',
        'tempo de sessão',
      ],
    },
    'en-US': {
      title: 'System settings',
      content:
        'In the **System Settings** tab of /admin: maintenance mode (only admins get in), registration open or ' +
        'closed, e-mail verification at registration, the largest file size and accepted file types, and the ' +
        'session length. The server enforces each one at once.',
      keywords: [
        'settings',
        'maintenance',
        'maintenance mode',
        'registration',
        'email verification',
        'file size',
        'session',
        'session timeout',
      ],
    },
    'es-ES': {
      title: 'Ajustes del sistema',
      content:
        'En la pestaña **Ajustes del sistema** de /admin: modo de mantenimiento (solo entran administradores), ' +
        'registro abierto o cerrado, verificación de correo en el registro, tamaño máximo y tipos de archivo ' +
        'aceptados y duración de la sesión. El servidor aplica cada uno al instante.',
      keywords: [
        'ajustes',
        'mantenimiento',
        'modo de mantenimiento',
        'registro',
        'verificación de correo',
        'tamaño de archivo',
        'sesión',
        'duración de la sesión',
      ],
    },
  }),
  ...topic('administrador.logs', '/logs', {
    'pt-BR': {
      title: 'Logs do sistema',
      content:
        'Em **/logs** ficam os registros do servidor (data e hora, nível e mensagem), com busca por nível, período e texto.',
      keywords: ['logs', 'registros', 'erros', 'log do servidor', 'auditoria'],
    },
    'en-US': {
      title: 'System logs',
      content:
        '**/logs** lists the server records (time, level and message), searchable by level, date range and text.',
      keywords: ['logs', 'log', 'records', 'errors', 'server log', 'audit'],
    },
    'es-ES': {
      title: 'Registros del sistema',
      content:
        'En **/logs** están los registros del servidor (fecha y hora, nivel y mensaje), con búsqueda por nivel, periodo y texto.',
      keywords: ['registros', 'logs', 'errores', 'registro del servidor', 'auditoría'],
    },
  }),
  ...topic('administrador.monitor', '/monitor', {
    'pt-BR': {
      title: 'Monitor do sistema',
      content:
        'Em **/monitor** você vê o estado do sistema, cada serviço (banco de dados, Redis, e-mail, provedor de IA, ' +
        'WhatsApp) com status e tempo no ar, e o uso de CPU, memória, disco e rede, atualizados no intervalo que escolher.',
      keywords: ['monitor', 'desempenho', 'cpu', 'memória', 'disco', 'rede', 'serviços', 'uptime'],
    },
    'en-US': {
      title: 'System monitor',
      content:
        '**/monitor** shows the system status, each service (database, Redis, mail, AI provider, WhatsApp) with its ' +
        'status and uptime, and CPU, memory, disk and network use, refreshed at the interval you choose.',
      keywords: [
        'monitor',
        'performance',
        'cpu',
        'memory',
        'disk',
        'network',
        'services',
        'uptime',
      ],
    },
    'es-ES': {
      title: 'Monitor del sistema',
      content:
        'En **/monitor** ves el estado del sistema, cada servicio (base de datos, Redis, correo, proveedor de IA, ' +
        'WhatsApp) con su estado y tiempo activo, y el uso de CPU, memoria, disco y red, actualizados en el intervalo que elijas.',
      keywords: ['monitor', 'rendimiento', 'cpu', 'memoria', 'disco', 'red', 'servicios', 'uptime'],
    },
  }),
  ...topic('administrador.images', '/images', {
    'pt-BR': {
      title: 'Gerenciar imagens',
      content:
        'Em **/images** você envia imagens, filtra por categoria e visibilidade, copia o endereço, edita título e texto alternativo e exclui.',
      keywords: ['imagens', 'enviar imagem', 'upload', 'fotos', 'galeria'],
    },
    'en-US': {
      title: 'Manage images',
      content:
        'At **/images** you upload images, filter by category and visibility, copy their address, edit the title and alt text, and delete them.',
      keywords: ['images', 'upload image', 'upload', 'pictures', 'photos', 'gallery'],
    },
    'es-ES': {
      title: 'Gestionar imágenes',
      content:
        'En **/images** subes imágenes, filtras por categoría y visibilidad, copias su dirección, editas el título y el texto alternativo y las eliminas.',
      keywords: ['imágenes', 'subir imagen', 'upload', 'fotos', 'galería'],
    },
  }),
  ...topic('administrador.model', undefined, {
    'pt-BR': {
      title: 'Configurar um modelo de linguagem',
      content:
        'Sem configuração, os agentes usam o motor embutido, que funciona offline. Para usar um modelo de ' +
        'linguagem, inicie o servidor com `AI_PROVIDER=openai`, `AI_BASE_URL` (qualquer API compatível com a da ' +
        'OpenAI: OpenAI, Ollama, vLLM, llama.cpp), `AI_API_KEY` e `AI_MODEL`; `AI_TIMEOUT_MS` limita a espera ' +
        '(padrão 60000). Cada agente pode ter o próprio modelo na configuração dele.',
      keywords: [
        'modelo de linguagem',
        'ia',
        'openai',
        'llm',
        'ollama',
        'chatgpt',
        'ai_provider',
        'configurar ia',
        'chave da api',
      ],
    },
    'en-US': {
      title: 'Set up a language model',
      content:
        'Out of the box the agents use the built-in engine, which works offline. To use a language model, start ' +
        'the server with `AI_PROVIDER=openai`, `AI_BASE_URL` (any OpenAI-compatible API: OpenAI, Ollama, vLLM, ' +
        'llama.cpp), `AI_API_KEY` and `AI_MODEL`; `AI_TIMEOUT_MS` bounds the wait (default 60000). Each agent can ' +
        'have its own model in its configuration.',
      keywords: [
        'language model',
        'ai',
        'openai',
        'llm',
        'ollama',
        'chatgpt',
        'ai_provider',
        'configure ai',
        'api key',
      ],
    },
    'es-ES': {
      title: 'Configurar un modelo de lenguaje',
      content:
        'Sin configuración, los agentes usan el motor integrado, que funciona sin conexión. Para usar un modelo ' +
        'de lenguaje, inicia el servidor con `AI_PROVIDER=openai`, `AI_BASE_URL` (cualquier API compatible con la ' +
        'de OpenAI: OpenAI, Ollama, vLLM, llama.cpp), `AI_API_KEY` y `AI_MODEL`; `AI_TIMEOUT_MS` limita la espera ' +
        '(60000 por defecto). Cada agente puede tener su propio modelo en su configuración.',
      keywords: [
        'modelo de lenguaje',
        'ia',
        'openai',
        'llm',
        'ollama',
        'chatgpt',
        'ai_provider',
        'configurar ia',
        'clave de api',
      ],
    },
  }),
  ...topic('administrador.mail', undefined, {
    'pt-BR': {
      title: 'Configurar o envio de e-mail',
      content:
        'Os códigos de verificação saem por SMTP quando o servidor tem `SMTP_URL` (por exemplo ' +
        'smtp://usuario:senha@servidor:587) e `MAIL_FROM`. Sem `SMTP_URL`, os códigos são escritos no log do servidor.',
      keywords: [
        'e-mail',
        'smtp',
        'envio de e-mail',
        'smtp_url',
        'mail_from',
        'códigos de verificação',
      ],
    },
    'en-US': {
      title: 'Set up outgoing mail',
      content:
        'Verification codes go out over SMTP when the server has `SMTP_URL` (for example ' +
        'smtp://user:pass@host:587) and `MAIL_FROM`. Without `SMTP_URL`, the codes are written to the server log.',
      keywords: [
        'email',
        'mail',
        'smtp',
        'outgoing mail',
        'smtp_url',
        'mail_from',
        'verification codes',
      ],
    },
    'es-ES': {
      title: 'Configurar el envío de correo',
      content:
        'Los códigos de verificación salen por SMTP cuando el servidor tiene `SMTP_URL` (por ejemplo ' +
        'smtp://usuario:clave@servidor:587) y `MAIL_FROM`. Sin `SMTP_URL`, los códigos se escriben en el registro del servidor.',
      keywords: [
        'correo',
        'email',
        'smtp',
        'envío de correo',
        'smtp_url',
        'mail_from',
        'códigos de verificación',
      ],
    },
  }),
  ...topic('administrador.newAdmin', '/admin', {
    'pt-BR': {
      title: 'Criar outro administrador',
      content:
        'A primeira conta criada num banco vazio vira administradora. Outros administradores são criados pelo ' +
        'painel de administração ou no servidor com `npm run user:create -- --admin`.',
      keywords: [
        'novo administrador',
        'criar administrador',
        'tornar administrador',
        'permissão de administrador',
        'admin',
      ],
    },
    'en-US': {
      title: 'Create another administrator',
      content:
        'The first account registered on an empty database becomes an administrator. Further administrators are ' +
        'created from the admin panel or on the server with `npm run user:create -- --admin`.',
      keywords: [
        'new administrator',
        'create administrator',
        'make admin',
        'admin rights',
        'admin',
      ],
    },
    'es-ES': {
      title: 'Crear otro administrador',
      content:
        'La primera cuenta registrada en una base de datos vacía pasa a ser administradora. Los demás ' +
        'administradores se crean desde el panel de administración o en el servidor con `npm run user:create -- --admin`.',
      keywords: [
        'nuevo administrador',
        'crear administrador',
        'hacer administrador',
        'permisos de administrador',
        'admin',
      ],
    },
  }),
];

// assistente and indirect: a few entries about themselves ------------------------------------

const ASSISTENTE_KNOWLEDGE: KnowledgeEntry[] = [
  ...topic('assistente.abilities', undefined, {
    'pt-BR': {
      title: 'O que o Assistente faz',
      content:
        'Sem um modelo de linguagem, eu cumprimento, digo a data e a hora (horário de Brasília) e faço contas com ' +
        '+, −, ×, ÷ e parênteses, como 2 + 3 × (4 − 1). Quando um administrador configurar um modelo de ' +
        'linguagem, passo a responder perguntas abertas, ajudar a escrever textos e muito mais.',
      keywords: [
        'assistente',
        'o que você faz',
        'capacidades',
        'funções',
        'recursos',
        'contas',
        'calcular',
        'data',
        'hora',
      ],
    },
    'en-US': {
      title: 'What the Assistant does',
      content:
        'Without a language model, I greet you, tell the date and time (UTC) and do sums with +, −, ×, ÷ and ' +
        'brackets, like 2 + 3 × (4 − 1). Once an administrator sets up a language model, I can answer open ' +
        'questions, help you write and much more.',
      keywords: [
        'assistant',
        'what you do',
        'abilities',
        'features',
        'capabilities',
        'sums',
        'calculate',
        'date',
        'time',
      ],
    },
    'es-ES': {
      title: 'Qué hace el Asistente',
      content:
        'Sin un modelo de lenguaje, saludo, digo la fecha y la hora (hora de Madrid) y hago cuentas con +, −, ×, ÷ ' +
        'y paréntesis, como 2 + 3 × (4 − 1). Cuando un administrador configure un modelo de lenguaje, podré ' +
        'responder preguntas abiertas, ayudarte a escribir y mucho más.',
      keywords: [
        'asistente',
        'qué haces',
        'capacidades',
        'funciones',
        'cuentas',
        'calcular',
        'fecha',
        'hora',
      ],
    },
  }),
  ...topic('assistente.model', undefined, {
    'pt-BR': {
      title: 'Por que minhas respostas são limitadas',
      content:
        'Agora eu funciono com o motor embutido da ContrateIA, que roda sem internet e sem um modelo de ' +
        'linguagem: ele é rápido e previsível, mas não entende perguntas abertas. Um administrador pode ligar um ' +
        'modelo (OpenAI, Ollama ou outro compatível) e aí eu respondo de verdade.',
      keywords: [
        'limitado',
        'modelo de linguagem',
        'inteligência artificial',
        'chatgpt',
        'openai',
        'por que não responde',
        'motor embutido',
      ],
    },
    'en-US': {
      title: 'Why my answers are limited',
      content:
        "Right now I run on ContrateIA's built-in engine, which works without the internet and without a language " +
        "model: it is fast and predictable, but it doesn't understand open questions. An administrator can switch " +
        'on a model (OpenAI, Ollama or another compatible one), and then I answer properly.',
      keywords: [
        'limited',
        'language model',
        'artificial intelligence',
        'chatgpt',
        'openai',
        'why no answer',
        'built-in engine',
      ],
    },
    'es-ES': {
      title: 'Por qué mis respuestas son limitadas',
      content:
        'Ahora funciono con el motor integrado de ContrateIA, que va sin internet y sin un modelo de lenguaje: es ' +
        'rápido y predecible, pero no entiende preguntas abiertas. Un administrador puede activar un modelo ' +
        '(OpenAI, Ollama u otro compatible) y entonces respondo de verdad.',
      keywords: [
        'limitado',
        'modelo de lenguaje',
        'inteligencia artificial',
        'chatgpt',
        'openai',
        'por qué no responde',
        'motor integrado',
      ],
    },
  }),
  ...topic('assistente.history', undefined, {
    'pt-BR': {
      title: 'Suas conversas comigo',
      content:
        'Nossas conversas ficam guardadas na sua conta e só você as vê. **Limpar conversa** começa uma nova; a ' +
        'anterior continua guardada.',
      keywords: [
        'histórico',
        'conversas',
        'privacidade',
        'guardar',
        'apagar conversa',
        'limpar conversa',
      ],
    },
    'en-US': {
      title: 'Your conversations with me',
      content:
        'Our conversations are kept in your account and only you see them. **Clear Chat** starts a new one; the ' +
        'previous one stays saved.',
      keywords: [
        'history',
        'conversations',
        'privacy',
        'saved',
        'delete conversation',
        'clear chat',
      ],
    },
    'es-ES': {
      title: 'Tus conversaciones conmigo',
      content:
        'Nuestras conversaciones se guardan en tu cuenta y solo tú las ves. **Limpiar chat** empieza una nueva; ' +
        'la anterior sigue guardada.',
      keywords: [
        'historial',
        'conversaciones',
        'privacidad',
        'guardar',
        'borrar conversación',
        'limpiar chat',
      ],
    },
  }),
];

const INDIRECT_KNOWLEDGE: KnowledgeEntry[] = [
  ...topic('indirect.how', undefined, {
    'pt-BR': {
      title: 'Como funcionam as mensagens anônimas',
      content:
        'Você me diz o número de telefone do destinatário e a mensagem; eu entrego pelo WhatsApp da plataforma, ' +
        'sem revelar quem enviou. Quando o destinatário responder, a resposta aparece aqui, neste chat.',
      keywords: [
        'anônimo',
        'anônima',
        'mensagem anônima',
        'enviar mensagem',
        'como funciona',
        'destinatário',
        'resposta',
      ],
    },
    'en-US': {
      title: 'How anonymous messages work',
      content:
        "You give me the recipient's phone number and the message; I deliver it through the platform's WhatsApp " +
        'without revealing who sent it. When the recipient replies, the reply shows up here, in this chat.',
      keywords: [
        'anonymous',
        'anonymous message',
        'send a message',
        'how it works',
        'recipient',
        'reply',
      ],
    },
    'es-ES': {
      title: 'Cómo funcionan los mensajes anónimos',
      content:
        'Me dices el número de teléfono del destinatario y el mensaje; lo entrego por el WhatsApp de la ' +
        'plataforma sin revelar quién lo envía. Cuando el destinatario responda, la respuesta aparece aquí, en este chat.',
      keywords: [
        'anónimo',
        'anónima',
        'mensaje anónimo',
        'enviar mensaje',
        'cómo funciona',
        'destinatario',
        'respuesta',
      ],
    },
  }),
  ...topic('indirect.availability', undefined, {
    'pt-BR': {
      title: 'Quando o envio estará disponível',
      content:
        'O envio anônimo chega com a integração do WhatsApp da ContrateIA. Até lá nenhuma mensagem é enviada: eu ' +
        'só explico como vai funcionar.',
      keywords: ['disponível', 'quando', 'envio', 'entregar', 'ainda não', 'em breve', 'whatsapp'],
    },
    'en-US': {
      title: 'When sending will be available',
      content:
        "Anonymous sending arrives with ContrateIA's WhatsApp integration. Until then no message is sent: I only " +
        'explain how it will work.',
      keywords: [
        'available',
        'availability',
        'when',
        'sending',
        'deliver',
        'not yet',
        'soon',
        'whatsapp',
      ],
    },
    'es-ES': {
      title: 'Cuándo estará disponible el envío',
      content:
        'El envío anónimo llega con la integración de WhatsApp de ContrateIA. Hasta entonces no se envía ningún ' +
        'mensaje: solo explico cómo funcionará.',
      keywords: ['disponible', 'cuándo', 'envío', 'entregar', 'todavía no', 'pronto', 'whatsapp'],
    },
  }),
  ...topic('indirect.privacy', undefined, {
    'pt-BR': {
      title: 'Privacidade e o pedido STOP',
      content:
        'O destinatário não vê seu nome nem seu número. Ele pode responder **STOP** a qualquer momento para ' +
        'nunca mais receber mensagens por aqui. Use com respeito: assédio, ameaças e spam não são permitidos.',
      keywords: [
        'privacidade',
        'sigilo',
        'identidade',
        'stop',
        'parar',
        'bloquear',
        'assédio',
        'spam',
      ],
    },
    'en-US': {
      title: 'Privacy and the STOP request',
      content:
        'The recipient sees neither your name nor your number. They can answer **STOP** at any time never to be ' +
        'messaged from here again. Use it with respect: harassment, threats and spam are not allowed.',
      keywords: [
        'privacy',
        'secret',
        'identity',
        'stop',
        'block',
        'unsubscribe',
        'harassment',
        'spam',
      ],
    },
    'es-ES': {
      title: 'Privacidad y la petición STOP',
      content:
        'El destinatario no ve tu nombre ni tu número. Puede responder **STOP** en cualquier momento para no ' +
        'volver a recibir mensajes desde aquí. Úsalo con respeto: no se permiten acoso, amenazas ni spam.',
      keywords: [
        'privacidad',
        'secreto',
        'identidad',
        'stop',
        'parar',
        'bloquear',
        'acoso',
        'spam',
      ],
    },
  }),
];

// The agents ----------------------------------------------------------------------------------

export const SEEDED_AGENTS: SeededAgent[] = [
  {
    name: 'guia',
    displayName: { 'pt-BR': 'Guia', 'en-US': 'Guide', 'es-ES': 'Guía' },
    description: {
      'pt-BR': 'Mostra o caminho na ContrateIA: cada página e como fazer cada tarefa.',
      'en-US': 'Shows you around ContrateIA: every page and how to do each task.',
      'es-ES': 'Te orienta en ContrateIA: cada página y cómo hacer cada tarea.',
    },
    adminOnly: false,
    configuration: {
      instructions:
        'You are Guia, the guide of ContrateIA. ' +
        BRIEF +
        'Your job is to explain how to use the product: registering with an e-mail code, signing in and out, the ' +
        'dashboard, hiring agents, chatting and Clear Chat, the auxtrat page and its Sync Agent QR code, ' +
        'connecting WhatsApp, switching language and, for admins, the role mode switch and the admin panel. Answer ' +
        'from the reference knowledge; when a page is involved, link to its path with a Markdown link such as ' +
        '[/whatsapp](/whatsapp). If the product does not do something, say so; never invent pages or features. ' +
        CONCISE,
      welcomeMessage: {
        'pt-BR':
          'Olá! Eu sou o Guia. Pergunte como fazer qualquer coisa na ContrateIA: contratar agentes, conectar o WhatsApp, trocar o idioma…',
        'en-US':
          "Hello! I'm the Guide. Ask me how to do anything in ContrateIA: hire agents, connect WhatsApp, change the language…",
        'es-ES':
          '¡Hola! Soy la Guía. Pregúntame cómo hacer cualquier cosa en ContrateIA: contratar agentes, conectar WhatsApp, cambiar el idioma…',
      },
      model: MODEL,
      knowledge: GUIA_KNOWLEDGE,
    },
  },
  {
    name: 'assistente',
    displayName: { 'pt-BR': 'Assistente', 'en-US': 'Assistant', 'es-ES': 'Asistente' },
    description: {
      'pt-BR': 'Assistente geral: tira dúvidas, faz contas e ajuda no dia a dia.',
      'en-US': 'A general assistant: answers questions, does sums and helps with everyday tasks.',
      'es-ES': 'Un asistente general: resuelve dudas, hace cuentas y ayuda en el día a día.',
    },
    adminOnly: false,
    configuration: {
      instructions:
        'You are Assistente, the general-purpose assistant of ContrateIA. ' +
        BRIEF +
        'Help the user with questions, writing, calculations and everyday tasks. Be accurate: when you are not ' +
        'sure, say so rather than guess, and do not claim to have done anything outside this chat. ' +
        CONCISE,
      welcomeMessage: {
        'pt-BR': 'Olá! Eu sou o Assistente. Em que posso ajudar hoje?',
        'en-US': "Hello! I'm the Assistant. How can I help you today?",
        'es-ES': '¡Hola! Soy el Asistente. ¿En qué puedo ayudarte hoy?',
      },
      model: MODEL,
      knowledge: ASSISTENTE_KNOWLEDGE,
    },
  },
  {
    name: 'auxtrat',
    displayName: { 'pt-BR': 'Auxtrat', 'en-US': 'Auxtrat', 'es-ES': 'Auxtrat' },
    description: {
      'pt-BR':
        'Especialista em produtos e serviços: o que oferecemos, o que inclui e quanto custa.',
      'en-US':
        'Products and services specialist: what we offer, what it includes and what it costs.',
      'es-ES': 'Especialista en productos y servicios: qué ofrecemos, qué incluye y cuánto cuesta.',
    },
    adminOnly: false,
    configuration: {
      instructions:
        'You are Auxtrat, the products and services specialist of a small Brazilian business-services company, ' +
        'working inside ContrateIA. ' +
        BRIEF +
        'Answer questions about the catalogue in the reference knowledge: what each product or service is, what ' +
        'it includes and its price in Brazilian reais (BRL). Quote prices exactly as listed. Never invent ' +
        'products, prices, discounts or deadlines; for anything not in the catalogue, say so and suggest the ' +
        'closest item. ' +
        CONCISE,
      welcomeMessage: {
        'pt-BR':
          'Olá! Eu sou o Auxtrat. Pergunte sobre nossos produtos e serviços: o que inclui cada um e quanto custa.',
        'en-US':
          "Hello! I'm Auxtrat. Ask me about our products and services: what each one includes and what it costs.",
        'es-ES':
          '¡Hola! Soy Auxtrat. Pregúntame por nuestros productos y servicios: qué incluye cada uno y cuánto cuesta.',
      },
      model: MODEL,
      knowledge: AUXTRAT_KNOWLEDGE,
    },
  },
  {
    name: 'administrador',
    displayName: { 'pt-BR': 'Administrador', 'en-US': 'Administrator', 'es-ES': 'Administrador' },
    description: {
      'pt-BR':
        'Para administradores: números do sistema ao vivo e onde encontrar cada configuração.',
      'en-US': 'For administrators: live system figures and where to find each setting.',
      'es-ES': 'Para administradores: cifras del sistema en vivo y dónde encontrar cada ajuste.',
    },
    adminOnly: true,
    configuration: {
      instructions:
        'You are Administrador, the system administration assistant of ContrateIA, and you speak only to ' +
        'administrators. ' +
        BRIEF +
        'Answer questions about the system from the live figures given to you (users, conversations and messages ' +
        'today, database and mail status) and explain where admins find things: the admin panel (/admin), logs ' +
        '(/logs), the monitor (/monitor), images (/images) and the server configuration variables. Use only the ' +
        'figures given; never guess a number. Never reveal secrets such as passwords, tokens or API keys. ' +
        CONCISE,
      welcomeMessage: {
        'pt-BR':
          'Olá! Eu sou o Administrador. Pergunte, por exemplo, quantos usuários há, quantas conversas houve hoje ou como está o banco de dados.',
        'en-US':
          "Hello! I'm the Administrator. Ask me, for example, how many users there are, how many conversations there were today or how the database is doing.",
        'es-ES':
          '¡Hola! Soy el Administrador. Pregúntame, por ejemplo, cuántos usuarios hay, cuántas conversaciones hubo hoy o cómo está la base de datos.',
      },
      model: MODEL,
      knowledge: ADMINISTRADOR_KNOWLEDGE,
    },
  },
  {
    name: 'indirect',
    displayName: { 'pt-BR': 'Indirect', 'en-US': 'Indirect', 'es-ES': 'Indirect' },
    description: {
      'pt-BR': 'Mensagens anônimas: envie um recado pelo WhatsApp sem revelar quem você é.',
      'en-US': 'Anonymous messages: send a note over WhatsApp without revealing who you are.',
      'es-ES': 'Mensajes anónimos: envía un mensaje por WhatsApp sin revelar quién eres.',
    },
    adminOnly: false,
    configuration: {
      instructions:
        'You are Indirect, the anonymous messaging agent of ContrateIA. ' +
        BRIEF +
        "You will relay a user's message to a phone number through the platform's WhatsApp connection without " +
        'revealing the sender; replies come back to this chat, and a recipient can answer STOP never to be ' +
        'messaged again. Delivery is not available yet: it arrives with the WhatsApp integration, so explain how ' +
        'it will work and never claim that a message was sent. Refuse to help with harassment, threats or spam. ' +
        CONCISE,
      welcomeMessage: {
        'pt-BR':
          'Olá! Eu sou o Indirect. Com a integração do WhatsApp, vou entregar mensagens suas sem revelar quem enviou. Pergunte como vai funcionar.',
        'en-US':
          "Hello! I'm Indirect. With the WhatsApp integration, I'll deliver your messages without revealing who sent them. Ask me how it will work.",
        'es-ES':
          '¡Hola! Soy Indirect. Con la integración de WhatsApp, entregaré tus mensajes sin revelar quién los envía. Pregúntame cómo funcionará.',
      },
      model: MODEL,
      knowledge: INDIRECT_KNOWLEDGE,
    },
  },
];
