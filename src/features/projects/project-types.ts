import { msg, plural, t } from '@lingui/core/macro'
import type { MessageDescriptor } from '@lingui/core'
import type { ProjectTypeId } from '../../domain/project.ts'

/** The two editors (docs/editor.md "Two editors"), named and explained in the UI language. */
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

/**
 * What a change of type does to a project's content (docs/screens.md «Decisions»): nothing is
 * lost or moved; its backgrounds are shown the other editor's way, each keeping its proportions.
 */
export function describeTypeChange(
  from: ProjectTypeId,
  to: ProjectTypeId,
  content: { backgrounds: number; blocks: number },
): string {
  /* eslint-disable no-restricted-syntax -- the forms inside Lingui's plural() macro are extracted and translated */
  const backgrounds =
    to === 2
      ? plural(content.backgrounds, {
          one: '# секция',
          few: '# секции',
          many: '# секций',
          other: '# секции',
        })
      : plural(content.backgrounds, {
          one: '# слайд',
          few: '# слайда',
          many: '# слайдов',
          other: '# слайда',
        })
  const blocks = plural(content.blocks, {
    one: '# блок',
    few: '# блока',
    many: '# блоков',
    other: '# блока',
  })
  /* eslint-enable no-restricted-syntax */
  const kept =
    content.blocks > 0
      ? t`В проекте ${backgrounds} и ${blocks}: ничего не удалится, блоки останутся на своих местах относительно фонов.`
      : t`В проекте ${backgrounds}: ничего не удалится.`
  if (from === to) return kept
  const how =
    to === 2
      ? t`Секции станут слайдами сторис, по одному на экран телефона. Фоны сохранят свои пропорции: широкая картинка займёт не весь экран — для сторис лучше фоны 9:16.`
      : t`Слайды станут секциями лендинга, одна под другой во всю ширину страницы. Фоны сохранят свои пропорции.`
  return `${kept} ${how}`
}
