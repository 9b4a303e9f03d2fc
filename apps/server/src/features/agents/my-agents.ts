import { randomUUID } from 'node:crypto';
import {
  MY_AGENTS_MAX,
  RESERVED_AGENT_NAMES,
  SEEDED_AGENT_NAMES,
  type AgentConfiguration,
  type KnowledgeEntry,
  type Language,
  LANGUAGES,
  type MyAgent,
  type MyAgentContent,
} from '@contrateia/shared';
import type { Db } from '@/db/client';
import { createTranslator, type Translate } from '@/lib/i18n';
import { isUuid } from '@/lib/uuid';
import { detectLanguage } from '@/features/ai/ai.service';
import * as repo from './agents.repository';
import * as documentsRepo from './my-agent-documents.repository';
import { agentNotFound, myAgentLimit } from './agents.errors';
import type { AgentDocumentRow, AgentRow } from './agents.table';

/**
 * An account's own agents: a business teaches one about itself (profile, hours, catalogue,
 * frequent questions) in its own language, and chats with it; nobody else sees it (404). Each is
 * a row of the agents table with its owner, out of the catalogue, hired by its owner at once.
 * What the engines read (`configuration`) is made from what the owner wrote (`profile`) at each
 * save.
 */

/** What the owner wrote, and the language it is written in (the owner's interface's, when created). */
export type MyAgentProfile = MyAgentContent & { language: Language };

/** An agent's document as its knowledge is made from it: its name and its passages. */
export type DocumentKnowledge = Pick<AgentDocumentRow, 'id' | 'filename' | 'passages'>;

type Deps = { db: Db; now: () => Date };

/**
 * Raised with each change to what configurationOf makes of a profile (2: the business's hours,
 * its labelled contacts, no clock): every own agent made by an older one is made again at start
 * (refreshOwnAgents), so a customer is answered the new way without its owner saving again.
 */
export const OWN_CONFIGURATION_REVISION = 2;

const translate = createTranslator();

/** The longest name a slug keeps of the display name; a suffix ("-2") may follow. */
const SLUG_MAX = 36;

/**
 * The chat page's slug of a display name: "Clínica Sorriso" → `clinica-sorriso` (letters without
 * their accents, digits, dashes); `agente` when nothing is left.
 */
export function slugOf(displayName: string): string {
  const slug = displayName
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SLUG_MAX)
    .replace(/-+$/g, '');
  return slug.length >= 2 ? slug : 'agente';
}

/**
 * The language the owner wrote the agent's texts in, read from them (what the business is,
 * its questions and answers, its items): a Brazilian on the English interface writes Portuguese,
 * and the agent's knowledge must be searched as Portuguese. `fallback` when they say too little.
 */
export function languageOfContent(content: MyAgentContent, fallback: Language): Language {
  const texts = [
    content.business.about,
    ...content.faq.flatMap((entry) => [entry.question, entry.answer]),
    ...content.catalogue.map((item) => item.name),
  ];
  return detectLanguage(texts.join('\n').slice(0, 2000), fallback);
}

/** The same value in every interface language: an own agent's texts are written once, in its owner's. */
const everyLanguage = <T>(value: T): Record<Language, T> =>
  Object.fromEntries(LANGUAGES.map((language) => [language, value])) as Record<Language, T>;

/**
 * What the engines read of an own agent, made from what its owner wrote: the business's
 * presentation, each frequent question and each passage of its documents (`documents`, oldest
 * first; each names its document as its `source`) as knowledge in the agent's language, the
 * catalogue as the catalogue skill's (prices in reais, each with its unit in the owner's words),
 * and the owner's instructions.
 */
