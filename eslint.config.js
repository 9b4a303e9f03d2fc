import path from 'node:path';
import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const root = import.meta.dirname;

/**
 * Where eslint-import-resolver-node (installed with eslint-plugin-boundaries) looks for a bare
 * import: our path aliases, as in the tsconfig `paths`, vite.config.ts and vitest.config.ts, then
 * node_modules. `@/…` is the importing app's own src/; `@contrateia/shared[/…]` is
 * packages/shared/src (the package's `exports`, which the resolver does not read).
 */
function aliasCandidates(request, start, nodeModulesCandidates) {
  if (request.startsWith('@/')) {
    const app = /^apps\/([^/]+)/.exec(path.relative(root, start).split(path.sep).join('/'))?.[1];
    if (app) return [path.join(root, 'apps', app, 'src', request.slice(2))];
  }
  if (request === '@contrateia/shared') return [path.join(root, 'packages/shared/src/index')];
  if (request.startsWith('@contrateia/shared/')) {
    return [path.join(root, 'packages/shared/src', request.slice('@contrateia/shared/'.length))];
  }
  return nodeModulesCandidates();
}

// The layers of docs/ARCHITECTURE.md ("Import rules"). Folders, matched from the repository root;
// the first that matches a file wins, so each catch-all (`apps/server/src`, `apps/web/src`) comes
// after the folders inside it.
const elements = [
  { type: 'shared', pattern: 'packages/shared/src' },
  { type: 'server-db', pattern: 'apps/server/src/db' },
  { type: 'server-lib', pattern: 'apps/server/src/lib' },
  { type: 'server-plugins', pattern: 'apps/server/src/plugins' },
  { type: 'server-feature', pattern: 'apps/server/src/features/*', capture: ['feature'] },
  // main.ts, app.ts, config.ts, paths.ts, the database thread
  { type: 'server-root', pattern: 'apps/server/src' },
  { type: 'server-test', pattern: 'apps/server/test' },
  { type: 'web-app', pattern: 'apps/web/src/app' },
  { type: 'web-feature', pattern: 'apps/web/src/features/*', capture: ['feature'] },
  { type: 'web-components', pattern: 'apps/web/src/components' },
  { type: 'web-hooks', pattern: 'apps/web/src/hooks' },
  { type: 'web-lib', pattern: 'apps/web/src/lib' },
  { type: 'web-locales', pattern: 'apps/web/src/locales' },
  { type: 'web-styles', pattern: 'apps/web/src/styles' },
  { type: 'web-test', pattern: 'apps/web/src/test' },
  { type: 'web-root', pattern: 'apps/web/src' }, // main.tsx
  { type: 'e2e', pattern: 'apps/web/e2e' },
].map((element) => ({ ...element, partialMatch: false }));

const to = (...selectors) => ({ to: selectors.map((element) => ({ element })) });
/** A policy: files of the `from` element may import files of the listed elements. */
const from = (element, ...selectors) => ({ from: { element }, allow: to(...selectors) });
const types = (...names) => names.map((type) => ({ type }));

