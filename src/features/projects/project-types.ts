import { msg } from '@lingui/core/macro'
import type { MessageDescriptor } from '@lingui/core'
import type { ProjectTypeId } from '../../domain/project.ts'

/** The two editors of DESIGN §2, named and explained in the UI language. */
export const TYPE_TEXT: Record<
  ProjectTypeId,
  { name: MessageDescriptor; sentence: MessageDescriptor }
> = {
  1: {
    name: msg`Лендинг`,
    sentence: msg`Страница для компьютера: секции-фоны идут одна под другой, посетитель прокручивает их сверху вниз.`,
  },
  2: {
    name: msg`Сторис`,
    sentence: msg`Вертикальные слайды во весь экран телефона: посетитель листает их касанием или свайпом.`,
  },
}

/** The editor route of a project: its type's editor, or the type choice when it has none. */
export function projectPath(project: { id: number; type: ProjectTypeId | null }): string {
  if (project.type === null) return `/project/${project.id}/type`
  return `/projects/${project.id}/edit/type-${project.type}`
}
