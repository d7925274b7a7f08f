import './directory-messages.ts'
import { t } from '@lingui/core/macro'
import type { Department, Location, Specialist } from '../../domain/directory.ts'
import { removeRecord } from '../records/index.ts'
import { nestQuotes } from '../../domain/quotes.ts'

// One confirmation per kind, shared by its list (the row's bin) and its form («Удалить»).

export function removeDepartment(record: Department): Promise<boolean> {
  const { id } = record
  const name = nestQuotes(record.name)
  return removeRecord('department', id, {
    title: t`Удалить отделение?`,
    message: t`Отделение «${name}» будет удалено. У его специалистов поле «Отделение» станет пустым.`,
    done: t`Отделение «${name}» удалено`,
  })
}

export function removeLocation(record: Location): Promise<boolean> {
  const { id } = record
  const name = nestQuotes(record.name)
  return removeRecord('location', id, {
    title: t`Удалить локацию?`,
    message: t`Локация «${name}» будет удалена. У её специалистов поле «Локация» станет пустым.`,
    done: t`Локация «${name}» удалена`,
  })
}

export function removeSpecialist(record: Specialist): Promise<boolean> {
  const { id } = record
  const name = nestQuotes(record.name)
  return removeRecord('specialist', id, {
    title: t`Удалить специалиста?`,
    message: t`Специалист «${name}» будет удалён из справочника.`,
    done: t`Специалист «${name}» удалён`,
  })
}
