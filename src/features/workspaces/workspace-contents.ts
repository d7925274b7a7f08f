import { plural, t } from '@lingui/core/macro'

export interface WorkspaceContents {
  projects: number
  integrations: number
  departments: number
  locations: number
  specialists: number
}

/** «3 проекта, 1 интеграция, …»: what a workspace holds, for the delete confirmation. */
export function describeContents(contents: WorkspaceContents): string {
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
  return parts.join(', ')
}

export function deleteWorkspaceMessage(name: string, contents: WorkspaceContents): string {
  const list = describeContents(contents)
  return t`В пространстве «${name}»: ${list}. Пространство и всё это будет удалено без возможности восстановления.`
}
