import './publish-messages.ts'
import { Trans, useLingui } from '@lingui/react/macro'
import {
  IconCopy,
  IconDownload,
  IconExternalLink,
  IconWorldOff,
  IconWorldUpload,
} from '@tabler/icons-react'
import { useMemo, useState, type FormEvent } from 'react'
import { ERROR_CODES } from '../../../domain/api-error.ts'
import type { Project } from '../../../domain/project.ts'
import { slugFromName } from '../../../domain/publish.ts'
import { commands } from '../../../mirror/commands.ts'
import { useProject, useWaitingPages } from '../../../mirror/live.ts'
import { discardEntry, retryEntry, useOnline, useParkedEntries } from '../../../sync/client.ts'
import { pageUrl } from '../../../sync/page-url.ts'
import { Alert } from '../../../ui/alert.tsx'
import { Button, ButtonAnchor } from '../../../ui/button.tsx'
import { fieldErrorText } from '../../../ui/field-error.ts'
import { Group, Stack, Text } from '../../../ui/layout.tsx'
import { Modal } from '../../../ui/modal.ts'
import { notifyError, notifySuccess } from '../../../ui/notify.tsx'
import { TextInput } from '../../../ui/text-input.tsx'
import { runCommand } from '../../records/index.ts'
import { pageProgress, pageState } from '../page-state.ts'
import { usePageProgressText, usePageStateText } from '../publish-status.tsx'
import { checkSlug } from './check-slug.ts'
import { download, qrCode, qrPath, qrPng, qrSide, qrSvg } from './qr.ts'
import classes from './publish-dialog.module.css'

/**
 * A project's public page (docs/screens.md "Publishing"): its state, its address (editable, checked
 * with the shared `Slug` schema before anything is queued; a refusal shows under the field), the
 * link to copy or open, its QR code to download for print, and publishing, publishing the changes
 * and taking the page down. Everything is queued in the outbox (docs/SYNC.md "Publishing").
 */
export function PublishDialog({
  projectId,
  onClose,
  beforePublish,
}: {
  projectId: number
  onClose: () => void
  beforePublish?: (() => Promise<void>) | undefined
}) {
  const { t } = useLingui()
  const project = useProject(projectId)
  return (
    <Modal opened onClose={onClose} title={t`Публикация страницы`} size="lg" centered>
      {project ? (
        <PublishBody project={project} onClose={onClose} beforePublish={beforePublish} />
      ) : project === null ? (
        <Text c="dimmed">
          <Trans>Проект не найден</Trans>
        </Text>
      ) : null}
    </Modal>
  )
}

