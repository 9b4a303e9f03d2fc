import type { Language, User, WhatsAppAgent } from '@contrateia/shared';
import { status } from './whatsapp.connection';
import { DEFAULT_LANGUAGE, type WhatsAppContext } from './whatsapp.deps';
import { agentNotAvailable } from './whatsapp.errors';
import * as repo from './whatsapp.repository';

/**
 * The agents that may answer the caller's conversations: their own agents first, then their other
 * hired, active agents; never an admin-only one.
 */
export async function availableAgents(
  { agents }: Pick<WhatsAppContext, 'agents'>,
  { user, language }: { user: User; language: Language },
): Promise<WhatsAppAgent[]> {
  return (await agents.listForContacts({ user, language })).map((a) => ({
    id: a.id,
    name: a.name,
    displayName: a.displayName,
    description: a.description,
    own: a.own,
  }));
}

/** Refuses an agent that may not answer the caller's conversations, on the field that named it. */
export async function assertAnswering(
  deps: Pick<WhatsAppContext, 'agents'>,
  {
    user,
    agentId,
    field,
  }: {
    user: User;
    agentId: string;
    field: 'agentId' | 'defaultAgentId';
  },
) {
  const available = await availableAgents(deps, { user, language: DEFAULT_LANGUAGE });
  if (!available.some((a) => a.id === agentId)) throw agentNotAvailable({ field });
}

export async function updateSettings(
  deps: Pick<WhatsAppContext, 'db' | 'clock' | 'agents' | 'events' | 'media'>,
  {
    user,
    whitelistMode,
    defaultAgentId,
  }: {
    user: User;
    whitelistMode?: boolean;
    defaultAgentId?: string | null;
  },
) {
  const { db, clock, events } = deps;
  if (defaultAgentId)
    await assertAnswering(deps, { user, agentId: defaultAgentId, field: 'defaultAgentId' });
  await repo.ensureAccount({ db, userId: user.id, now: clock.now() });
  await repo.updateAccount({
    db,
    userId: user.id,
    set: {
      ...(whitelistMode === undefined ? {} : { whitelistMode }),
      ...(defaultAgentId === undefined ? {} : { defaultAgentId }),
      updatedAt: clock.now(),
    },
  });
  const current = await status(deps, { userId: user.id });
  events.emit(user.id, 'whatsapp:settings_changed', { whitelistMode: current.whitelistMode });
  return current;
}

/**
 * An agent an admin deleted answers nobody's contacts: the conversations assigned to it and the
 * accounts that had it as their default go back to their defaults, and their owners' open pages
 * read their data again.
 */
export async function releaseAgent(
  deps: Pick<WhatsAppContext, 'db' | 'agents' | 'events' | 'media'>,
  { agentId }: { agentId: string },
): Promise<void> {
  const { db, events } = deps;
  for (const userId of await repo.unassignAgent({ db, agentId })) {
    const current = await status(deps, { userId });
    events.emit(userId, 'whatsapp:settings_changed', { whitelistMode: current.whitelistMode });
  }
}