export function configurationOf(
  profile: MyAgentProfile,
  documents: readonly DocumentKnowledge[] = [],
): AgentConfiguration {
  const { language, business, catalogue, faq } = profile;
  const t: Translate = translate(language);
  // Labelled, and found by the words people ask them with ("qual o endereço?", "telefone").
  const contact = (['address', 'phone', 'website'] as const)
    .filter((field) => business[field])
    .map((field) => `${t(`myAgents.label.${field}`)}: ${business[field]}`)
    .join('\n');
  const knowledge: KnowledgeEntry[] = [
    {
      id: `business.${language}`,
      language,
      title: business.name,
      content: contact ? `${business.about}\n\n${contact}` : business.about,
      keywords: t('myAgents.businessTopics').split(', '),
    },
    ...faq.map((entry, index) => ({
      id: `faq-${index + 1}.${language}`,
      language,
      title: entry.question,
      content: entry.answer,
      keywords: entry.alternates,
    })),
    ...documents.flatMap((document) =>
      document.passages.map((passage, index) => ({
        id: `doc-${document.id}-${index + 1}.${language}`,
        language,
        title: passage.heading ?? document.filename,
        content: passage.text,
        keywords: [],
        source: document.filename,
      })),
    ),
  ];
  return {
    ownRevision: OWN_CONFIGURATION_REVISION,
    instructions: profile.instructions,
    welcomeMessage: everyLanguage(t('myAgents.welcome', { name: profile.displayName })),
    model: { model: null, temperature: 0.3, maxReplyLength: 2000 },
    knowledge,
    capabilities: {
      // No clock: "que horas passa o ônibus?" is no question for the business; its hours are.
      skills: catalogue.length > 0 ? ['catalogue'] : [],
      fallback: 'notFound',
    },
    ...(business.hours.length > 0
      ? {
          business: {
            name: business.name,
            timeZone: business.timeZone,
            hours: business.hours,
            closedDates: business.closedDates,
          },
        }
      : {}),
    ...(catalogue.length > 0
      ? {
          catalogue: {
            currency: 'BRL',
            items: catalogue.map((item, index) => ({
              id: `item-${index + 1}`,
              name: everyLanguage(item.name),
              description: everyLanguage(item.description ?? ''),
              keywords: everyLanguage<string[]>([]),
              price: item.price,
              unit: 'once' as const,
              unitText: item.unit ?? '',
            })),
          },
        }
      : {}),
  };
}

/** An own agent as its owner reads it. */
export function toMyAgent(row: AgentRow): MyAgent {
  const profile = row.profile as MyAgentProfile;
  return {
    id: row.id,
    name: row.name,
    displayName: profile.displayName,
    description: profile.description,
    instructions: profile.instructions,
    business: profile.business,
    catalogue: profile.catalogue,
    faq: profile.faq,
    createdAt: row.createdAt.toISOString(),
    updatedAt: (row.updatedAt ?? row.createdAt).toISOString(),
  };
}

/** The columns an own agent's content is stored in, its documents' passages in its knowledge. */
function columnsOf(profile: MyAgentProfile, documents: readonly DocumentKnowledge[] = []) {
  return {
    displayName: everyLanguage(profile.displayName),
    description: everyLanguage(profile.description),
    // A stamp of its own at each change: engines keep its search index by it (engineAgentOf).
    configuration: { ...configurationOf(profile, documents), stamp: randomUUID() },
    profile,
  };
}

/**
 * Inside `tx`, which holds the agent's row locked (documentsRepo.lockOwnAgent): makes its
 * configuration again from its profile and its documents as they are now, and marks it saved at
 * `at`. Run after every change to either.
 */
export async function recomputeConfiguration(
  tx: Db,
  {
    ownerId,
    agent,
    profile,
    at,
  }: { ownerId: string; agent: AgentRow; profile?: MyAgentProfile; at: Date },
): Promise<AgentRow> {
  const documents = await documentsRepo.listPassages({ db: tx, agentId: agent.id });
  const row = await repo.updateOwnAgent({
    db: tx,
    ownerId,
    id: agent.id,
    set: {
      ...columnsOf(profile ?? (agent.profile as MyAgentProfile), documents),
      updatedAt: at,
    },
  });
  if (!row) throw agentNotFound();
  return row;
}

/**
 * Makes again the configuration of every own agent made by an older revision of configurationOf,
 * each in a transaction of its own with its row locked, keeping its updatedAt (its owner changed
 * nothing), its language read again from its texts. Run at start; two instances starting together
 * make the same configuration.
 */