function PublishBody({
  project,
  onClose,
  beforePublish,
}: {
  project: Project
  onClose: () => void
  beforePublish?: (() => Promise<void>) | undefined
}) {
  const { t } = useLingui()
  const projectId = project.id
  const waiting = useWaitingPages().get(projectId)
  const online = useOnline()
  const parked = useParkedEntries().filter(
    (entry) => entry.table === 'projects' && entry.recordId === projectId,
  )
  const slugRefusal = parked.find((entry) => entry.op === 'set_slug')
  const pageRefusal = parked.find((entry) => entry.op === 'publish' || entry.op === 'unpublish')
  const stateText = usePageStateText()
  const progressText = usePageProgressText()
  // null: not edited here, the field shows the project's address (or the one its name reads as).
  const [draft, setDraft] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState<'publish' | 'slug' | 'unpublish' | null>(null)

  const state = pageState(project)
  const progress = pageProgress(waiting, online)
  const saved = project.slug ?? null
  const value = draft ?? saved ?? slugFromName(project.name)
  // The server refused the address the project holds now; a new one being typed is not it.
  const refusal =
    draft === null && slugRefusal
      ? slugRefusal.code === ERROR_CODES.slugTaken || slugRefusal.code === 'conflict'
        ? t`Этот адрес уже занят другой страницей`
        : fieldErrorText(slugRefusal.fields.slug ?? slugRefusal.message)
      : null
  const shownError = error ?? refusal
  const published = project.published ?? null
  // The page's address is known once the person chose one or the server gave one; before that
  // it is only what the name reads as, and the server may add a suffix to it.
  const confirmed = saved !== null

  const check = (): string | null => {
    const checked = checkSlug(value)
    if ('error' in checked) {
      setError(checked.error)
      return null
    }
    return checked.slug
  }

  const publish = async () => {
    const slug = check()
    if (slug === null) return
    setBusy('publish')
    try {
      // What the screen still holds goes to the outbox first: the publish follows it.
      await beforePublish?.()
      // An address the person typed, or the project's own; else the server gives its default.
      const chosen = draft !== null || saved !== null ? slug : undefined
      const done = await runCommand(() =>
        commands.publishProject(projectId, chosen).then(() => true),
      )
      if (done) setDraft(null)
    } finally {
      setBusy(null)
    }
  }

  const saveSlug = async (event: FormEvent) => {
    event.preventDefault()
    const slug = check()
    if (slug === null) return
    setBusy('slug')
    try {
      const done = await runCommand(() => commands.setProjectSlug(projectId, slug).then(() => true))
      if (done) setDraft(null)
    } finally {
      setBusy(null)
    }
  }

  const unpublish = async () => {
    setBusy('unpublish')
    try {
      await runCommand(() => commands.unpublishProject(projectId))
    } finally {
      setBusy(null)
    }
  }

  const slugChanged = value !== saved
  return (
    <Stack gap="md">
      <Stack gap={4}>
        <Text fw={600} data-testid="publish-state" data-page-state={state}>
          {stateText(state)}
        </Text>
        {progress ? (
          <Text size="sm" c="blue.8" role="status" data-testid="publish-progress">
            {progressText(progress)}
          </Text>
        ) : null}
      </Stack>
      {pageRefusal ? (
        <Alert color="red" title={t`Сервер не принял изменение`} data-testid="publish-refusal">
          <Stack gap="xs">
            <Text inherit>{pageRefusal.message || t`Сервер отклонил изменение`}</Text>
            <Group gap="sm">
              <Button size="sm" variant="light" onClick={() => void retryEntry(pageRefusal.seq)}>
                <Trans>Повторить</Trans>
              </Button>
              <Button
                size="sm"
                variant="subtle"
                color="red"
                onClick={() => void discardEntry(pageRefusal.seq)}
              >
                <Trans>Отменить изменение</Trans>
              </Button>
            </Group>
          </Stack>
        </Alert>
      ) : null}
      <form onSubmit={(event) => void saveSlug(event)} noValidate>
        <Stack gap="xs">
          <TextInput
            label={t`Адрес страницы`}
            // The whole address, unless the link below shows it already.
            description={
              published && confirmed && value === published.slug
                ? undefined
                : pageUrl(value || '…', published?.url)
            }
            value={value}
            autoCapitalize="none"
            autoCorrect="off"
            spellCheck={false}
            onChange={(event) => {
              setDraft(event.currentTarget.value)
              setError(null)
            }}
            error={shownError}
            data-testid="publish-slug"
          />
          {draft !== null && slugChanged ? (
            <Group gap="sm">
              <Button type="submit" variant="light" size="sm" loading={busy === 'slug'}>
                <Trans>Сохранить адрес</Trans>
              </Button>
              <Button
                variant="subtle"
                size="sm"
                onClick={() => {
                  setDraft(null)
                  setError(null)
                }}
              >
                <Trans>Вернуть</Trans>
              </Button>
            </Group>
          ) : null}
        </Stack>
      </form>
      {published && confirmed ? <PageLink url={published.url} slug={published.slug} /> : null}
      {published && !confirmed ? (
        <Text size="sm" c="dimmed" data-testid="publish-address-pending">
          <Trans>
            Ссылка и QR-код появятся, когда сервер примет публикацию: если этот адрес уже занят
            другой страницей, к нему добавится короткое окончание.
          </Trans>
        </Text>
      ) : null}
      <Group gap="sm" justify="flex-end">
        {published ? (
          <Button
            variant="subtle"
            color="red"
            leftSection={<IconWorldOff size={18} aria-hidden />}
            loading={busy === 'unpublish'}
            onClick={() => void unpublish()}
          >
            <Trans>Снять с публикации</Trans>
          </Button>
        ) : null}
        <Button variant="default" onClick={onClose}>
          <Trans>Закрыть</Trans>
        </Button>
        {state !== 'published' || slugChanged ? (
          <Button
            leftSection={<IconWorldUpload size={18} aria-hidden />}
            loading={busy === 'publish'}
            onClick={() => void publish()}
          >
            {state === 'draft' ? (
              <Trans>Опубликовать</Trans>
            ) : (
              <Trans>Опубликовать изменения</Trans>
            )}
          </Button>
        ) : null}
      </Group>
    </Stack>
  )
}

/** The page's address: the link itself, copy, open, and its QR code to download. */
function PageLink({ url, slug }: { url: string; slug: string }) {
  const { t } = useLingui()
  const code = useMemo(() => qrCode(url), [url])
  const side = qrSide(code)
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url)
      notifySuccess(t`Ссылка скопирована`)
    } catch {
      notifyError(t`Не удалось скопировать ссылку. Выделите адрес и скопируйте его вручную.`)
    }
  }
  const savePng = async () => {
    try {
      download(await qrPng(code), `qr-${slug}.png`)
    } catch {
      notifyError(t`Не удалось сохранить картинку`)
    }
  }
  const saveSvg = () =>
    download(new Blob([qrSvg(code, url)], { type: 'image/svg+xml' }), `qr-${slug}.svg`)
  return (
    <div className={classes.page}>
      <svg
        className={classes.qr}
        viewBox={`0 0 ${side} ${side}`}
        shapeRendering="crispEdges"
        role="img"
        aria-label={t`QR-код адреса страницы`}
        data-testid="publish-qr"
      >
        <rect width={side} height={side} fill="#fff" />
        <path fill="#000" d={qrPath(code)} />
      </svg>
      <Stack gap="xs" miw={0}>
        <a className={classes.url} href={url} target="_blank" rel="noopener" data-testid="page-url">
          {url}
        </a>
        <Group gap="xs">
          <Button
            size="sm"
            variant="light"
            leftSection={<IconCopy size={16} aria-hidden />}
            onClick={() => void copy()}
          >
            <Trans>Скопировать ссылку</Trans>
          </Button>
          <ButtonAnchor
            size="sm"
            variant="light"
            leftSection={<IconExternalLink size={16} aria-hidden />}
            href={url}
            target="_blank"
            rel="noopener"
          >
            <Trans>Открыть</Trans>
          </ButtonAnchor>
        </Group>
        <Group gap="xs">
          <Button
            size="sm"
            variant="default"
            leftSection={<IconDownload size={16} aria-hidden />}
            onClick={() => void savePng()}
          >
            <Trans>QR-код PNG</Trans>
          </Button>
          <Button
            size="sm"
            variant="default"
            leftSection={<IconDownload size={16} aria-hidden />}
            onClick={saveSvg}
          >
            <Trans>QR-код SVG</Trans>
          </Button>
        </Group>
      </Stack>
    </div>
  )
}
