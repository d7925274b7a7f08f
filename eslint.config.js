import js from '@eslint/js'
import prettier from 'eslint-config-prettier'
import importX, { createNodeResolver } from 'eslint-plugin-import-x'
import pluginLingui from 'eslint-plugin-lingui'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import { readdirSync } from 'node:fs'
import tseslint from 'typescript-eslint'

const LETTERS = '/[A-Za-zА-Яа-яЁё]/'
const CYRILLIC = '/[А-Яа-яЁё]/'

// Every user-visible string goes through Lingui. These selectors catch the ways one can slip past it.
const noLiteralUiStrings = [
  {
    selector: `JSXText[value=${LETTERS}]:not(JSXElement[openingElement.name.name=/^(Trans|Plural|Select|SelectOrdinal)$/] JSXText)`,
    message: 'Текст интерфейса — только через Lingui (<Trans> или t``).',
  },
  {
    selector: `JSXAttribute[name.name=/^(label|placeholder|title|aria-label|alt|description|error|message|confirmLabel|cancelLabel|emptyText)$/] > Literal[value=${LETTERS}]`,
    message: 'Подписи и подсказки — только через Lingui (t``).',
  },
  {
    selector: `Literal[value=${CYRILLIC}]`,
    message: 'Русский текст в коде — только через Lingui (t`` или msg``).',
  },
  {
    selector: `:not(TaggedTemplateExpression) > TemplateLiteral > TemplateElement[value.raw=${CYRILLIC}]`,
    message: 'Русский текст в коде — только через Lingui (t`` или msg``).',
  },
]

const zone = (target, from, message, except) => ({
  target,
  from,
  message,
  ...(except && { except }),
})

