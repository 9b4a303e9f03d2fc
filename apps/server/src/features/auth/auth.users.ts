import type { User } from '@contrateia/shared';
import { isUuid } from '@/lib/uuid';
import { toUser } from './auth.account-rows';
import type { AuthDeps } from './auth.deps';
import * as repo from './auth.repository';

// Reads of accounts that other features make: the admin's lists and figures, the agents' and
// chat's checks, work done for an account outside a request.

/** An account as an admin sees it: no password hash; when any of its sessions was last used. */
export type Account = repo.AccountRow;

type Reads = Pick<AuthDeps, 'db'>;

export async function getUser({ db }: Reads, { id }: { id: string }): Promise<User | undefined> {
  const row = await repo.findUserById({ db, id });
  return row && toUser(row);
}

/** Whether the account exists and an admin has not deactivated it: work done for it outside a request asks. */
export async function isAccountActive(
  { authenticator }: Pick<AuthDeps, 'authenticator'>,
  userId: string,
): Promise<boolean> {
  if (!isUuid(userId)) return false;
  return (await authenticator.activeUser(userId)) !== undefined;
}

/**
 * The account whose WhatsApp number is the platform's (WHATSAPP_PLATFORM_ACCOUNT): the one with
 * `email` when given (none when no account has it: never another in its place), else the first
 * administrator (by origin). Its id and e-mail, or undefined.
 */
export async function platformAccount(
  { db }: Reads,
  { email }: { email?: string },
): Promise<{ id: string; email: string } | undefined> {
  const row = email ? await repo.findUserByEmail({ db, email }) : await repo.findFirstAdmin({ db });
  return row && { id: row.id, email: row.email };
}

/** The one agent of an account made for one agent; null for any other (or no such account). */
export async function singleAgentOf({ db }: Reads, userId: string): Promise<string | null> {
  if (!isUuid(userId)) return null;
  const row = await repo.findUserById({ db, id: userId });
  return row?.singleAgentName ?? null;
}

export async function isSingleAgentUser(deps: Reads, userId: string): Promise<boolean> {
  return Boolean(await singleAgentOf(deps, userId));
}

/** How many active accounts have `agentName` as their one agent. */
export function countSingleAgentAccounts(
  { db }: Reads,
  { agentName }: { agentName: string },
): Promise<number> {
  return repo.countActiveSingleAgentAccounts({ db, agentName });
}

/** Accounts in all, or registered since `since`. */
export function countUsers({ db }: Reads, since?: Date): Promise<number> {
  return repo.countUsers({ db, since });
}

/** The newest accounts, for the admin's live figures. */
export function newestUsers({ db }: Reads, limit: number) {
  return repo.newestUsers({ db, limit });
}

/** Accounts whose name, e-mail or username contains `search`, newest first, and how many match. */
export async function listAccounts(
  { db }: Reads,
  { search, limit, offset }: { search: string; limit: number; offset: number },
): Promise<{ accounts: Account[]; total: number }> {
  const { rows, total } = await repo.listAccounts({ db, search, limit, offset });
  return { accounts: rows, total };
}

/** Names and e-mails of these accounts, by id; those deleted are missing. */
export async function findAccountNames(
  { db }: Reads,
  { ids }: { ids: string[] },
): Promise<Map<string, { id: string; name: string; email: string }>> {
  const rows = await repo.findUsersByIds({ db, ids: [...new Set(ids)] });
  return new Map(rows.map((row) => [row.id, row]));
}
