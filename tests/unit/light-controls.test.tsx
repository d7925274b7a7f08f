import { I18nProvider } from '@lingui/react'
import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createRef, useState } from 'react'
import { afterEach, describe, expect, it } from 'vitest'
// @ts-expect-error: Mantine's own helper, not exported from the package's types
import { getInitialsColor } from '../../node_modules/@mantine/core/esm/components/Avatar/get-initials-color/get-initials-color.mjs'
import { i18n } from '../../src/app/i18n.ts'
import { initialsColor } from '../../src/features/directory/specialist-photo.tsx'
import { Alert } from '../../src/ui/alert.tsx'
import { InitialsAvatar } from '../../src/ui/avatar.tsx'
import { Button, PlainButton } from '../../src/ui/button.tsx'
import { Checkbox } from '../../src/ui/checkbox.tsx'
import { initials } from '../../src/ui/initials.ts'
import {
  Box,
  Group,
  IconTile,
  Paper,
  ScrollBox,
  SimpleGrid,
  Stack,
  Text,
  Title,
  VisuallyHidden,
} from '../../src/ui/layout.tsx'
import { Progress } from '../../src/ui/progress.tsx'
import { PasswordInput } from '../../src/ui/password-input.tsx'
import { Switch } from '../../src/ui/switch.tsx'
import { TextInput } from '../../src/ui/text-input.tsx'
import { Textarea } from '../../src/ui/textarea.tsx'

afterEach(() => {
  document.body.innerHTML = ''
})

function Toggle({ onChange }: { onChange: (on: boolean) => void }) {
  const [on, setOn] = useState(false)
  return (
    <Switch
      checked={on}
      aria-label={on ? 'Выключить Анна' : 'Включить Анна'}
      onChange={(event) => {
        setOn(event.currentTarget.checked)
        onChange(event.currentTarget.checked)
      }}
    />
  )
}

describe('the light switch', () => {
  it('is a named switch that a click and the Space key turn on and off', async () => {
    const seen: boolean[] = []
    render(<Toggle onChange={(on) => seen.push(on)} />)
    const user = userEvent.setup()
    const off = screen.getByRole('switch', { name: 'Включить Анна' })
    expect((off as HTMLInputElement).checked).toBe(false)
    await user.click(off)
    const on = screen.getByRole('switch', { name: 'Выключить Анна' })
    expect((on as HTMLInputElement).checked).toBe(true)
    on.focus()
    await user.keyboard(' ')
    expect(screen.getByRole('switch', { name: 'Включить Анна' })).toBeTruthy()
    expect(seen).toEqual([true, false])
  })

  it('does not change when disabled', async () => {
    const seen: boolean[] = []
    render(<Switch aria-label="Включить" disabled onChange={() => seen.push(true)} />)
    await userEvent.setup().click(screen.getByRole('switch', { name: 'Включить' }))
    expect(seen).toEqual([])
  })
})

describe('a specialist without a photo', () => {
  it('shows the initials of the first two words, or the first two letters of one', () => {
    expect(initials('Иванова Анна Сергеевна')).toBe('ИА')
    expect(initials('анна')).toBe('АН')
    expect(initials('  Пётр   Ильич ')).toBe('ПИ')
    expect(initials('   ')).toBe('?')
  })

  it('keeps the colour Mantine gave the same name', () => {
    for (const name of ['Иванова Анна Сергеевна', 'Кузнецов Дмитрий', 'Борис', 'Smith'])
      expect(initialsColor(name)).toBe(getInitialsColor(name))
  })
})

