import { act, renderHook } from '@testing-library/react'
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { useRecordForm } from '../../src/ui/use-record-form.ts'

const schema = v.object({ name: v.string(), address: v.string() })

function useForm(initial: { name: string; address: string }) {
  return useRecordForm({ initial, schema, submit: () => Promise.resolve() })
}

describe('a record form when the record changes elsewhere', () => {
  it('follows the record while nothing was edited', () => {
    const { result, rerender } = renderHook(({ initial }) => useForm(initial), {
      initialProps: { initial: { name: 'Кардиология', address: '' } },
    })
    rerender({ initial: { name: 'Кардиоцентр', address: '' } })
    expect(result.current.values.name).toBe('Кардиоцентр')
    expect(result.current.outdated).toBe(false)
    expect(result.current.dirty).toBe(false)
  })

  it('keeps the person’s edits, says the record changed, and loads it on request', () => {
    const { result, rerender } = renderHook(({ initial }) => useForm(initial), {
      initialProps: { initial: { name: 'Кардиология', address: '' } },
    })
    act(() => result.current.set('address', 'ул. Ленина, 1'))
    rerender({ initial: { name: 'Кардиоцентр', address: '' } })
    expect(result.current.values).toEqual({ name: 'Кардиология', address: 'ул. Ленина, 1' })
    expect(result.current.outdated).toBe(true)
    act(() => result.current.reload())
    expect(result.current.values).toEqual({ name: 'Кардиоцентр', address: '' })
    expect(result.current.outdated).toBe(false)
    expect(result.current.dirty).toBe(false)
  })

  it('says nothing when the record now holds exactly what the form holds (its own save)', () => {
    const { result, rerender } = renderHook(({ initial }) => useForm(initial), {
      initialProps: { initial: { name: 'Кардиология', address: '' } },
    })
    act(() => result.current.set('name', 'Кардиоцентр'))
    rerender({ initial: { name: 'Кардиоцентр', address: '' } })
    expect(result.current.outdated).toBe(false)
    expect(result.current.dirty).toBe(false)
  })
})
