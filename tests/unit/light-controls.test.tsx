import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { afterEach, describe, expect, it } from 'vitest'
// @ts-expect-error: Mantine's own helper, not exported from the package's types
import { getInitialsColor } from '../../node_modules/@mantine/core/esm/components/Avatar/get-initials-color/get-initials-color.mjs'
import { initialsColor } from '../../src/features/directory/specialist-photo.tsx'
import { initials } from '../../src/ui/initials.ts'
import { Switch } from '../../src/ui/switch.tsx'

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
