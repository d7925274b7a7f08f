import { Trans, useLingui } from '@lingui/react/macro'
import {
  IconCopy,
  IconLayoutGrid,
  IconPencil,
  IconPlus,
  IconTrash,
  IconWorldUpload,
} from '@tabler/icons-react'
import { useNavigate } from '@tanstack/react-router'
import { lazy, Suspense, useMemo, useState, type FormEvent } from 'react'
import * as v from 'valibot'
import { commands } from '../../mirror/commands.ts'
import {
  useCurrentWorkspaceId,
  useProjects,
  useSyncMarks,
  useWaitingPages,
} from '../../mirror/live.ts'
import type { Project } from '../../domain/project.ts'
import { requiredText } from '../../domain/validation.ts'
import { Badge } from '../../ui/badge.tsx'
import { Button, IconButton } from '../../ui/button.tsx'
import { confirmDelete } from '../../ui/confirm-delete.ts'
import { EmptyState } from '../../ui/empty-state.tsx'
import { issuesToFieldErrors } from '../../ui/field-error.ts'
import { PageHeader } from '../../ui/page-header.tsx'
import { RecordList, type SortOption, recordId } from '../../ui/record-list.tsx'
import { TextInput } from '../../ui/text-input.tsx'
import { byName, NoWorkspace, runCommand } from '../records/index.ts'
import { useOnline, useRefresh } from '../../sync/client.ts'
import { PublishDialogHost, PublishStatus } from '../publishing/index.ts'
import { projectRoute, TYPE_TEXT } from './project-types.ts'
import classes from './projects-page.module.css'
import { nestQuotes } from '../../domain/quotes.ts'

const ProjectName = v.object({ name: requiredText() })

/** The checked name, or its message in the user's language. */
export function checkProjectName(name: string): { name: string } | { error: string } {
  const parsed = v.safeParse(ProjectName, { name })
  return parsed.success ? parsed.output : { error: issuesToFieldErrors(parsed.issues).name ?? '' }
}

function formatChange(iso: string, locale: string): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return ''
  return new Intl.DateTimeFormat(locale === 'en' ? 'en-GB' : 'ru-RU', {
    dateStyle: 'medium',
    timeStyle: 'short',
  }).format(date)
}

/**
 * The project's first background, small, as the server names it (an upload the service worker
 * caches once seen); a plain tile when there is none yet or the image cannot load.
 */
function ProjectCover({ project }: { project: Project }) {
  const [failed, setFailed] = useState(false)
  const url = project.cover_url
  return (
    <div className={classes.cover} aria-hidden>
      {url && !failed ? (
        <img src={url} alt="" loading="lazy" decoding="async" onError={() => setFailed(true)} />
      ) : (
        <IconLayoutGrid size={20} />
      )}
    </div>
  )
}

