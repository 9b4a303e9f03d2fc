import {
  MY_AGENT_DOCUMENT_ACCEPT,
  MY_AGENT_DOCUMENTS_MAX,
  type MyAgentDocument,
} from '@contrateia/shared';
import { useId, useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { LiveMessage } from '@/components/ui/live-message';
import { useDeleteMyAgentDocument } from '@/features/my-agents/api/delete-my-agent-document';
import { useMyAgentDocuments } from '@/features/my-agents/api/get-my-agent-documents';
import { useUploadMyAgentDocument } from '@/features/my-agents/api/upload-my-agent-document';
import { FormSection } from '@/features/my-agents/components/form-section';
import { usePublicSettings } from '@/hooks/use-public-settings';
import { ApiError, errorMessage } from '@/lib/api-client';
import { withReason } from '@/lib/failure-text';

/**
 * Documentos: the files the agent answers from. Unlike the rest of the form, each upload and
 * removal is the server's at once (it reads the file's text then), so a new agent, which the
 * server does not have yet, is asked to be saved first.
 */
export function DocumentsSection({ agentId }: { agentId: string | null }) {
  const { t } = useTranslation();
  return (
    <FormSection
      name="documents"
      title={t('ownAgents.documents.title')}
      intro={t('ownAgents.documents.intro')}
    >
      {agentId === null ? (
        <p className="my-agent-section__empty">{t('ownAgents.documents.saveFirst')}</p>
      ) : (
        <Documents agentId={agentId} />
      )}
    </FormSection>
  );
}

/** What the section says of an upload under way: sending, then the server reading the file. */
type Upload = { name: string; percent: number | null };

function Documents({ agentId }: { agentId: string }) {
  const { t, i18n } = useTranslation();
  const hintId = useId();
  const input = useRef<HTMLInputElement>(null);
  const query = useMyAgentDocuments(agentId);
  const upload = useUploadMyAgentDocument();
  const maxFileSize = usePublicSettings().data?.uploads.maxFileSize;
  const [current, setCurrent] = useState<Upload | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [removing, setRemoving] = useState<MyAgentDocument | null>(null);

  const handleChosen = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // Emptied, so that choosing the same file again (after fixing it) is a change too.
    event.target.value = '';
    if (!file) return;
    setError(null);
    setNotice(null);
    setCurrent({ name: file.name, percent: 0 });
    try {
      const document = await upload.mutateAsync({
        agentId,
        file,
        onProgress: ({ loaded, total }) =>
          // Sent whole, the server is still reading the file: "reading" rather than 100 %.
          setCurrent({
            name: file.name,
            percent: loaded < total ? Math.floor((loaded / total) * 100) : null,
          }),
      });
      setNotice(t('ownAgents.documents.uploaded', { name: document.filename }));
    } catch (failure) {
      const failed = t('ownAgents.documents.uploadFailed');
      setError(
        failure instanceof ApiError
          ? withReason(failed, failure.message)
          : errorMessage(failure, { failed, network: t('ownAgents.form.network') }),
      );
    } finally {
      setCurrent(null);
    }
  };

  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' });
  const count = new Intl.NumberFormat(i18n.language);
  const documents = query.data ?? [];

  return (
    <div className="my-agent-documents">
      {query.isPending ? (
        <p className="my-agent-section__empty">{t('ownAgents.documents.loading')}</p>
      ) : query.isError ? (
        <div className="my-agents__state">
          <p className="alert alert--error" role="alert">
            {query.error instanceof ApiError
              ? withReason(t('ownAgents.documents.loadFailed'), query.error.message)
              : t('ownAgents.documents.loadFailed')}
          </p>
          <Button
            type="button"
            variant="secondary"
            disabled={query.isFetching}
            onClick={() => void query.refetch()}
          >
            {t('ownAgents.retry')}
          </Button>
        </div>
      ) : documents.length === 0 ? (
        <p className="my-agent-section__empty">{t('ownAgents.documents.empty')}</p>
      ) : (
        <ul className="my-agent-documents__list" aria-label={t('ownAgents.documents.list')}>
          {documents.map((document) => (
            <li key={document.id} className="my-agent-documents__item">
              <div className="my-agent-documents__about">
                <span className="my-agent-documents__name">{document.filename}</span>
                <span className="my-agent-documents__facts">
                  {[
                    document.pages === null
                      ? null
                      : t('ownAgents.documents.pages', { count: document.pages }),
                    t('ownAgents.documents.characters', {
                      characters: count.format(document.characters),
                    }),
                    t('ownAgents.documents.added', {
                      date: date.format(new Date(document.createdAt)),
                    }),
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                </span>
              </div>
              <Button
                type="button"
                variant="secondary"
                aria-label={t('ownAgents.documents.remove', { name: document.filename })}
                onClick={() => setRemoving(document)}
              >
                {t('ownAgents.remove')}
              </Button>
            </li>
          ))}
        </ul>
      )}

      <div className="my-agent-documents__add">
        {/* The file picker opens from the button, which the keyboard reaches; the input is out of sight and of the tab order. */}
        <input
          ref={input}
          className="visually-hidden"
          type="file"
          tabIndex={-1}
          accept={MY_AGENT_DOCUMENT_ACCEPT}
          aria-label={t('ownAgents.documents.add')}
          disabled={current !== null}
          onChange={(event) => void handleChosen(event)}
        />
        <Button
          type="button"
          variant="secondary"
          disabled={current !== null}
          aria-describedby={hintId}
          onClick={() => input.current?.click()}
        >
          {t('ownAgents.documents.add')}
        </Button>
        <p id={hintId} className="field__hint">
          {t('ownAgents.documents.hint', {
            size: maxFileSize ?? '…',
            max: MY_AGENT_DOCUMENTS_MAX,
          })}
        </p>
        {current && (
          <p className="my-agent-documents__progress" role="status">
            {current.percent === null
              ? t('ownAgents.documents.reading', { name: current.name })
              : t('ownAgents.documents.uploading', {
                  name: current.name,
                  percent: current.percent,
                })}
          </p>
        )}
        <LiveMessage tone="error" message={error} />
        <LiveMessage tone="success" message={notice} />
      </div>

      {removing && (
        <RemoveDialog
          agentId={agentId}
          document={removing}
          onClose={() => setRemoving(null)}
          onRemoved={(message) => {
            setRemoving(null);
            setError(null);
            setNotice(message);
          }}
        />
      )}
    </div>
  );
}

function RemoveDialog({
  agentId,
  document,
  onClose,
  onRemoved,
}: {
  agentId: string;
  document: MyAgentDocument;
  onClose: () => void;
  onRemoved: (message: string) => void;
}) {
  const { t } = useTranslation();
  const remove = useDeleteMyAgentDocument();
  const failed = t('ownAgents.documents.removeFailed');
  return (
    <ConfirmDialog
      title={t('ownAgents.documents.removeTitle', { name: document.filename })}
      cancelLabel={t('ownAgents.delete.cancel')}
      confirmLabel={
        remove.isPending
          ? t('ownAgents.documents.removing')
          : t('ownAgents.documents.removeConfirm')
      }
      busy={remove.isPending}
      onClose={onClose}
      onConfirm={() =>
        void remove.mutateAsync({ agentId, documentId: document.id }).then(
          () => onRemoved(t('ownAgents.documents.removed', { name: document.filename })),
          () => {},
        )
      }
    >
      <p>{t('ownAgents.documents.removeQuestion')}</p>
      {remove.isError && (
        <p className="alert alert--error" role="alert">
          {remove.error instanceof ApiError
            ? withReason(failed, remove.error.message)
            : errorMessage(remove.error, { failed, network: t('ownAgents.form.network') })}
        </p>
      )}
    </ConfirmDialog>
  );
}