const shared = { type: 'shared' };
// The server's entry and wiring (app.options.ts: what buildApp is given), and the leaves of its root that every server layer may read.
const serverEntry = {
  type: 'server-root',
  fileInternalPath: ['main.ts', 'app.ts', 'app.options.ts'],
};
const serverConfig = { type: 'server-root', fileInternalPath: ['config.ts', 'paths.ts'] };
const serverLib = { type: 'server-lib' };
// db/schema.ts re-exports every feature's tables: only db/ itself and the entry may import it.
const serverDb = { type: 'server-db', fileInternalPath: '!schema.ts' };
// A server feature's public face: its service (factory and types) and its errors.
const featurePublic = { type: 'server-feature', fileInternalPath: '*.{service,errors}.ts' };
const featureTable = { type: 'server-feature', fileInternalPath: '*.table.ts' };
const serverLayers = types('server-db', 'server-lib', 'server-plugins', 'server-feature');
const serverSource = { types: { anyOf: ['server-root', ...serverLayers.map(({ type }) => type)] } };
// A web feature's public face: the modules directly in its folder and its components.
const webFeaturePublic = {
  type: 'web-feature',
  fileInternalPath: ['*.{ts,tsx}', 'components/*.tsx'],
};
const webLayers = types(
  'web-app',
  'web-feature',
  'web-components',
  'web-hooks',
  'web-lib',
  'web-locales',
  'web-styles',
);
const [, , webComponents, webHooks, webLib, webLocales, webStyles] = webLayers;
const webSource = { types: { anyOf: ['web-root', ...webLayers.map(({ type }) => type)] } };

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'data/**',
      '**/test-results/**',
      '**/migrations/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  {
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/**/*.test.ts'],
    rules: { 'no-console': 'error' },
  },
  {
    // Each error is defined once, in its feature's <name>.errors.ts (the platform's in
    // lib/errors.ts), so that no throw can get its status or message key wrong. Tests may make
    // one of their own.
    files: ['apps/server/src/**/*.ts'],
    ignores: [
      'apps/server/src/**/*.errors.ts',
      'apps/server/src/lib/errors.ts',
      'apps/server/src/**/*.test.ts',
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "NewExpression[callee.name='AppError']",
          message:
            "Define the error once in the feature's <name>.errors.ts (the platform's in lib/errors.ts) with defineError(status, key), and throw that: no inline new AppError(…).",
        },
      ],
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    files: [
      'packages/shared/src/**',
      'apps/server/src/**',
      'apps/server/test/**',
      'apps/web/src/**',
      'apps/web/e2e/**',
    ],
    plugins: { boundaries },
    settings: {
      'import/resolver': {
        node: {
          extensions: ['.ts', '.tsx', '.mjs', '.js', '.json'],
          packageIterator: aliasCandidates,
        },
      },
      'boundaries/root-path': root,
      'boundaries/elements': elements,
      'boundaries/dependency-nodes': ['import', 'export', 'dynamic-import'],
    },
    rules: {
      // Imports inside one element (one feature's folder, lib/, packages/shared…) are free; an
      // import from one element into another must match one of these policies.
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          message:
            '{{ from.element.type }} ({{ from.element.fileInternalPath }}) may not import {{ to.element.path }}/{{ to.element.fileInternalPath }} ({{ to.element.type }}): see "Import rules" in docs/ARCHITECTURE.md',
          policies: [
            // packages/shared imports nothing outside itself: no policy.
            // Server: main.ts and app.ts wire everything; config.ts and paths.ts are leaves.
            from(serverEntry, ...serverLayers, shared),
            from({ type: 'server-root' }, shared),
            from(serverLib, serverConfig, shared),
            // The domain events' map names each payload by the type its feature gives it.
            from({ ...serverLib, fileInternalPath: 'domain-events.ts' }, featurePublic),
            from({ type: 'server-db' }, serverConfig, serverLib, featureTable, shared),
            from(
              { type: 'server-plugins' },
              serverConfig,
              serverLib,
              serverDb,
              featurePublic,
              shared,
            ),
            from(
              { type: 'server-feature' },
              serverConfig,
              serverLib,
              serverDb,
              { type: 'server-plugins' },
              featurePublic,
              shared,
            ),
            // A table may import another feature's table, to declare a foreign key.
            from(featureTable, featureTable),
            // Tests: what their layer may import, plus the test helpers; an integration test may
            // also arrange and check any feature's tables directly.
            from({ ...serverSource, fileInternalPath: '**/*.test.ts' }, { type: 'server-test' }),
            from({ ...serverSource, fileInternalPath: '**/*.int.test.ts' }, featureTable),
            from({ type: 'server-test' }, { type: 'server-root' }, ...serverLayers, shared),
            // Web: main.tsx and app/ compose everything; features show each other only their
            // public face; components/, hooks/ and lib/ know no feature and no app.
            from({ type: 'web-root' }, ...webLayers, shared),
            from({ type: 'web-app' }, ...webLayers, shared),
            from(
              { type: 'web-feature' },
              webFeaturePublic,
              webComponents,
              webHooks,
              webLib,
              webLocales,
              webStyles,
              shared,
            ),
            from(webComponents, webHooks, webLib, webLocales, webStyles, shared),
            from(webHooks, webLib, webLocales, shared),
            from(webLib, webLocales, shared),
            from(webLocales, shared),
            from({ ...webSource, fileInternalPath: '**/*.test.{ts,tsx}' }, { type: 'web-test' }),
            from({ type: 'web-test' }, ...webLayers, shared),
            // Browser journeys: the contract and the server's test helpers (mail catcher, fake AI).
            from({ type: 'e2e' }, { type: 'server-test' }, shared),
          ],
        },
      ],
    },
  },
);
