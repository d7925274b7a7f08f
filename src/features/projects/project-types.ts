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
export function projectRoute(project: { id: number; type: ProjectTypeId | null }) {
  const params = { id: String(project.id) }
  if (project.type === null) return { to: '/project/$id/type', params } as const
  if (project.type === 1) return { to: '/projects/$id/edit/type-1', params } as const
  return { to: '/projects/$id/edit/type-2', params } as const
}