// A feature's internals are its own: another feature, a route or the app imports it only through
// its public entry, src/features/<name>/index.ts
// (ARCHITECTURE.md, "Boundaries inside the app (held by lint)").
const FEATURES = readdirSync(new URL('./src/features/', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
// The editor has a second one, page-kit.ts: what the published page is drawn with on the server,
// in Node, where the editor's screen cannot load (docs/publishing.md, "Rendering on the server").
const PUBLIC_ENTRIES = { editor: ['./index.ts', './page-kit.ts'] }
const publicEntryOnly = FEATURES.map((name) => {
  const entries = PUBLIC_ENTRIES[name] ?? ['./index.ts']
  return zone(
    [`./src/features/!(${name})/**/*`, './src/routes/**/*', './src/app/**/*'],
    `./src/features/${name}`,
    `Outside src/features/${name}, only its public entry: ${entries.join(', ')} there.`,
    entries,
  )
})

// That entry only re-exports what the feature lets out; what loads on demand is named by a loader
// in a module of its own (`export const loadX = () => import('./x.tsx')`, on-demand.ts). The
// bundler takes the entry as free of side effects (vite.config.ts), so a named import brings only
// the module it names, and the first screen's chunks stay as they were (docs/performance.md).
const publicEntryShape = {
  selector: 'Program > :not(ExportNamedDeclaration[source])',
  message:
    "A feature's index.ts only re-exports (`export { … } from './…'`); a loader of what loads on demand lives in a module of its own (on-demand.ts).",
}

// One kit: the plain controls, the layout and the text are the app's own (src/ui); Mantine is kept
// for the widgets that earn their weight (Modal, Menu, Popover, Tooltip, searchable Select,
// ColorInput, SegmentedControl, Slider, notifications). Its twin of one of our pieces is not
// imported (docs/app-shell.md "UI kit").
const ownControl = (names, where) => ({
  name: '@mantine/core',
  importNames: names,
  message: `Этот элемент у приложения свой: ${where} (docs/app-shell.md, «UI kit»).`,
})
const oneKit = [
  {
    name: '@mantine/hooks',
    importNames: ['useDocumentTitle'],
    message: 'Заголовок вкладки — src/ui/use-document-title.ts.',
  },
  ownControl(['Switch'], 'src/ui/switch.tsx, с подписью — src/ui/switch-field.tsx'),
  ownControl(['Button', 'ActionIcon', 'CloseButton'], 'src/ui/button.tsx (Button, IconButton)'),
  ownControl(['Anchor'], 'src/ui/links.tsx (AnchorLink, ButtonLink)'),
  ownControl(
    ['TextInput', 'NativeSelect', 'NumberInput', 'Input', 'InputWrapper'],
    'src/ui/text-input.tsx (TextInput, NativeSelect, FieldGroup; число — TextInput с inputMode)',
  ),
  ownControl(['Textarea'], 'src/ui/textarea.tsx'),
  ownControl(['PasswordInput'], 'src/ui/password-input.tsx'),
  ownControl(['Checkbox'], 'src/ui/checkbox.tsx'),
  ownControl(['Badge'], 'src/ui/badge.tsx'),
  ownControl(['Loader'], 'src/ui/loader.tsx'),
  ownControl(['Alert'], 'src/ui/alert.tsx'),
  ownControl(['FileButton'], 'src/ui/file-button.tsx'),
  ownControl(['AppShell'], 'src/ui/app-layout.tsx'),
  ownControl(
    ['Stack', 'Group', 'SimpleGrid', 'Box', 'Flex', 'Center'],
    'src/ui/layout.tsx (Stack, Group, SimpleGrid, Box)',
  ),
  ownControl(['Paper', 'Card'], 'src/ui/layout.tsx (Paper)'),
  ownControl(['Text', 'Title'], 'src/ui/layout.tsx (Text, Title)'),
  ownControl(
    ['VisuallyHidden', 'Divider', 'ThemeIcon', 'ScrollArea'],
    'src/ui/layout.tsx (VisuallyHidden, Divider, IconTile, ScrollBox)',
  ),
  ownControl(['UnstyledButton'], 'src/ui/button.tsx (PlainButton)'),
  ownControl(['Avatar'], 'src/ui/avatar.tsx (InitialsAvatar)'),
  ownControl(['Progress'], 'src/ui/progress.tsx'),
  ownControl(['Image'], 'обычный <img>'),
]

const pixiOnlyInCanvas = {
  group: ['pixi.js', 'pixi.js/*', '@pixi/*'],
  message:
    'PixiJS is imported only in src/features/editor/canvas (it must stay out of the entry chunk).',
}
const dexieOffThePage = {
  group: ['dexie', 'dexie-react-hooks'],
  message:
    'Dexie lives in the sync worker (src/data); screens use src/mirror/live.ts and src/mirror/commands.ts.',
}
// Mantine is the UI kit's business: its widgets through one module each in src/ui, imported only
// where Mantine loads on demand, so the first screen carries none of it (docs/performance.md;
// docs/app-shell.md, "UI kit").
const mantineOnlyInUi = {
  group: ['@mantine/*'],
  message:
    'Mantine is imported only in src/ui: a widget through its module there (src/ui/modal.ts, menu.ts, popover.ts, …), notifications through src/ui/notify.tsx, its global CSS through src/ui/global-styles.ts.',
}

/** The import rules of a group of files: the one kit's names, and these patterns. */
const restrictImports = (...patterns) => ({
  'no-restricted-imports': ['error', { paths: oneKit, patterns }],
})

export default tseslint.config(
  {
    ignores: [
      'dist',
      'dist-test',
      'dist-page',
      'node_modules',
      'data',
      'coverage',
      'src/routeTree.gen.ts',
      'src/locales/**',
      'dev-dist',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2023,
      globals: { ...globals.browser, ...globals.node, ...globals.worker },
    },
    plugins: { 'import-x': importX },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      // Layer directions (ARCHITECTURE.md): domain <- api, data <- sync, workers <- features <- routes <- app.
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            zone(
              './src/domain',
              ['./src/!(domain)/**/*', './workers/**/*', './server/**/*'],
              'domain/ is pure and imports nothing of ours.',
            ),
            zone(
              './src/api',
              ['./src/!(api|domain)/**/*', './workers/**/*', './server/**/*'],
              'api/ may import only domain/.',
            ),
            zone(
              './src/data',
              ['./src/!(data|domain)/**/*', './workers/**/*', './server/**/*'],
              'data/ may import only domain/.',
            ),
            zone(
              './src/sync',
              [
                './src/features/**/*',
                './src/routes/**/*',
                './src/app/**/*',
                './src/ui/**/*',
                './server/**/*',
              ],
              'sync/ sits below features.',
            ),
            zone(
              './src/mirror',
              [
                './src/features/**/*',
                './src/routes/**/*',
                './src/app/**/*',
                './src/ui/**/*',
                './workers/**/*',
                './server/**/*',
              ],
              'mirror/ is the page side of the data layer, below features.',
            ),
            zone(
              './src/ui/**/*',
              ['./src/features/**/*', './src/routes/**/*', './src/app/**/*', './server/**/*'],
              'ui/ is shared and knows no feature.',
            ),
            zone(
              './src/features/**/*',
              ['./src/routes/**/*', './src/app/**/*', './server/**/*'],
              'features/ never import routes or app.',
            ),
            zone(
              './workers/**/*',
              [
                './src/features/**/*',
                './src/routes/**/*',
                './src/app/**/*',
                './src/ui/**/*',
                './server/**/*',
              ],
              'workers/ run without the UI.',
            ),
            zone(
              './server/**/*',
              ['./src/!(domain)/**/*', './workers/**/*'],
              'server/ imports only src/domain.',
            ),
            zone(
              [
                './server/services/**/*',
                './server/storage/**/*',
                './server/db/**/*',
                './server/crm/**/*',
                './server/uploads/**/*',
                './server/common/**/*',
              ],
              ['./server/http/**/*'],
              "The server's services and what they use know no request: only routes import server/http.",
            ),
            ...publicEntryOnly,
            zone(
              ['./src/features/editor/!(use-editor-data).{ts,tsx}', './src/features/editor/*/**/*'],
              ['./src/mirror', './src/sync'],
              'The editor reaches the data layer only through its data hook, src/features/editor/use-editor-data.ts (docs/editor.md, "What the editor expects of the data layer").',
            ),
          ],
        },
      ],
    },
    settings: {
      'import-x/resolver-next': [createNodeResolver()],
      // Our modules are TypeScript: the import rules read them (no-cycle follows them), never
      // node_modules.
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/ignore': ['node_modules'],
    },
  },
  {
    // No module of the app, the workers or the server reaches itself again through its imports,
    // dynamic ones included: a shared piece sits a layer below the modules that use it.
    files: ['src/**/*.{ts,tsx}', 'workers/**/*.ts', 'server/**/*.ts'],
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/**/*.test.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks, lingui: pluginLingui },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...pluginLingui.configs['flat/recommended'].rules,
      'no-restricted-syntax': ['error', ...noLiteralUiStrings],
      'no-restricted-globals': [
        'error',
        { name: 'fetch', message: 'Сетевые запросы — только через src/api/client.ts.' },
      ],
    },
  },
  {
    files: ['src/features/*/index.ts', 'src/features/editor/page-kit.ts'],
    rules: { 'no-restricted-syntax': ['error', ...noLiteralUiStrings, publicEntryShape] },
  },
  {
    files: ['src/api/client.ts', 'src/api/upload.ts'],
    rules: { 'no-restricted-globals': 'off' },
  },
  {
    files: ['src/**/*.{ts,tsx}', 'workers/**/*.ts'],
    ignores: ['src/features/editor/canvas/**/*', 'src/ui/**/*'],
    rules: restrictImports(pixiOnlyInCanvas, mantineOnlyInUi),
  },
  {
    // The page reaches the mirror through src/mirror (the sync worker holds the database).
    files: ['src/{app,routes,mirror,features}/**/*.{ts,tsx}'],
    ignores: ['src/features/editor/canvas/**/*'],
    rules: restrictImports(pixiOnlyInCanvas, dexieOffThePage, mantineOnlyInUi),
  },
  {
    files: ['src/ui/**/*.{ts,tsx}'],
    rules: restrictImports(pixiOnlyInCanvas, dexieOffThePage),
  },
  {
    files: ['src/features/editor/canvas/**/*'],
    rules: restrictImports(dexieOffThePage, mantineOnlyInUi),
  },
  prettier,
)