describe('the form controls of src/ui', () => {
  it('ties a text input to its label, its description and its error', () => {
    render(
      <TextInput
        label="Поддомен"
        description="Часть адреса"
        error="Обязательное поле"
        required
        defaultValue=""
      />,
    )
    const input = screen.getByRole('textbox', { name: 'Поддомен' })
    expect(input).toHaveAttribute('aria-invalid', 'true')
    expect(input).toBeRequired()
    expect(input).toHaveAccessibleDescription('Часть адреса Обязательное поле')
  })

  it('is not marked invalid without an error', () => {
    render(<Textarea label="Описание" description="Коротко" defaultValue="" />)
    const area = screen.getByRole('textbox', { name: 'Описание' })
    expect(area).not.toHaveAttribute('aria-invalid')
    expect(area).toHaveAccessibleDescription('Коротко')
  })

  it('shows a typed password on demand, saying so in aria-pressed, not in the name', async () => {
    render(
      <I18nProvider i18n={i18n}>
        <PasswordInput label="Пароль" error="Не короче 8 символов" defaultValue="secret" />
      </I18nProvider>,
    )
    const user = userEvent.setup()
    const input = screen.getByLabelText('Пароль', { selector: 'input' })
    expect(input).toHaveAttribute('type', 'password')
    expect(input).toHaveAccessibleDescription('Не короче 8 символов')
    const reveal = screen.getByRole('button', { name: 'Показать пароль' })
    expect(reveal).toHaveAttribute('aria-pressed', 'false')
    await user.click(reveal)
    expect(input).toHaveAttribute('type', 'text')
    expect(screen.getByRole('button', { name: 'Показать пароль' })).toHaveAttribute(
      'aria-pressed',
      'true',
    )
  })

  it('toggles a checkbox from its label and from the keyboard', async () => {
    const seen: boolean[] = []
    render(
      <Checkbox label="Без заливки" onChange={(event) => seen.push(event.currentTarget.checked)} />,
    )
    const user = userEvent.setup()
    await user.click(screen.getByText('Без заливки'))
    const box = screen.getByRole('checkbox', { name: 'Без заливки' })
    expect(box).toBeChecked()
    box.focus()
    await user.keyboard(' ')
    expect(seen).toEqual([true, false])
  })

  it('does not submit twice while its button is busy', async () => {
    const clicks: number[] = []
    const { rerender } = render(<Button onClick={() => clicks.push(1)}>Войти</Button>)
    const user = userEvent.setup()
    await user.click(screen.getByRole('button', { name: 'Войти' }))
    rerender(
      <Button loading onClick={() => clicks.push(2)}>
        Войти
      </Button>,
    )
    const busy = screen.getByRole('button', { name: 'Войти' })
    expect(busy).toHaveAttribute('aria-busy', 'true')
    expect(busy).toBeDisabled()
    await user.click(busy)
    expect(clicks).toEqual([1])
  })

  it('draws an alert with its title and text, read out when asked', () => {
    render(
      <Alert color="red" role="alert" title="Сервер не принял изменение">
        Название занято
      </Alert>,
    )
    const alert = screen.getByRole('alert')
    expect(alert).toHaveTextContent('Сервер не принял изменение')
    expect(alert).toHaveTextContent('Название занято')
  })
})

/** An inline style property of an element, custom properties included. */
const styleOf = (el: HTMLElement, name: string) => el.style.getPropertyValue(name)

