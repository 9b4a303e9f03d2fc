import type {
  AgentCapabilities,
  AgentConfiguration,
  Catalogue,
  KnowledgeEntry,
  Language,
} from '@contrateia/shared';

/**
 * Small agents for the engine tests, written here rather than taken from the seed files: the
 * tests are about what the engines do with any configuration, and must not change when the
 * seeded texts do (agents.int.test.ts checks those).
 */

type EntryText = { title: string; content: string; keywords: string[] };

/** One topic in the three languages; ids are `<topic>.<language>`. */
export function topic(
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

export function configuration({
  knowledge = [],
  capabilities = { skills: [], fallback: 'notFound' },
  catalogue,
  maxReplyLength = 2000,
}: {
  knowledge?: KnowledgeEntry[];
  capabilities?: AgentCapabilities;
  catalogue?: Catalogue;
  maxReplyLength?: number;
}): AgentConfiguration {
  return {
    instructions: 'You are a test agent. Answer from the reference knowledge.',
    welcomeMessage: { 'pt-BR': 'Oi', 'en-US': 'Hi', 'es-ES': 'Hola' },
    model: { model: null, temperature: 0.3, maxReplyLength },
    knowledge,
    capabilities,
    ...(catalogue ? { catalogue } : {}),
  };
}

/** A product guide: where things are. Its first three topics are the ones it suggests. */
export const GUIDE_KNOWLEDGE: KnowledgeEntry[] = [
  ...topic('hire', '/dashboard', {
    'pt-BR': {
      title: 'Contratar um agente',
      content: 'No Painel, clique em **Contratar** no agente que quiser.',
      keywords: ['contratar', 'contratação', 'agente', 'novo agente'],
    },
    'en-US': {
      title: 'Hire an agent',
      content: 'On the Dashboard, click **Hire** on the agent you want.',
      keywords: ['hire', 'hiring', 'agent', 'new agent'],
    },
    'es-ES': {
      title: 'Contratar un agente',
      content: 'En el Panel, haz clic en **Contratar** en el agente que quieras.',
      keywords: ['contratar', 'contratación', 'agente', 'nuevo agente'],
    },
  }),
  ...topic('whatsapp', '/whatsapp', {
    'pt-BR': {
      title: 'Conectar o WhatsApp',
      content: 'Abra a página **WhatsApp**, clique em **Conectar** e leia o QR code com o celular.',
      keywords: ['whatsapp', 'conectar', 'conexão', 'qr code', 'celular'],
    },
    'en-US': {
      title: 'Connect WhatsApp',
      content:
        'Open the **WhatsApp** page, click **Connect** and scan the QR code with your phone.',
      keywords: ['whatsapp', 'connect', 'connection', 'qr code', 'phone'],
    },
    'es-ES': {
      title: 'Conectar WhatsApp',
      content: 'Abre la página **WhatsApp**, haz clic en **Conectar** y escanea el código QR.',
      keywords: ['whatsapp', 'conectar', 'conexión', 'código qr', 'móvil'],
    },
  }),
  ...topic('language', undefined, {
    'pt-BR': {
      title: 'Trocar o idioma',
      content: 'Clique na bandeira do idioma no alto da página.',
      keywords: ['idioma', 'língua', 'bandeira', 'trocar idioma'],
    },
    'en-US': {
      title: 'Change the language',
      content: 'Click the flag of the language at the top of the page.',
      keywords: ['language', 'flag', 'change language'],
    },
    'es-ES': {
      title: 'Cambiar el idioma',
      content: 'Haz clic en la bandera del idioma arriba de la página.',
      keywords: ['idioma', 'lengua', 'bandera', 'cambiar idioma'],
    },
  }),
  ...topic('signout', undefined, {
    'pt-BR': {
      title: 'Sair da conta',
      content: 'Clique em **Sair** no menu.',
      keywords: ['sair', 'logout', 'deslogar', 'encerrar sessão'],
    },
    'en-US': {
      title: 'Sign out',
      content: 'Click **Log out** in the menu.',
      keywords: ['sign out', 'log out', 'logout', 'leave'],
    },
    'es-ES': {
      title: 'Cerrar sesión',
      content: 'Haz clic en **Salir** en el menú.',
      keywords: ['cerrar sesión', 'salir', 'logout'],
    },
  }),
  ...topic('chat', '/dashboard', {
    'pt-BR': {
      title: 'Conversar com um agente',
      content: 'Escreva a mensagem na caixa de texto e tecle Enter para enviar.',
      keywords: ['conversar', 'mensagem', 'enviar', 'chat'],
    },
    'en-US': {
      title: 'Chat with an agent',
      content: 'Type your message in the text box and press Enter to send it.',
      keywords: ['chat', 'message', 'send', 'talk'],
    },
    'es-ES': {
      title: 'Chatear con un agente',
      content: 'Escribe el mensaje en el cuadro de texto y pulsa Intro para enviarlo.',
      keywords: ['chatear', 'mensaje', 'enviar', 'chat'],
    },
  }),
];

/** A shop's catalogue: prices are numbers, written by the engine in the answer's language. */
export const SHOP_CATALOGUE: Catalogue = {
  currency: 'BRL',
  items: [
    {
      id: 'consulting',
      name: {
        'pt-BR': 'Consultoria de gestão',
        'en-US': 'Management consulting',
        'es-ES': 'Consultoría de gestión',
      },
      description: {
        'pt-BR': 'Diagnóstico do negócio e plano de ação com um consultor.',
        'en-US': 'A business diagnosis and action plan with a consultant.',
        'es-ES': 'Diagnóstico del negocio y plan de acción con un consultor.',
      },
      keywords: {
        'pt-BR': ['consultoria', 'consultor', 'gestão'],
        'en-US': ['consulting', 'consultant', 'management'],
        'es-ES': ['consultoría', 'consultor', 'gestión'],
      },
      price: 1800,
      unit: 'month',
    },
    {
      id: 'payroll',
      name: { 'pt-BR': 'Folha de pagamento', 'en-US': 'Payroll', 'es-ES': 'Nómina' },
      description: {
        'pt-BR': 'Holerites, férias e encargos dos seus funcionários.',
        'en-US': 'Payslips, holidays and contributions for your employees.',
        'es-ES': 'Nóminas, vacaciones y cotizaciones de tus empleados.',
      },
      keywords: {
        'pt-BR': ['folha', 'holerite', 'funcionários', 'salário'],
        'en-US': ['payroll', 'payslip', 'employees', 'salary'],
        'es-ES': ['nómina', 'empleados', 'salario'],
      },
      price: 45,
      unit: 'employeeMonth',
    },
    {
      id: 'website',
      name: {
        'pt-BR': 'Site institucional',
        'en-US': 'Business website',
        'es-ES': 'Sitio web corporativo',
      },
      description: {
        'pt-BR': 'Um site de até cinco páginas, com domínio e formulário de contato.',
        'en-US': 'A website of up to five pages, with a domain and a contact form.',
        'es-ES': 'Un sitio de hasta cinco páginas, con dominio y formulario de contacto.',
      },
      keywords: {
        'pt-BR': ['site', 'página', 'internet', 'domínio'],
        'en-US': ['website', 'site', 'web page', 'domain'],
        'es-ES': ['sitio web', 'web', 'página', 'dominio'],
      },
      price: 2400,
      unit: 'once',
    },
    {
      id: 'trademark',
      name: {
        'pt-BR': 'Registro de marca no INPI',
        'en-US': 'Trademark registration (INPI)',
        'es-ES': 'Registro de marca en el INPI',
      },
      description: {
        'pt-BR': 'Busca de anterioridade e pedido de registro da sua marca.',
        'en-US': 'A prior-art search and the application to register your trademark.',
        'es-ES': 'Búsqueda de anterioridad y solicitud de registro de tu marca.',
      },
      keywords: {
        'pt-BR': ['marca', 'inpi', 'registro de marca', 'logotipo'],
        'en-US': ['trademark', 'brand', 'inpi', 'logo'],
        'es-ES': ['marca', 'inpi', 'registro de marca', 'logotipo'],
      },
      price: 1350,
      unit: 'once',
    },
  ],
};

/** Where an administrator finds things. */
export const ADMIN_KNOWLEDGE: KnowledgeEntry[] = [
  ...topic('logs', '/logs', {
    'pt-BR': {
      title: 'Logs do sistema',
      content: 'A página **Logs** mostra os eventos do servidor, com filtros por nível e data.',
      keywords: ['logs', 'log', 'eventos', 'erros', 'registros'],
    },
    'en-US': {
      title: 'System logs',
      content: 'The **Logs** page shows the server events, filtered by level and date.',
      keywords: ['logs', 'log', 'events', 'errors'],
    },
    'es-ES': {
      title: 'Registros del sistema',
      content:
        'La página **Logs** muestra los eventos del servidor, con filtros por nivel y fecha.',
      keywords: ['logs', 'registros', 'eventos', 'errores'],
    },
  }),
  ...topic('model', undefined, {
    'pt-BR': {
      title: 'Ligar um modelo de linguagem',
      content: 'Defina AI_PROVIDER=openai, AI_BASE_URL e AI_MODEL e reinicie o servidor.',
      keywords: ['modelo', 'openai', 'ollama', 'ia', 'configurar modelo'],
    },
    'en-US': {
      title: 'Switch on a language model',
      content: 'Set AI_PROVIDER=openai, AI_BASE_URL and AI_MODEL and restart the server.',
      keywords: ['model', 'openai', 'ollama', 'ai', 'configure model'],
    },
    'es-ES': {
      title: 'Activar un modelo de lenguaje',
      content: 'Define AI_PROVIDER=openai, AI_BASE_URL y AI_MODEL y reinicia el servidor.',
      keywords: ['modelo', 'openai', 'ollama', 'ia', 'configurar modelo'],
    },
  }),
];

/** What an assistant says about itself. */
export const ASSISTANT_KNOWLEDGE: KnowledgeEntry[] = topic('limits', undefined, {
  'pt-BR': {
    title: 'Por que minhas respostas são limitadas',
    content: 'Funciono sem um modelo de linguagem; um administrador pode ligar um.',
    keywords: ['limitado', 'limitadas', 'modelo de linguagem', 'por que não responde'],
  },
  'en-US': {
    title: 'Why my answers are limited',
    content: 'I run without a language model; an administrator can switch one on.',
    keywords: ['limited', 'language model', 'why no answer'],
  },
  'es-ES': {
    title: 'Por qué mis respuestas son limitadas',
    content: 'Funciono sin un modelo de lenguaje; un administrador puede activar uno.',
    keywords: ['limitado', 'limitadas', 'modelo de lenguaje', 'por qué no responde'],
  },
});

/** What an anonymous-messaging agent says about itself. */
export const MESSENGER_KNOWLEDGE: KnowledgeEntry[] = [
  ...topic('how', undefined, {
    'pt-BR': {
      title: 'Como funcionam as mensagens anônimas',
      content: 'Eu entrego sua mensagem pelo WhatsApp sem revelar quem enviou.',
      keywords: ['anônimo', 'anônima', 'anonimato', 'como funciona', 'mensagem anônima'],
    },
    'en-US': {
      title: 'How anonymous messages work',
      content: 'I deliver your message over WhatsApp without revealing who sent it.',
      keywords: ['anonymous', 'anonymity', 'how it works', 'anonymous message'],
    },
    'es-ES': {
      title: 'Cómo funcionan los mensajes anónimos',
      content: 'Entrego tu mensaje por WhatsApp sin revelar quién lo envía.',
      keywords: ['anónimo', 'anónima', 'anonimato', 'cómo funciona', 'mensaje anónimo'],
    },
  }),
  ...topic('availability', undefined, {
    'pt-BR': {
      title: 'Quando o envio fica disponível',
      content: 'O envio chega com a integração do WhatsApp.',
      keywords: ['disponível', 'quando', 'envio', 'lançamento'],
    },
    'en-US': {
      title: 'When sending becomes available',
      content: 'Sending arrives with the WhatsApp integration.',
      keywords: ['available', 'availability', 'when', 'sending', 'launch'],
    },
    'es-ES': {
      title: 'Cuándo estará disponible el envío',
      content: 'El envío llega con la integración de WhatsApp.',
      keywords: ['disponible', 'cuándo', 'envío', 'lanzamiento'],
    },
  }),
];
