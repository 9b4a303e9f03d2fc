import { withSharedSection, type TextLoaders } from '@/lib/i18n';

/**
 * The My agents pages' texts, with the shared catalogue's messages of their form
 * (myAgentValidation), which no other page shows: loaded with the pages (app/router.tsx
 * withPageTexts), their loaders in the pages' chunk rather than in every page's download.
 */
export const myAgentsTexts: TextLoaders = {
  'pt-BR': () =>
    withSharedSection(
      import('@/locales/my-agents/pt-BR.json'),
      'myAgentValidation',
      import('@contrateia/shared/locales/my-agents/pt-BR.json'),
    ),
  'en-US': () =>
    withSharedSection(
      import('@/locales/my-agents/en-US.json'),
      'myAgentValidation',
      import('@contrateia/shared/locales/my-agents/en-US.json'),
    ),
  'es-ES': () =>
    withSharedSection(
      import('@/locales/my-agents/es-ES.json'),
      'myAgentValidation',
      import('@contrateia/shared/locales/my-agents/es-ES.json'),
    ),
};