export function ProjectsPage() {
  const { t, i18n } = useLingui()
  const navigate = useNavigate()
  const workspaceId = useCurrentWorkspaceId()
  useRefresh(workspaceId ? { kind: 'projects', workspaceId } : null)
  const items = useProjects(workspaceId ?? null)
  const marks = useSyncMarks('projects')
  const waitingPages = useWaitingPages()
  const online = useOnline()
  const [adding, setAdding] = useState(false)
  const [renaming, setRenaming] = useState<number | null>(null)
  const [publishing, setPublishing] = useState<number | null>(null)

  const sorts = useMemo<SortOption<Project>[]>(
    () => [
      { value: 'name', label: t`По названию`, compare: byName },
      {
        value: 'changed',
        label: t`По дате изменения`,
        compare: (a, b) => a.updated_at.localeCompare(b.updated_at),
      },
    ],
    [t],
  )

  const open = (project: Project) => void navigate(projectRoute(project))

  const copy = async (project: Project) => {
    const name = nestQuotes(project.name)
    await runCommand(() => commands.copyProject(project.id), t`Создана копия проекта «${name}»`)
  }

  const remove = async (project: Project) => {
    const name = nestQuotes(project.name)
    const ok = await confirmDelete({
      title: t`Удалить проект?`,
      message: t`Проект «${name}» со всеми фонами и блоками будет удалён.`,
    })
    if (ok) await runCommand(() => commands.deleteProject(project.id), t`Проект «${name}» удалён`)
  }

  const addButton = (
    <Button leftSection={<IconPlus size={18} aria-hidden />} onClick={() => setAdding(true)}>
      <Trans>Новый проект</Trans>
    </Button>
  )
  const label = (verb: 'rename' | 'copy' | 'delete' | 'publish', name: string) =>
    verb === 'rename'
      ? t`Переименовать ${name}`
      : verb === 'copy'
        ? t`Копировать ${name}`
        : verb === 'publish'
          ? t`Опубликовать ${name}`
          : t`Удалить ${name}`

  return (
    <div className={classes.page}>
      <PageHeader title={t`Проекты`} actions={workspaceId ? addButton : null} />
      {adding && workspaceId ? (
        <NewProject workspaceId={workspaceId} onClose={() => setAdding(false)} />
      ) : null}
      {publishing !== null ? (
        <PublishDialogHost projectId={publishing} onClose={() => setPublishing(null)} />
      ) : null}
      {workspaceId === null ? (
        <NoWorkspace />
      ) : (
        <RecordList
          label={t`Проекты`}
          items={workspaceId === undefined ? undefined : items}
          getId={recordId}
          searchText={(item) => item.name}
          searchPlaceholder={t`Поиск по названию`}
          sorts={sorts}
          marks={marks}
          editingId={renaming}
          onOpen={open}
          renderRow={(item) =>
            renaming === item.id ? (
              <RenameField project={item} onDone={() => setRenaming(null)} />
            ) : (
              <span className={classes.summary}>
                <ProjectCover project={item} />
                <span className={classes.text}>
                  <span className={classes.name}>{item.name}</span>
                  <span className={classes.details}>
                    {item.type === null ? (
                      <Badge color="gray">
                        <Trans>Тип не выбран</Trans>
                      </Badge>
                    ) : (
                      <Badge>{i18n._(TYPE_TEXT[item.type].name)}</Badge>
                    )}
                    <PublishStatus
                      project={item}
                      waiting={waitingPages.get(item.id)}
                      online={online}
                      className={classes.pageState}
                    />
                    <span className={classes.changed}>
                      {formatChange(item.updated_at, i18n.locale)}
                    </span>
                  </span>
                </span>
              </span>
            )
          }
          renderActions={(item) =>
            renaming === item.id ? null : (
              <>
                <IconButton
                  variant="subtle"
                  onClick={() => setRenaming(item.id)}
                  aria-label={label('rename', item.name)}
                >
                  <IconPencil size={20} />
                </IconButton>
                <IconButton
                  variant="subtle"
                  onClick={() => setPublishing(item.id)}
                  aria-label={label('publish', item.name)}
                >
                  <IconWorldUpload size={20} />
                </IconButton>
                <IconButton
                  variant="subtle"
                  onClick={() => void copy(item)}
                  aria-label={label('copy', item.name)}
                >
                  <IconCopy size={20} />
                </IconButton>
                <IconButton
                  variant="subtle"
                  color="red"
                  onClick={() => void remove(item)}
                  aria-label={label('delete', item.name)}
                >
                  <IconTrash size={20} />
                </IconButton>
              </>
            )
          }
          empty={
            <EmptyState
              icon={IconLayoutGrid}
              title={<Trans>Проектов пока нет</Trans>}
              description={
                <Trans>
                  Создайте проект, выберите его тип — лендинг или сторис — и соберите страницу из
                  блоков.
                </Trans>
              }
              action={addButton}
            />
          }
        />
      )}
    </div>
  )
}

// Loaded when a rename starts: the list's first load does without it.
const InlineRename = lazy(() =>
  import('../../ui/inline-rename.tsx').then((m) => ({ default: m.InlineRename })),
)

function RenameField({ project, onDone }: { project: Project; onDone: () => void }) {
  const { t } = useLingui()
  return (
    <Suspense fallback={null}>
      <InlineRename
        label={t`Название проекта`}
        name={project.name}
        check={checkProjectName}
        save={(next) =>
          runCommand(() => commands.renameProject(project.id, next), t`Проект переименован`)
        }
        onDone={onDone}
      />
    </Suspense>
  )
}

function NewProject({ workspaceId, onClose }: { workspaceId: number; onClose: () => void }) {
  const { t } = useLingui()
  const navigate = useNavigate()
  const [name, setName] = useState('')
  const [error, setError] = useState<string>()
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const checked = checkProjectName(name)
    if ('error' in checked) return setError(checked.error)
    const id = await runCommand(
      () => commands.createProject(workspaceId, checked.name),
      t`Проект создан`,
    )
    if (id === undefined) return
    onClose()
    void navigate({ to: '/project/$id/type', params: { id: String(id) } })
  }
  return (
    <div className={classes.newProject}>
      <form
        onSubmit={(event) => void submit(event)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') onClose()
        }}
        noValidate
      >
        <div className={classes.newFields}>
          <TextInput
            label={t`Название нового проекта`}
            placeholder={t`Например, Акция на чистку зубов`}
            value={name}
            onChange={(event) => {
              setName(event.currentTarget.value)
              setError(undefined)
            }}
            error={error}
            autoFocus
          />
          <div className={classes.newActions}>
            <Button variant="default" onClick={onClose}>
              <Trans>Отмена</Trans>
            </Button>
            <Button type="submit">
              <Trans>Создать</Trans>
            </Button>
          </div>
        </div>
      </form>
    </div>
  )
}