describe('the layout and text of src/ui', () => {
  it('spaces a stack and a group with the theme spacing or pixels, aligned as asked', () => {
    render(
      <Stack gap="lg" align="center" justify="space-between" data-testid="stack">
        <Group gap={6} wrap="nowrap" justify="flex-end" align="flex-start" grow data-testid="group">
          <span>а</span>
        </Group>
      </Stack>,
    )
    const stack = screen.getByTestId('stack')
    expect(styleOf(stack, '--stack-gap')).toBe('var(--mantine-spacing-lg)')
    expect(styleOf(stack, '--stack-align')).toBe('center')
    expect(styleOf(stack, '--stack-justify')).toBe('space-between')
    const group = screen.getByTestId('group')
    expect(styleOf(group, '--group-gap')).toBe('0.375rem')
    expect(styleOf(group, '--group-wrap')).toBe('nowrap')
    expect(styleOf(group, '--group-justify')).toBe('flex-end')
    expect(styleOf(group, '--group-align')).toBe('flex-start')
    expect(group).toHaveAttribute('data-grow', 'true')
  })

  it('keeps a list a list, and passes its role, name and ref through', () => {
    const ref = createRef<HTMLDivElement>()
    render(
      <>
        <Stack component="ul" aria-label="Изменения">
          <Paper component="li" withBorder radius="md">
            Первое
          </Paper>
        </Stack>
        <Stack ref={ref} role="list" aria-label="Слои">
          <div role="listitem">Текст</div>
        </Stack>
      </>,
    )
    const changes = screen.getByRole('list', { name: 'Изменения' })
    expect(changes.tagName).toBe('UL')
    const item = screen.getByText('Первое')
    expect(item.tagName).toBe('LI')
    expect(item).toHaveAttribute('data-with-border', 'true')
    expect(styleOf(item, '--paper-radius')).toBe('var(--mantine-radius-md)')
    expect(ref.current).toBe(screen.getByRole('list', { name: 'Слои' }))
  })

  it('turns the box props into styles and the breakpoints into classes', () => {
    render(
      <Box
        p="md"
        py={6}
        mt={-6}
        mx="auto"
        maw={420}
        mih={0}
        h="100%"
        flex={1}
        pos="relative"
        ta="center"
        bg="white"
        hiddenFrom="md"
        className="own"
        style={{ overflow: 'hidden' }}
        data-testid="box"
      />,
    )
    const box = screen.getByTestId('box')
    expect(box.style.padding).toBe('var(--mantine-spacing-md)')
    expect(box.style.paddingBlock).toBe('0.375rem')
    expect(box.style.marginTop).toBe('-0.375rem')
    expect(box.style.marginInline).toBe('auto')
    expect(box.style.maxWidth).toBe('26.25rem')
    expect(box.style.minHeight).toBe('0rem')
    expect(box.style.height).toBe('100%')
    expect(box.style.position).toBe('relative')
    expect(box.style.textAlign).toBe('center')
    expect(box.style.background).toBe('white')
    expect(box.style.overflow).toBe('hidden')
    expect(box.className.split(' ')).toContain('own')
    expect(box.className.split(' ').length).toBe(2)
  })

  it('draws text in the theme size, colour, weight and element asked for', () => {
    render(
      <>
        <Text size="sm" c="dimmed" fw={600} tt="uppercase" truncate data-testid="hint">
          Подсказка
        </Text>
        <Text component="span" c="red.9" id="status" role="status" aria-live="polite">
          Не удалось сохранить
        </Text>
        <Text c="blue" fz="lg" inherit data-testid="link">
          Выбрать
        </Text>
      </>,
    )
    const hint = screen.getByTestId('hint')
    expect(hint.tagName).toBe('P')
    expect(styleOf(hint, '--text-fz')).toBe('var(--mantine-font-size-sm)')
    expect(styleOf(hint, '--text-lh')).toBe('var(--mantine-line-height-sm)')
    expect(hint.style.color).toBe('var(--mantine-color-dimmed)')
    expect(hint.style.fontWeight).toBe('600')
    expect(hint.style.textTransform).toBe('uppercase')
    expect(hint).toHaveAttribute('data-truncate', 'true')
    const status = screen.getByRole('status')
    expect(status.tagName).toBe('SPAN')
    expect(status).toHaveAttribute('id', 'status')
    expect(status).toHaveAttribute('aria-live', 'polite')
    expect(status.style.color).toBe('var(--mantine-color-red-9)')
    const link = screen.getByTestId('link')
    expect(link.style.color).toBe('var(--mantine-color-blue-text)')
    expect(link.style.fontSize).toBe('var(--mantine-font-size-lg)')
    expect(link).toHaveAttribute('data-inherit', 'true')
  })

  it('makes a title a heading of its level, in its own size or the one asked for', () => {
    render(
      <>
        <Title order={1} lineClamp={1} title="Длинное название">
          Длинное название
        </Title>
        <Title order={3} fz="lg">
          Свойства
        </Title>
      </>,
    )
    const h1 = screen.getByRole('heading', { level: 1, name: 'Длинное название' })
    expect(styleOf(h1, '--title-fz')).toBe('var(--mantine-h1-font-size)')
    expect(styleOf(h1, '--line-clamp')).toBe('1')
    expect(h1).toHaveAttribute('data-line-clamp', 'true')
    expect(h1).toHaveAttribute('title', 'Длинное название')
    const h3 = screen.getByRole('heading', { level: 3, name: 'Свойства' })
    expect(styleOf(h3, '--title-fz')).toBe('var(--mantine-font-size-lg)')
    expect(styleOf(h3, '--title-fw')).toBe('var(--mantine-h3-font-weight)')
  })

  it('lays a grid out in one column on a phone and two from sm', () => {
    render(
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing={4} data-testid="grid">
        <div />
      </SimpleGrid>,
    )
    const grid = screen.getByTestId('grid')
    expect(styleOf(grid, '--grid-cols')).toBe('1')
    expect(styleOf(grid, '--grid-cols-sm')).toBe('2')
    expect(styleOf(grid, '--grid-spacing')).toBe('0.25rem')
    expect(grid).toHaveAttribute('data-cols-sm', 'true')
  })

  it('reads out hidden text, and hides decorations from assistive technology', () => {
    render(
      <PlainButton aria-current="true">
        <IconTile size={48} radius="md">
          ★
        </IconTile>
        <InitialsAvatar name="Анна Иванова" size={56} />
        <VisuallyHidden>Секция 1, блоков: 3</VisuallyHidden>
      </PlainButton>,
    )
    expect(screen.getByRole('button', { name: 'Секция 1, блоков: 3' })).toBeTruthy()
    const avatar = document.querySelector('[data-initials]') as HTMLElement
    expect(avatar).toHaveAttribute('data-initials', 'АИ')
    expect(avatar).toHaveAttribute('aria-hidden', 'true')
    expect(styleOf(avatar, '--avatar-size')).toBe('56px')
  })

  it('gives a plain button type "button", its state and its ref', async () => {
    const ref = createRef<HTMLButtonElement>()
    const clicks: number[] = []
    render(
      <form onSubmit={() => clicks.push(0)}>
        <PlainButton ref={ref} aria-pressed={true} onClick={() => clicks.push(1)}>
          Текст
        </PlainButton>
      </form>,
    )
    const button = screen.getByRole('button', { name: 'Текст', pressed: true })
    expect(button).toHaveAttribute('type', 'button')
    expect(ref.current).toBe(button)
    await userEvent.setup().click(button)
    expect(clicks).toEqual([1])
  })

  it('shows an upload as a named progress bar, its value kept within 0–100', () => {
    render(
      <>
        <Progress value={42} aria-label="Загрузка файла на сервер" />
        <Progress value={140} aria-label="Слишком много" />
      </>,
    )
    const bar = screen.getByRole('progressbar', { name: 'Загрузка файла на сервер' })
    expect(bar).toHaveAttribute('aria-valuenow', '42')
    expect(styleOf(bar, '--progress-value')).toBe('42%')
    expect(screen.getByRole('progressbar', { name: 'Слишком много' })).toHaveAttribute(
      'aria-valuenow',
      '100',
    )
  })

  it('lets a scrolling region keep a maximum height and room for its scroll bar', () => {
    render(<ScrollBox mah={320} stableGutter data-testid="scroll" />)
    const scroll = screen.getByTestId('scroll')
    expect(scroll.style.maxHeight).toBe('20rem')
    expect(scroll).toHaveAttribute('data-gutter', 'true')
  })
})
