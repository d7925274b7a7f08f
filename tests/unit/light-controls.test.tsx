import { I18nProvider } from '@lingui/react'
import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { afterEach, describe, expect, it } from 'vitest'
// @ts-expect-error: Mantine's own helper, not exported from the package's types
import { getInitialsColor } from '../../node_modules/@mantine/core/esm/components/Avatar/get-initials-color/get-initials-color.mjs'
import { i18n } from '../../src/app/i18n.ts'
import { initialsColor } from '../../src/features/directory/specialist-photo.tsx'
import { Alert } from '../../src/ui/alert.tsx'
import { Button } from '../../src/ui/button.tsx'
import { Checkbox } from '../../src/ui/checkbox.tsx'
import { initials } from '../../src/ui/initials.ts'
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
