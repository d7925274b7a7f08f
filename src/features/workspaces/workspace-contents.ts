import { plural, t } from '@lingui/core/macro'
import { nestQuotes } from '../../domain/quotes.ts'

export interface WorkspaceContents {
  projects: number
  integrations: number
  departments: number
  locations: number
  specialists: number
}

/**
 * «3 проекта, 1 интеграция, …»: what a workspace holds, for the delete confirmation; kinds it holds
 * none of are left out ('' when it is empty).
 */
export function describeContents(contents: WorkspaceContents): string {
  const counts = [
    contents.projects,
    contents.integrations,
    contents.departments,
    contents.locations,
    contents.specialists,
  ]
  /* eslint-disable no-restricted-syntax -- the forms inside Lingui's plural() macro are extracted and translated */
  const parts = [
    plural(contents.projects, {
      one: '# проект',
      few: '# проекта',
      many: '# проектов',
      other: '# проекта',
    }),
    plural(contents.integrations, {
      one: '# интеграция',
      few: '# интеграции',
      many: '# интеграций',
      other: '# интеграции',
    }),
    plural(contents.departments, {
      one: '# отделение',
      few: '# отделения',
      many: '# отделений',
      other: '# отделения',
    }),
    plural(contents.locations, {
      one: '# локация',
      few: '# локации',
      many: '# локаций',
      other: '# локации',
    }),
    plural(contents.specialists, {
      one: '# специалист',
      few: '# специалиста',
      many: '# специалистов',
      other: '# специалиста',
    }),
  ]
  /* eslint-enable no-restricted-syntax */
  return parts.filter((_, i) => counts[i]! > 0).join(', ')
}

/** The delete confirmation's text: only the kinds the workspace holds are named. */
export function deleteWorkspaceMessage(workspaceName: string, contents: WorkspaceContents): string {
  const name = nestQuotes(workspaceName)
  const list = describeContents(contents)
  if (!list)
    return t`Пространство «${name}» пусто. Оно будет удалено без возможности восстановления.`
  return t`В пространстве «${name}»: ${list}. Пространство и всё это будет удалено без возможности восстановления.`
}
