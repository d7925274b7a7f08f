// «Доступна новая версия» (docs/app-shell.md): wired by the service worker's runtime.
export { wireUpdatePrompt } from './update-flow.ts'
export { showUpdatePrompt } from './update-prompt.tsx'
