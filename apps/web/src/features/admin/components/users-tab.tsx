import { ADMIN_PAGE_LIMIT, type AdminUser } from '@contrateia/shared';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { DataTable } from '@/components/ui/data-table';
import { Dialog } from '@/components/ui/dialog';
import { LiveMessage } from '@/components/ui/live-message';
import { useAdminUsers } from '@/features/admin/api/get-users';
import { useSetUserRole, useSetUserStatus } from '@/features/admin/api/user-actions';
import { CreateSingleAgentUserDialog } from '@/features/admin/components/create-single-agent-user-dialog';
import { failureText } from '@/features/admin/failure-text';
import { useDateFormat } from '@/hooks/use-date-format';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { SUCCESS_MESSAGE_MS, useTimedMessage } from '@/hooks/use-timed-message';
import { ApiError } from '@/lib/api-client';
import { cx } from '@/lib/cx';
import '@/features/admin/admin-manage.css';

/** The search asks the server once typing pauses this long. */
const SEARCH_DELAY_MS = 300;

/** A change the admin confirms before it is made. */
type UserAction = { user: AdminUser; kind: 'activate' | 'deactivate' | 'makeAdmin' | 'makeUser' };

/** The account's standing role: an admin in user mode is still an admin. */
const rankOf = (user: AdminUser) => user.originalRole;

/**
 * The Users tab: every account, searched (debounced) and paged; each can be activated or
 * deactivated and made an admin or a user, after a confirmation, with the server's refusals (one's
 * own account, the last admin) shown where they were asked. Single-agent accounts are created here
 * too.
 */
export function UsersTab({ userId }: { userId: string }) {
  const { t } = useTranslation();
  const headingId = useId();
  const searchId = useId();
  const [search, setSearch] = useState('');
  const query = useDebouncedValue(search.trim(), SEARCH_DELAY_MS);
  const [page, setPage] = useState({ query, offset: 0 });
  // A new search starts at its first page (adjusting state while rendering, once per search).
  if (page.query !== query) setPage({ query, offset: 0 });
  const limit = ADMIN_PAGE_LIMIT.default;
  const users = useAdminUsers({ search: page.query, limit, offset: page.offset });
  const [action, setAction] = useState<UserAction | null>(null);
  const [creating, setCreating] = useState(false);
  const notice = useTimedMessage(SUCCESS_MESSAGE_MS);
  const createButton = useRef<HTMLButtonElement>(null);

  const total = users.data?.total ?? 0;
  const shown = users.data?.users ?? [];
  const from = shown.length > 0 ? page.offset + 1 : 0;
  const to = page.offset + shown.length;

  return (
    <section className="admin-manage" aria-labelledby={headingId}>
      <div className="admin-manage__header">
        <h2 id={headingId} className="admin-manage__title">
          {t('users.title')}
        </h2>
        <Button ref={createButton} onClick={() => setCreating(true)}>
          {t('users.create.open')}
        </Button>
      </div>
      <LiveMessage tone="success" message={notice.message} />
      <div className="field admin-users__search">
        <label htmlFor={searchId} className="field__label">
          {t('users.search.label')}
        </label>
        <input
          id={searchId}
          type="search"
          className="field__input"
          placeholder={t('users.search.placeholder')}
          autoComplete="off"
          maxLength={200}
          value={search}
          onChange={(event) => setSearch(event.target.value)}
        />
      </div>

      {users.isPending ? (
        <p className="admin-manage__state">{t('users.list.loading')}</p>
      ) : users.isError && !users.data ? (
        <div className="admin-manage__state">
          <p className="alert alert--error" role="alert">
            {failureText(users.error, t('users.list.loadFailed'))}
          </p>
          <Button variant="secondary" onClick={() => void users.refetch()}>
            {t('users.list.retry')}
          </Button>
        </div>
      ) : shown.length === 0 ? (
        <p className="admin-manage__state" role="status">
          {page.query ? t('users.list.noMatch', { search: page.query }) : t('users.list.empty')}
        </p>
      ) : (
        <>
          <p className="admin-users__count" role="status">
            {t('users.list.showing', { from, to, total })}
          </p>
          <UsersTable
            users={shown}
            userId={userId}
            busy={users.isPlaceholderData}
            onAction={(user, kind) => setAction({ user, kind })}
          />
          <nav className="admin-pager" aria-label={t('users.list.pages')}>
            <Button
              variant="secondary"
              disabled={page.offset === 0 || users.isFetching}
              onClick={() =>
                setPage((old) => ({ ...old, offset: Math.max(0, old.offset - limit) }))
              }
            >
              {t('users.list.previous')}
            </Button>
            <Button
              variant="secondary"
              disabled={to >= total || users.isFetching}
              onClick={() => setPage((old) => ({ ...old, offset: old.offset + limit }))}
            >
              {t('users.list.next')}
            </Button>
          </nav>
        </>
      )}

      {action && (
        <UserActionDialog
          action={action}
          onClose={() => setAction(null)}
          onDone={(message) => {
            setAction(null);
            notice.show(message);
          }}
        />
      )}
      {creating && (
        <CreateSingleAgentUserDialog
          onClose={() => setCreating(false)}
          onCreated={(message) => {
            setCreating(false);
            notice.show(message);
            createButton.current?.focus();
          }}
        />
      )}
    </section>
  );
}

