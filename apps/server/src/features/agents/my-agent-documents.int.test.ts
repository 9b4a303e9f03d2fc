import fs from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Document, HeadingLevel, Packer, Paragraph, Table, TableCell, TableRow } from 'docx';
import { eq } from 'drizzle-orm';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  defaultSettings,
  MY_AGENT_DOCUMENTS_MAX,
  type Language,
  type MyAgent,
  type MyAgentDocument,
  type MyAgentInput,
  type SendMessageResponse,
  type SystemSettings,
} from '@contrateia/shared';
import { createTestApp, type TestContext, NO_MONITOR } from '../../../test/helpers';
import { get, message, post, registerAndLogin, UNLIMITED_ROUTES } from '../../../test/factories';
import { keepAliveClient, multipartOf, offerHugeUpload } from '../../../test/uploads-over-http';
import { agentDocuments, agents as agentsTable } from './agents.table';

type Account = Awaited<ReturnType<typeof registerAndLogin>>;

const documentsUrl = (agentId: string) => `/api/my-agents/${agentId}/documents`;

/**
 * A PDF protected by a user password ("senha-do-usuario"), made once from a one-page pdf-lib PDF
 * with `qpdf --static-id --encrypt senha-do-usuario senha-do-dono 256 -- in.pdf encrypted.pdf`.
 */
const ENCRYPTED_PDF = fs.readFileSync(
  path.resolve(import.meta.dirname, '../../../test/fixtures/encrypted.pdf'),
);

/** An own agent's profile, as its owner fills it in. */
const clinic = (displayName: string): MyAgentInput => ({
  displayName,
  business: { name: 'Clínica Sorriso', about: 'Clínica odontológica em Curitiba.' },
  faq: [{ question: 'Vocês têm estacionamento?', answer: 'Sim, na rua de trás.' }],
});

/** The form the web app sends a document in (multipart `file`). */
function documentForm({
  name,
  bytes,
  type = 'application/octet-stream',
}: {
  name: string;
  bytes: Uint8Array;
  type?: string;
}): FormData {
  const form = new FormData();
  form.append('file', new File([bytes], name, { type }));
  return form;
}

/** A page of a PDF: an optional heading in larger type, then paragraphs (each a list of lines). */
type PdfPage = { heading?: string; paragraphs: string[][] };

/** A PDF with real text on each page, written as a word processor lays it out. */
async function makePdf(pages: PdfPage[]): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const { heading, paragraphs } of pages) {
    const page = pdf.addPage([595, 842]);
    let y = 790;
    if (heading) {
      page.drawText(heading, { x: 50, y, font, size: 18 });
      y -= 36;
    }
    for (const lines of paragraphs) {
      for (const line of lines) {
        page.drawText(line, { x: 50, y, font, size: 11 });
        y -= 14;
      }
      y -= 14;
    }
  }
  return pdf.save();
}

/** A PDF of blank pages: what a scan is to a text reader (images only, no text). */
async function imageOnlyPdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const png = await pdf.embedPng(
    await sharp({ create: solid(40, 40) })
      .png()
      .toBuffer(),
  );
  pdf.addPage().drawImage(png, { x: 50, y: 50, width: 400, height: 400 });
  pdf.addPage();
  return pdf.save();
}

const solid = (width: number, height: number) => ({
  width,
  height,
  channels: 3 as const,
  background: { r: 200, g: 100, b: 50 },
});

/** A DOCX with a heading, a paragraph and a price table. */
async function makeDocx(): Promise<Uint8Array> {
  const cell = (text: string) => new TableCell({ children: [new Paragraph(text)] });
  const doc = new Document({
    sections: [
      {
        children: [
          new Paragraph({ text: 'Convênios aceitos', heading: HeadingLevel.HEADING_1 }),
          new Paragraph(
            'Atendemos pelos convênios Amil Dental e Bradesco Dental; traga a carteirinha do convênio e um documento com foto.',
          ),
          new Table({
            rows: [
              new TableRow({ children: [cell('Plano'), cell('Carência')] }),
              new TableRow({ children: [cell('Amil Dental'), cell('30 dias')] }),
            ],
          }),
        ],
      },
    ],
  });
  return new Uint8Array(await Packer.toBuffer(doc));
}