export async function refreshOwnAgents({ db }: Deps): Promise<number> {
  const stale = await repo.staleOwnAgents({ db, revision: OWN_CONFIGURATION_REVISION });
  for (const { id, ownerId } of stale) {
    if (!ownerId) continue;
    await db.transaction(async (tx) => {
      const agent = await documentsRepo.lockOwnAgent({ db: tx, ownerId, id });
      if (!agent) return;
      const profile = agent.profile as MyAgentProfile;
      await recomputeConfiguration(tx, {
        ownerId,
        agent,
        profile: { ...profile, language: languageOfContent(profile, profile.language) },
        at: agent.updatedAt ?? agent.createdAt,
      });
    });
  }
  return stale.length;
}

export async function listMyAgents({ db }: Deps, ownerId: string): Promise<MyAgent[]> {
  return (await repo.listOwnAgents({ db, ownerId })).map(toMyAgent);
}

/** One of the caller's own agents; 404 for none, a deleted one, or another account's. */
export async function getMyAgent({ db }: Deps, ownerId: string, id: string): Promise<AgentRow> {
  const row = isUuid(id) ? await repo.findOwnAgent({ db, ownerId, id }) : undefined;
  if (!row) throw agentNotFound();
  return row;
}

/**
 * Makes an agent of the account's own (400 past MY_AGENTS_MAX), hired by it at once, with a
 * slug made from its display name: unique within the account, and never a catalogue agent's name
 * or a route of the app, so that `/agent/{name}` is the one agent.
 */
export async function createMyAgent(
  { db, now }: Deps,
  {
    ownerId,
    content,
    language,
    catalogueNames,
  }: {
    ownerId: string;
    content: MyAgentContent;
    language: Language;
    /** Every catalogue agent's name, deleted ones too. */
    catalogueNames: ReadonlySet<string>;
  },
): Promise<AgentRow> {
  const profile: MyAgentProfile = { ...content, language: languageOfContent(content, language) };
  const at = now();
  return db.transaction(async (tx) => {
    if ((await repo.lockOwnAgentCount({ db: tx, ownerId })) >= MY_AGENTS_MAX) throw myAgentLimit();
    const taken = await repo.ownAgentNames({ db: tx, ownerId });
    const base = slugOf(content.displayName);
    const unavailable = (name: string) =>
      taken.has(name) ||
      catalogueNames.has(name) ||
      RESERVED_AGENT_NAMES.includes(name) ||
      (SEEDED_AGENT_NAMES as readonly string[]).includes(name);
    let name = base;
    for (let suffix = 2; unavailable(name); suffix += 1) name = `${base}-${suffix}`;
    // The account's row is locked: no other request of its owner adds an agent meanwhile.
    const row = await repo.insertOwnAgent({
      db: tx,
      ownerId,
      name,
      content: columnsOf(profile),
      at,
    });
    if (!row) throw new Error(`own agent name ${name} taken despite the lock`);
    await repo.insertHire({ db: tx, userId: ownerId, agentId: row.id });
    return row;
  });
}

/** Replaces what one of the caller's own agents knows (404 as getMyAgent); its name stays. */
export async function updateMyAgent(
  { db, now }: Deps,
  { ownerId, id, content }: { ownerId: string; id: string; content: MyAgentContent },
): Promise<AgentRow> {
  if (!isUuid(id)) throw agentNotFound();
  // Locked, so that a document added or removed meanwhile is in the knowledge saved, or after it.
  return db.transaction(async (tx) => {
    const current = await documentsRepo.lockOwnAgent({ db: tx, ownerId, id });
    if (!current) throw agentNotFound();
    const { language } = current.profile as MyAgentProfile;
    return recomputeConfiguration(tx, {
      ownerId,
      agent: current,
      profile: { ...content, language: languageOfContent(content, language) },
      at: now(),
    });
  });
}

/**
 * Deletes one of the caller's own agents (404 as getMyAgent): it stops answering and leaves the
 * account's lists, and its documents are removed; its past conversations stay, and its name stays
 * taken in the account.
 */
export async function deleteMyAgent(
  { db, now }: Deps,
  { ownerId, id }: { ownerId: string; id: string },
): Promise<AgentRow> {
  if (!isUuid(id)) throw agentNotFound();
  const row = await db.transaction(async (tx) => {
    const deleted = await repo.softDeleteOwnAgent({ db: tx, ownerId, id, at: now() });
    if (deleted) await documentsRepo.deleteAgentDocuments({ db: tx, agentId: id });
    return deleted;
  });
  if (!row) throw agentNotFound();
  return row;
}
