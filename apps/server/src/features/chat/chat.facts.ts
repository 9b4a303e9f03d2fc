import type { Database } from '@/db/client';
import type { Clock } from '@/lib/clock';
import type { Mailer } from '@/lib/mail';
import { startOfDay, startOfWeek } from '@/lib/time-zone';
import type { AuthService } from '@/features/auth/auth.service';
import type { LiveFacts } from '@/features/ai/ai.service';
import * as repo from './chat.repository';

/**
 * The admin's live figures (the liveFacts skill of administrador): accounts, conversations and
 * messages in all, today and this week in the admin's zone, the newest accounts, and whether the
 * database and the mail answer. The conversations are this feature's; the accounts are read
 * through the auth service.
 */
export function createLiveFacts({
  database,
  clock,
  mailer,
  accounts,
}: {
  database: Pick<Database, 'db' | 'kind' | 'ping'>;
  clock: Clock;
  mailer: Pick<Mailer, 'kind'>;
  accounts: Pick<AuthService, 'countUsers' | 'newestUsers'>;
}): (timeZone: string) => Promise<LiveFacts> {
  return async (timeZone) => {
    const now = new Date(clock.now());
    const counts = async (since?: Date) => {
      const [users, activity] = await Promise.all([
        accounts.countUsers(since),
        repo.countActivitySince({ db: database.db, since: since ?? new Date(0) }),
      ]);
      return { users, ...activity };
    };
    const [total, today, week, newestUsers, ok] = await Promise.all([
      counts(),
      counts(startOfDay(now, timeZone)),
      counts(startOfWeek(now, timeZone)),
      accounts.newestUsers(5),
      database.ping(),
    ]);
    return {
      activity: { total, today, week },
      newestUsers,
      timeZone,
      database: { kind: database.kind, ok },
      mail: mailer.kind,
    };
  };
}
