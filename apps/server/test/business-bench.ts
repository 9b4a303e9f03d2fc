import fs from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { myAgentInputSchema, type MyAgentContent } from '@contrateia/shared';
import { createDocumentReader } from '../src/features/agents/my-agent-documents.reader';
import { configurationOf, type DocumentKnowledge } from '../src/features/agents/my-agents';
import { createBuiltinAnswerer } from '../src/features/ai/ai.builtin';
import type { EngineRequest } from '../src/features/ai/ai.service';

// `npm run bench`'s figures for an account's own agents: reading a 200-page PDF (how
// long, and the event loop's longest stall meanwhile: the reading runs on a thread of its own),
// and the builtin engine's answers with 20 agents of 300 frequent questions and 1,000 passages
// each (answers per second, p50 and p99, after each agent's index is built: its build time, and
// the event loop's longest stall while it is built, are figures of their own). Each question reads its agent as the server does, a new copy of an
// unchanged configuration, named by its version.

const PAGES = 200;
const AGENTS = 20;
const FAQ = 300;
const PASSAGES = 1000;
const QUESTIONS = 4000;

/** Words a business writes with, to make texts that differ from one another. */
const WORDS = (
  'atendimento horário preço consulta entrega pagamento cartão parcelamento garantia troca ' +
  'devolução prazo orçamento agendamento estacionamento acessibilidade convênio reembolso ' +
  'documento receita produto serviço manutenção instalação revisão limpeza pintura reforma ' +
  'viagem reserva cancelamento multa desconto cupom frete retirada loja unidade bairro cidade'
).split(' ');

/** A deterministic sequence of word indices: the same texts on every run. */
function* picks(seed: number): Generator<number> {
  let x = seed;
  for (;;) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    yield x % WORDS.length;
  }
}

function sentence(next: Generator<number>, length: number): string {
  return Array.from({ length }, () => WORDS[next.next().value as number]).join(' ');
}

async function pdfOfPages(pages: number): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const next = picks(7);
  for (let n = 1; n <= pages; n += 1) {
    const page = pdf.addPage([595, 842]);
    page.drawText(`Capítulo ${n}`, { x: 50, y: 790, font, size: 18 });
    for (let line = 0; line < 40; line += 1)
      page.drawText(sentence(next, 9), { x: 50, y: 750 - line * 16, font, size: 11 });
  }
  return pdf.save();
}

/** Reads a 200-page PDF as an upload does, watching the event loop meanwhile. */
async function readPdfRows(): Promise<[string, string][]> {
  const bytes = await pdfOfPages(PAGES);
  const reader = createDocumentReader();
  try {
    // The thread's start is not the document's: one small read first.
    await reader.read({ kind: 'pdf', bytes: await pdfOfPages(1) });
    const stalls = monitorEventLoopDelay({ resolution: 5 });
    stalls.enable();
    const started = performance.now();
    const document = await reader.read({ kind: 'pdf', bytes });
    const ms = performance.now() - started;
    stalls.disable();
    return [
      [
        `own agent document: a ${PAGES}-page PDF read`,
        `${(ms / 1000).toFixed(2)} s for ${document.characters.toLocaleString('en-US')} characters in ${document.passages.length} passages, ${(bytes.length / 1024).toFixed(0)} KB; the event loop's longest stall meanwhile ${(stalls.max / 1e6).toFixed(1)} ms`,
      ],
    ];
  } finally {
    await reader.close();
  }
}

/** One business of the benchmark: the example clinic's profile, with many more questions and passages. */
function businessOf(n: number, example: MyAgentContent) {
  const next = picks(1000 + n);
  const faq = Array.from({ length: FAQ }, (_, i) => ({
    question: `${sentence(next, 4)} ${i}?`,
    answer: sentence(next, 30),
    alternates: [sentence(next, 4)],
  }));
  const passages = Array.from({ length: PASSAGES }, (_, i) => ({
    text: sentence(next, 110),
    page: Math.floor(i / 5) + 1,
    heading: sentence(next, 3),
  }));
  const documents: DocumentKnowledge[] = [{ id: `doc-${n}`, filename: 'Manual.pdf', passages }];
  const configuration = configurationOf({ ...example, faq, language: 'pt-BR' }, documents);
  return { name: `negocio-${n}`, configuration, questions: faq.map((entry) => entry.question) };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;

/** Answers to QUESTIONS questions spread over AGENTS agents, one after the other. */
async function answerRows(): Promise<[string, string][]> {
  const example = myAgentInputSchema.parse(
    JSON.parse(
      fs.readFileSync(path.join(import.meta.dirname, 'examples/clinica-sorriso.json'), 'utf8'),
    ),
  );
  const agents = Array.from({ length: AGENTS }, (_, n) => businessOf(n, example));
  const answer = createBuiltinAnswerer();
  const asked = (n: number, message: string): EngineRequest => {
    const agent = agents[n % AGENTS]!;
    // A new copy of the same configuration, as a row read from the database is.
    const configuration = { ...agent.configuration };
    return {
      agent: { name: agent.name, configuration, version: `${agent.name}@1` },
      message,
      language: 'pt-BR',
    };
  };
  const builds: number[] = [];
  const buildStalls = monitorEventLoopDelay({ resolution: 5 });
  buildStalls.enable();
  for (let n = 0; n < AGENTS; n += 1) {
    const started = performance.now();
    await answer(asked(n, 'qual o horário?'));
    builds.push(performance.now() - started);
  }
  buildStalls.disable();
  const times: number[] = [];
  const next = picks(99);
  const started = performance.now();
  for (let i = 0; i < QUESTIONS; i += 1) {
    const agent = agents[i % AGENTS]!;
    // Its own questions asked in other words, and questions about nothing it knows.
    const message =
      i % 4 === 3
        ? `${sentence(next, 5)}?`
        : agent.questions[next.next().value! % agent.questions.length]!;
    const one = performance.now();
    await answer(asked(i, message));
    times.push(performance.now() - one);
  }
  const seconds = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  builds.sort((a, b) => a - b);
  const p99 = percentile(times, 99);
  return [
    [
      `own agents: builtin answers, ${AGENTS} agents of ${FAQ} questions and ${PASSAGES} passages`,
      `${(QUESTIONS / seconds).toFixed(0)} answers/s, p50 ${percentile(times, 50).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms (target p99 < 50) ${p99 < 50 ? 'ok' : 'MISSED'}`,
    ],
    [
      'own agents: an agent’s index built, at its first question after a change',
      `median ${percentile(builds, 50).toFixed(0)} ms, slowest ${builds.at(-1)!.toFixed(0)} ms; the event loop's longest stall meanwhile ${(buildStalls.max / 1e6).toFixed(1)} ms`,
    ],
  ];
}

export async function businessAgentRows(): Promise<[string, string][]> {
  return [...(await readPdfRows()), ...(await answerRows())];
}
