import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** The server's modules, each owning its tables through its repositories (`*.repo.ts`). */
const SERVER_MODULES = [
  ...readdirSync('apps/server/src/modules').map((name) => `./apps/server/src/modules/${name}`),
  './apps/server/src/live',
];
/** Each module's repositories, out of bounds for the other modules and the plugins. */
const REPOSITORY_ZONES = SERVER_MODULES.map((module) => ({
  target: [...SERVER_MODULES.filter((other) => other !== module), './apps/server/src/plugins'],
  from: readdirSync(module)
    .filter((file) => file.endsWith('.repo.ts'))
    .map((file) => `${module}/${file}`),
  message: "Call the module's service: its repository is its own.",
})).filter((zone) => zone.from.length > 0);

export default tseslint.config(
  { ignores: ['**/dist/**', '**/sourcemaps/**', '**/node_modules/**', 'data/**', '**/drizzle/meta/**'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { globals: { ...globals.node } },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['apps/*/tsconfig.json', 'packages/*/tsconfig.json'],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'import-x/no-cycle': 'error',
      'no-console': ['error', { allow: ['warn', 'error', 'info'] }],
    },
  },
  {
    // A test that runs alone, not at all, or only sometimes must not land: every test can fail in CI.
    files: ['**/*.test.{ts,tsx}', '**/e2e/**/*.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        ...['describe', 'it', 'test'].flatMap((object) =>
          ['only', 'skip', 'skipIf', 'runIf', 'todo', 'fails'].map((property) => ({
            object,
            property,
            message: `${object}.${property} leaves tests out of the run or inverts them: every test must run and be able to fail`,
          })),
        ),
      ],
    },
  },
  {
    // Server boundaries (ARCHITECTURE.md): plugins never reach into a module, and a module reaches
    // another only through its services, never its repositories (which only their own module imports).
    // Tests may set up what they need from any repository.
    files: ['apps/server/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './apps/server/src/plugins',
              from: SERVER_MODULES,
              message: 'Plugins serve every module and know none: pass what a plugin needs in from app.ts.',
            },
            ...REPOSITORY_ZONES,
          ],
        },
      ],
    },
  },
  {
    // A module's tables (`<module>.tables.ts`) are its own: a file imports a tables file only from its
    // own folder, which is its module; the others go through the module's functions. Their row types
    // may be named anywhere. db/schema.ts gathers every table for drizzle and the tests, nothing else.
    files: ['apps/server/src/**/*.ts'],
    ignores: [
      '**/*.test.ts',
      '**/*.tables.ts',
      'apps/server/src/db/schema.ts',
      'apps/server/src/db/database.ts',
    ],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!\\./[^/]+$).*\\.tables$',
              allowTypeImports: true,
              message: "Another module's table: call that module's functions (or import only its row types).",
            },
            {
              regex: '(^|/)db/schema$',
              message: "db/schema.ts is for drizzle and the tests: import your module's own tables file.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // Imports flow one way: components and lib never reach into features or app, features never into app,
      // and a feature never into another (docs/decisions/0029-web-layering.md).
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: './apps/web/src/components', from: './apps/web/src/features' },
            { target: './apps/web/src/lib', from: './apps/web/src/features' },
            { target: './apps/web/src/components', from: './apps/web/src/app' },
            { target: './apps/web/src/features', from: './apps/web/src/app' },
            ...readdirSync('apps/web/src/features', { withFileTypes: true })
              .filter((entry) => entry.isDirectory())
              .map(({ name }) => ({
                target: `./apps/web/src/features/${name}`,
                from: './apps/web/src/features',
                except: [`./${name}`],
                message: 'A feature never imports another: move what both use to components/ or lib/.',
              })),
          ],
        },
      ],
    },
  },
  prettier,
);
