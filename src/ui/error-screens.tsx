import { useLingui } from '@lingui/react/macro'
import { IconAlertTriangle, IconCloudOff } from '@tabler/icons-react'
import { Component, useEffect, type ErrorInfo, type ReactNode } from 'react'
import { Button, ButtonAnchor } from './button.tsx'
import classes from './error-screens.module.css'
import { PlainLayout } from './plain-layout.tsx'
import { StatusPage } from './status-page.tsx'

// Mantine-free: these screens must show when Mantine's own chunk is what failed to load.

/** Failed to fetch a lazily loaded chunk (offline, or a new deploy removed the old file). */
export function isChunkLoadError(error: unknown): boolean {
  if (!(error instanceof Error)) return false
  if (error.name === 'ChunkLoadError' || error.name === 'NavigationTimeoutError') return true
  return /dynamically imported module|Importing a module script failed|error loading dynamically imported|Unable to preload CSS|Failed to fetch dynamically/i.test(
    error.message,
  )
}

/**
 * Raised when a navigation stays pending longer than the chunk load timeout (120 s,
 * docs/app-shell.md "Routes (src/routes)").
 */
export class NavigationTimeoutError extends Error {
  override readonly name = 'NavigationTimeoutError'
}

const reload = () => window.location.reload()

function Frame({ fullPage, children }: { fullPage: boolean; children: ReactNode }) {
  return fullPage ? (
    <PlainLayout>{children}</PlainLayout>
  ) : (
    <div className={classes.inline}>
      <div className={classes.content}>{children}</div>
    </div>
  )
}

export function ChunkErrorScreen({ fullPage = false }: { fullPage?: boolean }) {
  const { t } = useLingui()
  return (
    <Frame fullPage={fullPage}>
      <StatusPage
        icon={IconCloudOff}
        color="orange"
        title={t`Не удалось загрузить раздел`}
        description={t`Похоже, пропало соединение или вышла новая версия приложения. Проверьте подключение к интернету и повторите попытку.`}
        actions={<Button onClick={reload}>{t`Повторить`}</Button>}
      />
    </Frame>
  )
}

/** An unexpected failure: a calm message, never the stack trace. */
export function ServerErrorScreen({ fullPage = false }: { fullPage?: boolean }) {
  const { t } = useLingui()
  return (
    <Frame fullPage={fullPage}>
      <StatusPage
        icon={IconAlertTriangle}
        color="red"
        code="500"
        title={t`Что-то пошло не так`}
        description={t`Произошла непредвиденная ошибка. Обновите страницу; изменения, сохранённые на этом устройстве, никуда не денутся.`}
        actions={
          <>
            <Button onClick={reload}>{t`Повторить`}</Button>
            <ButtonAnchor variant="default" href="/">
              {t`На главную`}
            </ButtonAnchor>
          </>
        }
      />
    </Frame>
  )
}

/** The router's defaultErrorComponent: chunk failures get «Повторить», the rest the 500 screen. */
export function RouteErrorScreen({ error }: { error: unknown }) {
  useEffect(() => {
    console.error(error)
  }, [error])
  return isChunkLoadError(error) ? <ChunkErrorScreen /> : <ServerErrorScreen />
}

interface BoundaryState {
  error: unknown
}

/** App-wide boundary for failures outside the router's own boundaries. */
export class AppErrorBoundary extends Component<{ children: ReactNode }, BoundaryState> {
  override state: BoundaryState = { error: null }

  static getDerivedStateFromError(error: unknown): BoundaryState {
    return { error: error ?? new Error('unknown') }
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error(error, info.componentStack)
  }

  override render() {
    if (this.state.error === null) return this.props.children
    return isChunkLoadError(this.state.error) ? (
      <ChunkErrorScreen fullPage />
    ) : (
      <ServerErrorScreen fullPage />
    )
  }
}
