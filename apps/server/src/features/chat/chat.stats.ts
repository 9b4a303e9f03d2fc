import type { User } from '@contrateia/shared';
import type { ChatContext } from './chat.deps';
import * as repo from './chat.repository';

/** The user's dashboard figures: agents hired, and their conversations and messages. */
export async function stats(
  { db, agents }: Pick<ChatContext, 'db' | 'agents'>,
  { user }: { user: User },
) {
  const [hiredAgents, activity] = await Promise.all([
    agents.countHired({ user }),
    repo.countUserActivity({ db, userId: user.id }),
  ]);
  return { hiredAgents, ...activity };
}

/** Conversations started and messages sent since `since`, by all users (the admin's live facts). */
export function countActivitySince({ db }: Pick<ChatContext, 'db'>, { since }: { since: Date }) {
  return repo.countActivitySince({ db, since });
}

/** How many conversations users have had with each agent (test chats are not among them). */
export function countConversationsByAgent({ db }: Pick<ChatContext, 'db'>) {
  return repo.countConversationsByAgent({ db });
}
