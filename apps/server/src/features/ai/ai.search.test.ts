import { describe, expect, it } from 'vitest';
import type { Language } from '@contrateia/shared';
import { PerConfiguration, indexFor, queryTerms, words } from './ai.search';
import { topic } from './ai.test-fixtures';

// Two entries that share their one topic word, "agent": which one a question is about shows
// only in the words search drops ("which agents" against "hire an agent").
const KNOWLEDGE = [
  ...topic('hire', '/dashboard', {
    'pt-BR': {
      title: 'Contratar um agente',
      content: 'No Painel, clique em Contratar no agente: o agente passa para os seus agentes.',
      keywords: ['contratar', 'agente', 'novo agente'],
    },
    'en-US': {
      title: 'Hire an agent',
      content: 'On the Dashboard, click Hire on the agent: the agent moves to your agents.',
      keywords: ['hire', 'agent', 'new agent'],
    },
    'es-ES': {
      title: 'Contratar un agente',
      content: 'En el Panel, haz clic en Contratar en el agente: el agente pasa a tus agentes.',
      keywords: ['contratar', 'agente', 'nuevo agente'],
    },
  }),
  ...topic('agents', '/dashboard', {
    'pt-BR': {
      title: 'Os agentes',
      content: 'O Guia mostra o caminho e o Assistente faz contas.',
      keywords: ['agentes', 'quais agentes', 'o que é'],
    },
    'en-US': {
      title: 'The agents',
      content: 'The Guide shows you around and the Assistant does sums.',
      keywords: ['agents', 'which agents', 'what is this'],
    },
    'es-ES': {
      title: 'Los agentes',
      content: 'La Guía te orienta y el Asistente hace cuentas.',
      keywords: ['agentes', 'qué agentes', 'qué es'],
    },
  }),
];

/** The topic of the entry the index finds for `question`, as the engine asks it. */
async function bestFor(
  language: Language,
  question: string,
  withPhrases = true,
): Promise<string | undefined> {
  const index = await indexFor(KNOWLEDGE, language);
  const said = index.correctSwaps(words(question));
  const match = index.best(queryTerms(said.join(' '), language), withPhrases ? said : []);
  return match?.entry.id.replace(`.${language}`, '');
}

describe('KnowledgeIndex.correctSwaps', () => {
  it.each<[Language, string, string]>([
    ['en-US', 'how do i hire an agnet', 'how do i hire an agent'],
    ['en-US', 'which agnets are there', 'which agents are there'],
    ['pt-BR', 'como contrato um agnete', 'como contrato um agente'],
    ['es-ES', 'que agnetes hay', 'que agentes hay'],
  ])('%s: writes a swapped pair of letters right: %s', async (language, typed, meant) => {
    expect((await indexFor(KNOWLEDGE, language)).correctSwaps(words(typed)).join(' ')).toBe(meant);
  });

  it.each<[Language, string]>([
    // Known words, the start of one (prefix search finds it) and stopwords stay.
    ['en-US', 'hire an agent'],
    ['en-US', 'dashbo'],
    ['en-US', 'which there'],
    // Words that are no swap of a term of this knowledge stay as typed, however close.
    ['en-US', 'write me a poem about the sea'],
    ['en-US', 'tell me about angels'],
    // Words shorter than fuzzy matching needs: "hrie" could be "hire", or not.
    ['en-US', 'hrie'],
  ])('%s: leaves alone: %s', async (language, typed) => {
    expect((await indexFor(KNOWLEDGE, language)).correctSwaps(words(typed)).join(' ')).toBe(typed);
  });

  it("corrects only into the agent's own knowledge", async () => {
    const index = await indexFor(
      KNOWLEDGE.filter((entry) => entry.id.startsWith('agents.')),
      'en-US',
    );
    expect(index.correctSwaps(['hrie', 'dashbaord'])).toEqual(['hrie', 'dashbaord']);
    expect((await indexFor(KNOWLEDGE, 'en-US')).correctSwaps(['dashbaord'])).toEqual(['dashboard']);
  });
});

describe('KnowledgeIndex.best: a title or keyword said in full', () => {
  it.each<[Language, string, string]>([
    ['en-US', 'which agents are there?', 'agents'],
    ['en-US', 'which agnets are there?', 'agents'],
    ['en-US', 'how do I hire an agent?', 'hire'],
    ['en-US', 'how do I hire an agnet?', 'hire'],
    ['pt-BR', 'quais agentes tem?', 'agents'],
    ['pt-BR', 'como contrato um agente?', 'hire'],
    ['es-ES', '¿qué agentes hay?', 'agents'],
    ['es-ES', '¿cómo contrato un agente?', 'hire'],
  ])('%s: %s → %s', async (language, question, expected) => {
    expect(await bestFor(language, question)).toBe(expected);
  });

  it('decides only between entries equal on coverage and topic words; the score decides otherwise', async () => {
    // Without the phrase, "which agents are there" is the one word "agent", which the hiring
    // entry says more often.
    expect(await bestFor('en-US', 'which agents are there?', false)).toBe('hire');
    // A phrase of stopwords alone ("what is this", "o que é") is about no topic.
    expect(await bestFor('en-US', 'what is this agent?')).toBe('hire');
    expect(await bestFor('pt-BR', 'o que é um agente?')).toBe('hire');
  });
});

describe('what an engine derives from a configuration, kept', () => {
  it('once per object; for copies read anew for each question, once per version', () => {
    const kept = new PerConfiguration<number>();
    let builds = 0;
    const build = () => (builds += 1);
    const configuration = {};
    kept.get(configuration, 'pt-BR', build);
    kept.get(configuration, 'pt-BR', build);
    expect(builds).toBe(1);
    // An own agent's row, read twice unchanged: two objects, one version, one build.
    kept.get({}, 'pt-BR', build, 'agent-1@1000');
    kept.get({}, 'pt-BR', build, 'agent-1@1000');
    expect(builds).toBe(2);
    // Changed (a save, a document): a new version, built again; each language its own.
    kept.get({}, 'pt-BR', build, 'agent-1@2000');
    kept.get({}, 'en-US', build, 'agent-1@2000');
    expect(builds).toBe(4);
  });
});
