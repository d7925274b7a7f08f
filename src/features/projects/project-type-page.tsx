import { Trans, useLingui } from '@lingui/react/macro'
import { PlainButton } from '../../ui/button.tsx'
import { Paper, SimpleGrid, Stack, Text } from '../../ui/layout.tsx'
import { useNavigate } from '@tanstack/react-router'
import { useCallback, useRef, useState } from 'react'
import { commands } from '../../mirror/commands.ts'
import {
  useBackgrounds,
  useBlocksOfProject,
  useProject,
  useProjectTypes,
} from '../../mirror/live.ts'
import { confirmDialog } from '../../ui/confirm.tsx'
import { PROJECT_TYPE_IDS, type ProjectTypeId } from '../../domain/project.ts'
import { PageHeader } from '../../ui/page-header.tsx'
import {
  RecordLoading,
  RecordMissing,
  runCommand,
  useFollowId,
  useKeepWhileLoading,
} from '../records/index.ts'
import { useRefresh } from '../../sync/client.ts'
import { describeTypeChange, projectRoute, TYPE_TEXT } from './project-types.ts'
import { TypePicture } from './type-picture.tsx'

/** /project/$id/type: choose the editor; choosing sets the type and opens that editor. */
export function ProjectTypePage({ id }: { id: number }) {
  const { t, i18n } = useLingui()
  const navigate = useNavigate()
  useRefresh({ kind: 'projectTypes' })
  useRefresh({ kind: 'project', projectId: id })
  const project = useKeepWhileLoading(useProject(id), id)
  const types = useProjectTypes()
  // Kept while the project follows its server id, as the project is.
  const backgrounds = useKeepWhileLoading(useBackgrounds(id), id)
  const blocks = useKeepWhileLoading(useBlocksOfProject(id), id)
  const [choosing, setChoosing] = useState<ProjectTypeId | null>(null)
  // Once a type is chosen the page is on its way to the editor (whose code may still be loading,
  // with this page on screen): the editor follows the project to its server id, this page must not
  // pull the person back to the type choice when the id arrives meanwhile.
  const leaving = useRef(false)
  const follow = useCallback(
    (next: number) => {
      if (leaving.current) return
      void navigate({ to: '/project/$id/type', params: { id: String(next) }, replace: true })
    },
    [navigate],
  )
  useFollowId('projects', id, follow)

  // What the project holds decides whether to ask before changing its type: not known yet, a tap
  // would change a project with content without asking, or say less than it holds.
  if (project === undefined || backgrounds == null || blocks == null) {
    return <RecordLoading />
  }
  if (project === null)
    return (
      <RecordMissing
        onBack={() => void navigate({ to: '/projects' })}
        backLabel={<Trans>К проектам</Trans>}
      />
    )

  // The server's list decides which types exist; before it first arrives, offer the two known ones.
  const offered = (types?.length ? types.map((type) => type.id) : [...PROJECT_TYPE_IDS]).filter(
    (type): type is ProjectTypeId => type in TYPE_TEXT,
  )

  const choose = async (type: ProjectTypeId) => {
    if (choosing) return
    // A project with content changes its editor only when the person has read what happens to it.
    const from = project.type
    const content = { backgrounds: backgrounds.length, blocks: blocks.length }
    if (from !== null && from !== type && content.backgrounds > 0) {
      const change = describeTypeChange(from, type, content)
      const typeName = i18n._(TYPE_TEXT[type].name)
      const ok = await confirmDialog({
        title: t`Сменить тип проекта на «${typeName}»?`,
        message: change,
        confirmLabel: t`Сменить тип`,
        cancelLabel: t`Отмена`,
      })
      if (!ok) return
    }
    setChoosing(type)
    const done = await runCommand(() => commands.setProjectType(project.id, type).then(() => true))
    setChoosing(null)
    if (!done) return
    leaving.current = true
    void navigate(projectRoute({ id: project.id, type }))
  }

  const name = project.name
  return (
    <Stack gap="lg" maw={880}>
      <PageHeader title={t`Тип проекта`}>
        <Text c="dimmed">
          <Trans>
            Выберите, каким будет проект «{name}». Тип определяет редактор и то, как страницу увидит
            посетитель.
          </Trans>
        </Text>
      </PageHeader>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {offered.map((type) => {
          const server = types?.find((item) => item.id === type)
          return (
            <PlainButton
              key={type}
              onClick={() => void choose(type)}
              aria-pressed={project.type === type}
              disabled={choosing !== null}
              data-testid={`type-${type}`}
            >
              <Paper
                withBorder
                radius="lg"
                p="lg"
                h="100%"
                style={
                  project.type === type
                    ? { borderColor: 'var(--mantine-color-blue-6)', borderWidth: 2 }
                    : undefined
                }
              >
                <Stack gap="sm" align="flex-start">
                  <TypePicture type={type} />
                  <Text fw={700} fz="lg">
                    {i18n._(TYPE_TEXT[type].name)}
                  </Text>
                  <Text c="dimmed" size="sm">
                    {i18n._(TYPE_TEXT[type].sentence)}
                  </Text>
                  {server &&
                  server.name &&
                  i18n.locale === 'ru' &&
                  server.name !== i18n._(TYPE_TEXT[type].name) ? (
                    <Text size="xs" c="dimmed">
                      {server.name}
                    </Text>
                  ) : null}
                </Stack>
              </Paper>
            </PlainButton>
          )
        })}
      </SimpleGrid>
    </Stack>
  )
}