/** The clinic's policies, as its PDF has them: three pages, each under its heading. */
const POLICY_PAGES: PdfPage[] = [
  {
    heading: 'Política de atendimento',
    paragraphs: [
      [
        'A Clínica Sorriso atende com hora marcada. Chegue com dez minutos de antecedência',
        'para o cadastro na recepção.',
      ],
    ],
  },
  {
    heading: 'Política de cancelamento',
    paragraphs: [
      [
        'Cancelamentos devem ser avisados com 24 horas de antecedência. Faltas sem aviso',
        'pagam uma taxa de remarcação de R$ 50,00 na consulta seguinte.',
      ],
    ],
  },
  {
    heading: 'Garantia dos tratamentos',
    paragraphs: [['Restaurações em resina têm garantia de um ano contra quebra.']],
  },
];

describe('an own agent’s documents', () => {
  let ctx: TestContext;
  let admin: Account;
  let clara: Account;
  let davi: Account;
  let agent: MyAgent;
  let davis: MyAgent;

  const create = async (account: Account, displayName: string) => {
    const res = await post(ctx, '/api/my-agents', clinic(displayName), { token: account.token });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    return res.json<{ agent: MyAgent }>().agent;
  };

  beforeAll(async () => {
    ctx = await createTestApp({ without: NO_MONITOR, limits: { routes: UNLIMITED_ROUTES } });
    admin = await registerAndLogin(ctx, { name: 'Admin' }); // the first account is the admin
    clara = await registerAndLogin(ctx, { name: 'Clara' });
    davi = await registerAndLogin(ctx, { name: 'Davi' });
    agent = await create(clara, 'Clínica Sorriso');
    davis = await create(davi, 'Clínica do Davi');
  });
  afterAll(async () => ctx?.close());

  /** POST a document as the web app sends it (multipart `file`). */
  const upload = (
    account: Account,
    agentId: string,
    file: { name: string; bytes: Uint8Array; type?: string },
    language: Language = 'pt-BR',
  ) =>
    ctx.app.inject({
      method: 'POST',
      url: documentsUrl(agentId),
      payload: documentForm(file),
      headers: { authorization: `Bearer ${account.token}`, 'accept-language': language },
    });
  const uploaded = async (
    account: Account,
    agentId: string,
    file: { name: string; bytes: Uint8Array },
  ) => {
    const res = await upload(account, agentId, file);
    expect(res.statusCode, `${file.name}: ${res.body.slice(0, 300)}`).toBe(201);
    // Each document a second after the one before: "newest first" has an order to show.
    ctx.clock.advance(1000);
    return res.json<MyAgentDocument>();
  };
  const list = async (account: Account, agentId: string) => {
    const res = await get(ctx, documentsUrl(agentId), { token: account.token });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    return res.json<MyAgentDocument[]>();
  };
  const remove = (
    account: Account,
    agentId: string,
    documentId: string,
    language: Language = 'pt-BR',
  ) =>
    ctx.app.inject({
      method: 'DELETE',
      url: `${documentsUrl(agentId)}/${documentId}`,
      headers: { authorization: `Bearer ${account.token}`, 'accept-language': language },
    });
  const ask = async (account: Account, agentName: string, text: string) => {
    const res = await post(
      ctx,
      '/api/chat/message',
      { agentName, message: text },
      { token: account.token, language: 'pt-BR' },
    );
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    return res.json<SendMessageResponse>().message.text;
  };
  const storedRows = () => ctx.database.db.select().from(agentDocuments);
  const agentRow = async (id: string) =>
    (await ctx.database.db.select().from(agentsTable).where(eq(agentsTable.id, id)))[0]!;
  const text = (value: string) => new TextEncoder().encode(value);
  async function setSystem(changes: Partial<SystemSettings>) {
    const res = await post(
      ctx,
      '/api/admin/settings/system',
      { ...defaultSettings().system, ...changes },
      { token: admin.token },
    );
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
  }

  it('reads a PDF of several pages, a DOCX, a TXT and an MD, lists them newest first, and the agent answers from them', async () => {
    const before = await agentRow(agent.id);
    const pdf = await uploaded(clara, agent.id, {
      name: 'Políticas 2026.pdf',
      bytes: await makePdf(POLICY_PAGES),
    });
    expect(pdf).toEqual({
      id: expect.any(String),
      filename: 'Políticas 2026.pdf',
      pages: 3,
      characters: expect.any(Number),
      createdAt: expect.any(String),
    });
    expect(pdf.characters).toBeGreaterThan(200);
    const docx = await uploaded(clara, agent.id, {
      name: 'Convênios.docx',
      bytes: await makeDocx(),
    });
    expect(docx).toMatchObject({ filename: 'Convênios.docx', pages: null });
    const txt = await uploaded(clara, agent.id, {
      name: 'clareamento.txt',
      bytes: text(
        'Clareamento\n\nO clareamento a laser leva uma sessão de uma hora e meia; o resultado dura cerca de dois anos.\n',
      ),
    });
    const md = await uploaded(clara, agent.id, {
      name: 'aparelhos.md',
      bytes: text(
        '# Aparelhos\n\nA manutenção do aparelho ortodôntico é mensal e leva vinte minutos.\n\n## Alinhadores\n\nAlinhadores transparentes são trocados a cada duas semanas.\n',
      ),
    });

    expect(await list(clara, agent.id)).toEqual([md, txt, docx, pdf]);
    // Each passage keeps the page it starts on and its heading.
    const rows = await storedRows();
    const policy = rows.find((row) => row.id === pdf.id)!;
    expect(policy.passages).toEqual([
      expect.objectContaining({ page: 1, heading: 'Política de atendimento' }),
      expect.objectContaining({ page: 2, heading: 'Política de cancelamento' }),
      expect.objectContaining({ page: 3, heading: 'Garantia dos tratamentos' }),
    ]);
    // The two lines of a paragraph are one text.
    expect(policy.passages[1]!.text).toBe(
      'Cancelamentos devem ser avisados com 24 horas de antecedência. Faltas sem aviso pagam uma taxa de remarcação de R$ 50,00 na consulta seguinte.',
    );
    const table = rows.find((row) => row.id === docx.id)!;
    expect(table.passages).toEqual([
      {
        heading: 'Convênios aceitos',
        text: expect.stringContaining('Amil Dental | 30 dias'),
      },
    ]);
    expect(rows.find((row) => row.id === md.id)!.passages.map((p) => p.heading)).toEqual([
      'Aparelhos',
      'Alinhadores',
    ]);

    // The agent's knowledge has each passage, in its language, naming its document; saved again.
    const after = await agentRow(agent.id);
    expect(after.updatedAt!.getTime()).toBeGreaterThan(before.updatedAt!.getTime());
    expect(after.configuration.knowledge).toContainEqual({
      id: `doc-${pdf.id}-2.pt-BR`,
      language: 'pt-BR',
      title: 'Política de cancelamento',
      content: policy.passages[1]!.text,
      keywords: [],
      source: 'Políticas 2026.pdf',
    });
    expect(after.configuration.knowledge).toContainEqual(
      expect.objectContaining({ title: 'Clareamento', source: 'clareamento.txt' }),
    );

    // The builtin engine answers from them, through the chat as the owner uses it.
    const cancelling = await ask(clara, agent.name, 'qual a política de cancelamento?');
    expect(cancelling).toContain('R$ 50,00');
    // Saying where it read it: the owner's document, not the engine's own words.
    expect(cancelling).toContain('Segundo o documento “Políticas 2026.pdf”:');
    expect(await ask(clara, agent.name, 'vocês aceitam convênio Amil?')).toContain('Amil Dental');
    // What the owner wrote still answers too.
    expect(await ask(clara, agent.name, 'tem estacionamento?')).toContain('rua de trás');
  });

  it('removes a document on DELETE, and with it what the agent knew from it', async () => {
    const [, , , pdf] = await list(clara, agent.id);
    expect(pdf!.filename).toBe('Políticas 2026.pdf');
    const before = await agentRow(agent.id);
    ctx.clock.advance(1000);
    const res = await remove(clara, agent.id, pdf!.id);
    expect(res.statusCode, res.body).toBe(204);
    expect(res.body).toBe('');
    expect((await list(clara, agent.id)).map((d) => d.filename)).not.toContain(
      'Políticas 2026.pdf',
    );
    const after = await agentRow(agent.id);
    expect(after.updatedAt!.getTime()).toBeGreaterThan(before.updatedAt!.getTime());
    expect(after.configuration.knowledge.map((entry) => entry.source)).not.toContain(
      'Políticas 2026.pdf',
    );
    expect(await ask(clara, agent.name, 'qual a política de cancelamento?')).not.toContain(
      'R$ 50,00',
    );
    // Gone: a second DELETE finds nothing.
    const again = await remove(clara, agent.id, pdf!.id, 'en-US');
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe(message('en-US', 'myAgents.documentNotFound'));
  });

  it('is another account’s to reach by no route: 404 on the list, an upload and a delete', async () => {
    const [document] = await list(clara, agent.id);
    const rows = (await storedRows()).length;
    const knowledge = (await agentRow(agent.id)).configuration;
    for (const res of [
      await get(ctx, documentsUrl(agent.id), { token: davi.token, language: 'en-US' }),
      await upload(davi, agent.id, { name: 'x.txt', bytes: text('Olá, mundo.') }, 'en-US'),
      await remove(davi, agent.id, document!.id, 'en-US'),
    ]) {
      expect(res.statusCode, res.body.slice(0, 200)).toBe(404);
      expect(res.json().message).toBe(message('en-US', 'agents.notFound'));
    }
    // Through the caller's own agent, another's document is no document of it.
    const through = await remove(davi, davis.id, document!.id, 'en-US');
    expect(through.statusCode).toBe(404);
    expect(through.json().message).toBe(message('en-US', 'myAgents.documentNotFound'));
    // An id that is no id is a 404 too, never a database error.
    expect((await remove(clara, agent.id, 'nope')).statusCode).toBe(404);
    expect((await get(ctx, documentsUrl('nope'), { token: clara.token })).statusCode).toBe(404);
    // Without a session: 401.
    expect((await get(ctx, documentsUrl(agent.id))).statusCode).toBe(401);
    expect((await storedRows()).length).toBe(rows);
    expect((await agentRow(agent.id)).configuration).toEqual(knowledge);
  });

  it('refuses what it cannot read with a clear 400 in the caller’s language, storing nothing', async () => {
    const png = await sharp({ create: solid(8, 8) })
      .png()
      .toBuffer();
    const cases: Array<{ name: string; bytes: Uint8Array; key: string }> = [
      { name: 'tabela.pdf', bytes: png, key: 'myAgents.documentType' },
      { name: 'tabela.pdf', bytes: text('só texto, sem ser PDF'), key: 'myAgents.documentType' },
      { name: 'tabela.docx', bytes: await makePdf(POLICY_PAGES), key: 'myAgents.documentType' },
      { name: 'tabela', bytes: text('sem extensão'), key: 'myAgents.documentType' },
      {
        name: 'notas.txt',
        bytes: Uint8Array.from([0x41, 0x00, 0x42]),
        key: 'myAgents.documentType',
      },
      {
        name: 'notas.md',
        bytes: Uint8Array.from([0xc3, 0x28, 0x41]),
        key: 'myAgents.documentType',
      },
      { name: 'vazio.txt', bytes: new Uint8Array(0), key: 'myAgents.documentEmpty' },
      { name: 'branco.md', bytes: text(' \n\n\t\n'), key: 'myAgents.documentEmpty' },
      { name: 'digitalizado.pdf', bytes: await imageOnlyPdf(), key: 'myAgents.documentNoText' },
      { name: 'protegido.pdf', bytes: ENCRYPTED_PDF, key: 'myAgents.documentEncrypted' },
      {
        name: 'quebrado.pdf',
        bytes: (await makePdf(POLICY_PAGES)).slice(0, 400),
        key: 'myAgents.documentDamaged',
      },
      {
        name: 'quebrado.docx',
        bytes: (await makeDocx()).slice(0, 2000),
        key: 'myAgents.documentType',
      },
    ];
    const rows = (await storedRows()).length;
    const before = await agentRow(agent.id);
    for (const language of ['pt-BR', 'en-US', 'es-ES'] as const) {
      for (const { name, bytes, key } of cases) {
        const res = await upload(clara, agent.id, { name, bytes }, language);
        expect(res.statusCode, `${name}: ${res.body.slice(0, 200)}`).toBe(400);
        expect(res.json().message, name).toBe(message(language, key));
      }
    }
    // No file at all, or a form that is no form.
    const empty = await ctx.app.inject({
      method: 'POST',
      url: documentsUrl(agent.id),
      payload: new FormData(),
      headers: { authorization: `Bearer ${clara.token}` },
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe(message('pt-BR', 'myAgents.documentRequired'));
    const json = await post(ctx, documentsUrl(agent.id), { file: 'x' }, { token: clara.token });
    expect(json.statusCode).toBe(400);
    expect((await storedRows()).length).toBe(rows);
    const after = await agentRow(agent.id);
    expect(after.configuration).toEqual(before.configuration);
    expect(after.updatedAt).toEqual(before.updatedAt);
  });

  it('holds an upload to the admin’s size limit with 413, as images are', async () => {
    await setSystem({ maxFileSize: 1 });
    try {
      const rows = (await storedRows()).length;
      const big = text(`${'Texto longo de política. '.repeat(45_000)}`);
      expect(big.length).toBeGreaterThan(1024 * 1024);
      const res = await upload(clara, agent.id, { name: 'grande.txt', bytes: big });
      expect(res.statusCode).toBe(413);
      expect(res.json().message).toBe(message('pt-BR', 'errors.imageTooLarge', { size: 1 }));
      expect((await storedRows()).length).toBe(rows);
    } finally {
      await setSystem({});
    }
  });

  it('keeps a hostile name as sent but cleaned: no folders, no control characters, cut short', async () => {
    const traversal = await uploaded(clara, agent.id, {
      name: '../../etc/passwd.txt',
      bytes: text('Horário de verão: atendemos até as 20h.'),
    });
    expect(traversal.filename).toBe('passwd.txt');
    const long = await uploaded(clara, agent.id, {
      name: `${'a'.repeat(5000)}\u0007\u202e.txt`,
      bytes: text('Aceitamos Pix e cartão.'),
    });
    expect(long.filename).toBe(`${'a'.repeat(196)}.txt`);
    expect((await list(clara, agent.id)).map((d) => d.filename)).toEqual(
      expect.arrayContaining(['passwd.txt', long.filename]),
    );
    for (const document of [traversal, long])
      expect((await remove(clara, agent.id, document.id)).statusCode).toBe(204);
  });

  it(`holds an account to ${MY_AGENT_DOCUMENTS_MAX} documents over all its agents, in every language, storing nothing past them`, async () => {
    const eva = await registerAndLogin(ctx, { name: 'Eva' });
    const first = await create(eva, 'Padaria da Eva');
    const second = await create(eva, 'Confeitaria da Eva');
    const file = (n: number) => ({ name: `aviso-${n}.txt`, bytes: text(`Aviso número ${n}.`) });
    for (let n = 1; n <= 15; n += 1) await uploaded(eva, first.id, file(n));
    // Six at once for the last five places: exactly five are taken, whatever the order.
    const racing = await Promise.all(
      Array.from({ length: 6 }, (_, i) => upload(eva, second.id, file(16 + i))),
    );
    expect(racing.filter((res) => res.statusCode === 201)).toHaveLength(5);
    expect(racing.filter((res) => res.statusCode === 400)).toHaveLength(1);
    const rows = (await storedRows()).length;
    for (const language of ['pt-BR', 'en-US', 'es-ES'] as const) {
      const res = await upload(eva, first.id, file(99), language);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(
        message(language, 'myAgents.documentLimit', { max: MY_AGENT_DOCUMENTS_MAX }),
      );
    }
    expect((await storedRows()).length).toBe(rows);
  });

  it('answers a refused upload promptly on a connection that goes on: too large, not a document, past the account’s documents', async () => {
    const hana = await registerAndLogin(ctx, { name: 'Hana' });
    const studio = await create(hana, 'Estúdio da Hana');
    const url = documentsUrl(studio.id);
    // 1.5 MB, as a browser sends it: announced (refused before a byte is read) and chunked. The
    // rest of the body is still on its way when the answer is decided: read to its end (within a
    // bound) rather than left unread, which resets the connection and may lose the answer with it.
    const large = await multipartOf(
      documentForm({ name: 'grande.txt', bytes: text('Texto de política. '.repeat(80_000)) }),
    );
    const client = await keepAliveClient(ctx, { token: hana.token, language: 'es-ES' });
    /** Sends `form` announced, then chunked: each refusal read, then the list on that connection. */
    const expectRefused = async (
      form: { body: Buffer; contentType: string },
      status: number,
      expected: string,
    ) => {
      for (const chunked of [false, true]) {
        const refused = await client.send(url, { ...form, chunked });
        expect(refused.status, refused.body.slice(0, 200)).toBe(status);
        expect(JSON.parse(refused.body).message).toBe(expected);
        expect(refused.connection).not.toBe('close');
        const next = await client.send(url);
        expect(next).toMatchObject({ status: 200, reused: true });
        expect(JSON.parse(next.body)).toEqual(await list(hana, studio.id));
      }
    };
    try {
      await setSystem({ maxFileSize: 1 });
      try {
        await expectRefused(large, 413, message('es-ES', 'errors.imageTooLarge', { size: 1 }));
        // Read whole before its bytes are found to be no PDF.
        const fake = await multipartOf(
          documentForm({ name: 'tabela.pdf', bytes: new Uint8Array(512 * 1024).fill(7) }),
        );
        await expectRefused(fake, 400, message('es-ES', 'myAgents.documentType'));
      } finally {
        await setSystem({});
      }
      for (let n = 1; n <= MY_AGENT_DOCUMENTS_MAX; n += 1)
        await uploaded(hana, studio.id, { name: `aviso-${n}.txt`, bytes: text(`Aviso ${n}.`) });
      await expectRefused(
        large,
        400,
        message('es-ES', 'myAgents.documentLimit', { max: MY_AGENT_DOCUMENTS_MAX }),
      );
    } finally {
      client.close();
    }
    expect(await list(hana, studio.id)).toHaveLength(MY_AGENT_DOCUMENTS_MAX);
  });

  it('stops reading a refused upload over real HTTP: the answer long before the client has sent it all', async () => {
    const iris = await registerAndLogin(ctx, { name: 'Iris' });
    const shop = await create(iris, 'Loja da Iris');
    const offered = 200 * 1024 * 1024;
    const offer = () =>
      offerHugeUpload(ctx, {
        path: documentsUrl(shop.id),
        field: 'file',
        filename: 'enorme.txt',
        token: iris.token,
        language: 'pt-BR',
        offered,
      });
    await setSystem({ maxFileSize: 1 });
    try {
      const large = await offer();
      expect(large).toMatchObject({
        status: 413,
        connection: 'close',
        body: { success: false, message: message('pt-BR', 'errors.imageTooLarge', { size: 1 }) },
      });
      // What the sockets' buffers took besides what was read: far from the 200 MB offered.
      expect(large.pulled).toBeLessThan(offered / 4);
    } finally {
      await setSystem({});
    }
    for (let n = 1; n <= MY_AGENT_DOCUMENTS_MAX; n += 1)
      await uploaded(iris, shop.id, { name: `aviso-${n}.txt`, bytes: text(`Aviso ${n}.`) });
    // Refused before a byte of it is read: no more of it is read than the bound allows.
    const full = await offer();
    expect(full).toMatchObject({
      status: 400,
      connection: 'close',
      body: {
        message: message('pt-BR', 'myAgents.documentLimit', { max: MY_AGENT_DOCUMENTS_MAX }),
      },
    });
    expect(full.pulled).toBeLessThan(offered / 4);
    expect(await list(iris, shop.id)).toHaveLength(MY_AGENT_DOCUMENTS_MAX);
  });

  it('reads a PDF of 200 pages within seconds without holding up the event loop', async () => {
    const pages: PdfPage[] = Array.from({ length: 200 }, (_, i) => ({
      heading: `Capítulo ${i + 1}`,
      paragraphs: Array.from({ length: 6 }, (_, p) =>
        Array.from(
          { length: 5 },
          (_, l) => `Regra ${i + 1}.${p + 1}.${l + 1}: texto corrido do manual interno da clínica.`,
        ),
      ),
    }));
    const bytes = await makePdf(pages);
    const owner = await registerAndLogin(ctx, { name: 'Fabio' });
    const manualAgent = await create(owner, 'Clínica do Fábio');
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const started = performance.now();
    const document = await uploaded(owner, manualAgent.id, { name: 'Manual.pdf', bytes });
    const took = performance.now() - started;
    delay.disable();
    expect(document.pages).toBe(200);
    expect(took).toBeLessThan(20_000);
    // The parsing is the reading thread's: the longest stall of this one is far from its seconds.
    expect(delay.max / 1e6).toBeLessThan(1000);
    const [row] = await ctx.database.db
      .select()
      .from(agentDocuments)
      .where(eq(agentDocuments.id, document.id));
    expect(row!.passages.at(-1)).toMatchObject({ page: 200, heading: 'Capítulo 200' });
  });

  it('goes with its agent, and with its account; the account’s data export lists them', async () => {
    const gil = await registerAndLogin(ctx, { name: 'Gil' });
    const kept = await create(gil, 'Loja do Gil');
    const dropped = await create(gil, 'Outra loja');
    const keptDocument = await uploaded(gil, kept.id, {
      name: 'trocas.md',
      bytes: text('# Trocas\n\nTrocas em até 30 dias com a nota fiscal.'),
    });
    await uploaded(gil, dropped.id, { name: 'x.txt', bytes: text('Algo a saber.') });

    const exported = await get(ctx, '/api/account/export', { token: gil.token });
    expect(exported.statusCode).toBe(200);
    const byName = Object.fromEntries(
      exported
        .json<{ myAgents: (MyAgent & { documents: unknown[] })[] }>()
        .myAgents.map((a) => [a.name, a.documents]),
    );
    expect(byName['loja-do-gil']).toEqual([
      {
        filename: 'trocas.md',
        pages: null,
        characters: keptDocument.characters,
        createdAt: keptDocument.createdAt,
      },
    ]);

    const owned = async () =>
      (await storedRows()).filter((row) => row.ownerId === gil.user.id).map((row) => row.agentId);
    const deleted = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/my-agents/${dropped.id}`,
      headers: { authorization: `Bearer ${gil.token}` },
    });
    expect(deleted.statusCode).toBe(200);
    expect(await owned()).toEqual([kept.id]);

    const closed = await post(
      ctx,
      '/api/account/delete',
      { password: gil.password },
      { token: gil.token },
    );
    expect(closed.statusCode, closed.body.slice(0, 200)).toBe(200);
    expect(await owned()).toEqual([]);
  });
});

describe('an own agent’s document that takes longer to read than its bound', () => {
  let ctx: TestContext;
  let owner: Account;
  let agentId: string;

  beforeAll(async () => {
    // A bound no reading meets (the thread alone takes longer to start): every read runs out.
    ctx = await createTestApp({
      without: NO_MONITOR,
      limits: { routes: UNLIMITED_ROUTES },
      documentReadTimeoutMs: 1,
    });
    owner = await registerAndLogin(ctx, { name: 'Ines' });
    const created = await post(ctx, '/api/my-agents', clinic('Clínica da Ines'), {
      token: owner.token,
    });
    expect(created.statusCode, created.body.slice(0, 300)).toBe(200);
    agentId = created.json<{ agent: MyAgent }>().agent.id;
  });
  afterAll(async () => ctx?.close());

  it('is stopped and refused with a clear 400 in the caller’s language, storing nothing', async () => {
    const bytes = await makePdf(POLICY_PAGES);
    for (const language of ['pt-BR', 'en-US', 'es-ES'] as const) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: documentsUrl(agentId),
        payload: documentForm({ name: 'Políticas 2026.pdf', bytes }),
        headers: { authorization: `Bearer ${owner.token}`, 'accept-language': language },
      });
      expect(res.statusCode, res.body.slice(0, 200)).toBe(400);
      expect(res.json()).toEqual({
        success: false,
        message: message(language, 'myAgents.documentTimeout'),
        errors: { file: message(language, 'myAgents.documentTimeout') },
      });
    }
    const listed = await get(ctx, documentsUrl(agentId), { token: owner.token });
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toEqual([]);
    expect(await ctx.database.db.select().from(agentDocuments)).toEqual([]);
  });
});