function UsersTable({
  users,
  userId,
  busy,
  onAction,
}: {
  users: AdminUser[];
  /** The signed-in admin's own account. */
  userId: string;
  busy: boolean;
  onAction: (user: AdminUser, kind: UserAction['kind']) => void;
}) {
  const { t } = useTranslation();
  const { dateTime } = useDateFormat();
  const columns = {
    name: t('users.columns.name'),
    email: t('users.columns.email'),
    username: t('users.columns.username'),
    role: t('users.columns.role'),
    singleAgent: t('users.columns.singleAgent'),
    created: t('users.columns.created'),
    lastSeen: t('users.columns.lastSeen'),
    status: t('users.columns.status'),
    actions: t('users.columns.actions'),
  };
  return (
    <DataTable
      className="admin-table"
      caption={t('users.list.caption')}
      columns={Object.values(columns)}
      busy={busy}
    >
      {users.map((user) => {
        const admin = rankOf(user) === 'admin';
        return (
          <tr key={user.id} aria-label={user.name}>
            <th scope="row" data-label={columns.name}>
              {user.name}
            </th>
            <td data-label={columns.email} className="admin-table__email">
              {user.email}
            </td>
            <td data-label={columns.username} className="admin-table__username">
              {user.username}
            </td>
            <td data-label={columns.role}>
              {admin ? t('users.roles.admin') : t('users.roles.user')}
              {user.role !== user.originalRole && (
                <span className="admin-table__note"> ({t('users.roles.inUserMode')})</span>
              )}
            </td>
            <td data-label={columns.singleAgent}>
              {user.singleAgent ? user.singleAgent.displayName : t('users.list.none')}
            </td>
            <td data-label={columns.created}>
              <time dateTime={user.createdAt}>{dateTime(user.createdAt)}</time>
            </td>
            <td data-label={columns.lastSeen}>
              {user.lastSeenAt ? (
                <time dateTime={user.lastSeenAt}>{dateTime(user.lastSeenAt)}</time>
              ) : (
                t('users.list.never')
              )}
            </td>
            <td data-label={columns.status}>
              {user.isActive ? (
                <Badge tone="success">{t('users.status.active')}</Badge>
              ) : (
                <span className="badge admin-badge--off">{t('users.status.inactive')}</span>
              )}
            </td>
            <td data-label={columns.actions}>
              {/* The server refuses to deactivate or demote oneself: the own row offers neither. */}
              {user.id === userId ? (
                <span className="admin-table__note">{t('users.list.ownAccount')}</span>
              ) : (
                <div className="admin-table__actions">
                  <Button
                    variant="secondary"
                    className={cx(user.isActive && 'admin-danger-text')}
                    aria-label={t(
                      user.isActive ? 'users.actions.deactivateUser' : 'users.actions.activateUser',
                      { name: user.name },
                    )}
                    onClick={() => onAction(user, user.isActive ? 'deactivate' : 'activate')}
                  >
                    {user.isActive ? t('users.actions.deactivate') : t('users.actions.activate')}
                  </Button>
                  {/* An account made for one agent stays a user (the server refuses it too). */}
                  {(admin || !user.singleAgent) && (
                    <Button
                      variant="secondary"
                      aria-label={t(
                        admin ? 'users.actions.makeUserOf' : 'users.actions.makeAdminOf',
                        { name: user.name },
                      )}
                      onClick={() => onAction(user, admin ? 'makeUser' : 'makeAdmin')}
                    >
                      {admin ? t('users.actions.makeUser') : t('users.actions.makeAdmin')}
                    </Button>
                  )}
                </div>
              )}
            </td>
          </tr>
        );
      })}
    </DataTable>
  );
}

/** Asks before a change to an account; the server's refusal stays in the dialog. */
function UserActionDialog({
  action: { user, kind },
  onClose,
  onDone,
}: {
  action: UserAction;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const { t } = useTranslation();
  const status = useSetUserStatus();
  const role = useSetUserRole();
  const mutation = kind === 'activate' || kind === 'deactivate' ? status : role;
  const who = { name: user.name, email: user.email };
  const texts = {
    activate: {
      title: t('users.confirm.activateTitle', who),
      question: t('users.confirm.activateQuestion', who),
      confirm: t('users.actions.activate'),
    },
    deactivate: {
      title: t('users.confirm.deactivateTitle', who),
      question: t('users.confirm.deactivateQuestion', who),
      confirm: t('users.actions.deactivate'),
    },
    makeAdmin: {
      title: t('users.confirm.makeAdminTitle', who),
      question: t('users.confirm.makeAdminQuestion', who),
      confirm: t('users.actions.makeAdmin'),
    },
    makeUser: {
      title: t('users.confirm.makeUserTitle', who),
      question: t('users.confirm.makeUserQuestion', who),
      confirm: t('users.actions.makeUser'),
    },
  }[kind];

  const handleConfirm = async () => {
    try {
      const answer =
        kind === 'activate' || kind === 'deactivate'
          ? await status.mutateAsync({ id: user.id, isActive: kind === 'activate' })
          : await role.mutateAsync({ id: user.id, role: kind === 'makeAdmin' ? 'admin' : 'user' });
      onDone(answer.message);
    } catch {
      // Shown in the dialog from the mutation's state.
    }
  };

  const destructive = kind === 'deactivate' || kind === 'makeUser';
  return (
    <Dialog
      title={texts.title}
      onClose={onClose}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            {t('users.confirm.cancel')}
          </Button>
          <Button
            className={cx(destructive && 'btn--danger')}
            disabled={mutation.isPending}
            onClick={() => void handleConfirm()}
          >
            {texts.confirm}
          </Button>
        </>
      }
    >
      <p>{texts.question}</p>
      {mutation.isError && (
        <p className="alert alert--error" role="alert">
          {mutation.error instanceof ApiError && mutation.error.message
            ? mutation.error.message
            : failureText(mutation.error, t('users.confirm.failed'))}
        </p>
      )}
    </Dialog>
  );
}
