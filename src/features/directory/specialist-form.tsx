import './directory-messages.ts'
import { Trans, useLingui } from '@lingui/react/macro'
import { Group, SimpleGrid } from '../../ui/layout.tsx'
import { IconPhoto, IconTrash } from '@tabler/icons-react'
import { useState, type ReactNode } from 'react'
import * as v from 'valibot'
import { SpecialistFields, type Specialist } from '../../domain/directory.ts'
import { IMAGE_SIGNATURE_BYTES, imageKindOf } from '../../domain/image-kind.ts'
import { Button } from '../../ui/button.tsx'
import { errorMessage } from '../../ui/field-error.ts'
import { FileButton } from '../../ui/file-button.tsx'
import { FormTextarea, FormTextInput } from '../../ui/form-fields.tsx'
import { RecordFormFrame, type RecordFormProps, useRecordFormOf } from '../records/index.ts'
import { Select } from '../../ui/select.ts'
import { SwitchField } from '../../ui/switch-field.tsx'
import { FieldGroup } from '../../ui/text-input.tsx'

/**
 * The server's specialist fields, except that a picker may hold a department or location created
 * offline: its id is local (negative) until its add replays, and the sync layer rewrites it then.
 */
export const SpecialistSchema = v.object({
  ...SpecialistFields,
  department_id: v.nullable(v.pipe(v.number(), v.integer())),
  location_id: v.nullable(v.pipe(v.number(), v.integer())),
  enabled: v.boolean(),
})
export type SpecialistValues = Omit<Specialist, 'id' | 'workspace_id'>
export type SpecialistOutput = v.InferOutput<typeof SpecialistSchema>
export const emptySpecialist: SpecialistValues = {
  name: '',
  position: '',
  department_id: null,
  location_id: null,
  phone: '',
  email: '',
  photo_url: '',
  description: '',
  enabled: true,
}

export interface PickerOption {
  id: number
  name: string
}

const PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif']
const PHOTO_MAX_BYTES = 10 * 1024 * 1024

export interface SpecialistFormProps extends RecordFormProps<SpecialistValues, SpecialistOutput> {
  departments: readonly PickerOption[] | undefined
  locations: readonly PickerOption[] | undefined
  /** Stores a photo and returns a URL usable at once (offline it waits in IndexedDB). */
  uploadPhoto: (file: File) => Promise<string>
  /** Draws the photo of a URL (resolving one still waiting for upload). */
  renderPhoto: (url: string) => ReactNode
}

function pickerData(options: readonly PickerOption[] | undefined) {
  return (options ?? []).map((option) => ({ value: String(option.id), label: option.name }))
}

export function SpecialistForm(props: SpecialistFormProps) {
  const { t } = useLingui()
  const form = useRecordFormOf(props, SpecialistSchema)
  const [uploading, setUploading] = useState(false)
  // Why the picked file was refused, under the photo: the form and its other fields stay as they are.
  const [photoError, setPhotoError] = useState<string>()

  const pickPhoto = async (file: File | null) => {
    if (!file) return
    setPhotoError(undefined)
    if (file.size > PHOTO_MAX_BYTES) {
      setPhotoError(t`Фото больше 10 МБ. Выберите файл поменьше.`)
      return
    }
    setUploading(true)
    try {
      // The file's own first bytes, not its name: a renamed document is refused here, at once,
      // rather than waiting in the outbox for the server to refuse it.
      const head = new Uint8Array(await file.slice(0, IMAGE_SIGNATURE_BYTES).arrayBuffer())
      if (!imageKindOf(head)) {
        setPhotoError(t`Этот файл не изображение. Выберите фото в формате JPEG, PNG, WebP или GIF.`)
        return
      }
      form.set('photo_url', await props.uploadPhoto(file))
    } catch (error: unknown) {
      setPhotoError(errorMessage(error))
    } finally {
      setUploading(false)
    }
  }

  return (
    <RecordFormFrame props={props} form={form}>
      <FormTextInput
        form={form}
        field="name"
        label={t`ФИО`}
        required
        autoFocus
        autoComplete="off"
      />
      <FormTextInput
        form={form}
        field="position"
        label={t`Должность`}
        placeholder={t`Например, врач-терапевт`}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Select
          size="md"
          name="department_id"
          label={t`Отделение`}
          placeholder={t`Не выбрано`}
          data={pickerData(props.departments)}
          value={form.values.department_id === null ? null : String(form.values.department_id)}
          onChange={(value) => form.set('department_id', value === null ? null : Number(value))}
          error={form.errors.department_id}
          searchable
          clearable
          nothingFoundMessage={t`Нет такого отделения`}
        />
        <Select
          size="md"
          name="location_id"
          label={t`Локация`}
          placeholder={t`Не выбрано`}
          data={pickerData(props.locations)}
          value={form.values.location_id === null ? null : String(form.values.location_id)}
          onChange={(value) => form.set('location_id', value === null ? null : Number(value))}
          error={form.errors.location_id}
          searchable
          clearable
          nothingFoundMessage={t`Нет такой локации`}
        />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <FormTextInput
          form={form}
          field="phone"
          label={t`Телефон`}
          type="tel"
          inputMode="tel"
          autoComplete="tel"
        />
        <FormTextInput
          form={form}
          field="email"
          label={t`Электронная почта`}
          type="email"
          inputMode="email"
          autoComplete="email"
        />
      </SimpleGrid>
      <FieldGroup label={t`Фото`} error={photoError ?? form.errors.photo_url}>
        <Group gap="md" mt={6} align="center">
          {form.values.photo_url ? props.renderPhoto(form.values.photo_url) : null}
          <FileButton onChange={(file) => void pickPhoto(file)} accept={PHOTO_TYPES.join(',')}>
            {(buttonProps) => (
              <Button
                {...buttonProps}
                variant="light"
                loading={uploading}
                leftSection={<IconPhoto size={18} />}
              >
                {form.values.photo_url ? (
                  <Trans>Заменить фото</Trans>
                ) : (
                  <Trans>Загрузить фото</Trans>
                )}
              </Button>
            )}
          </FileButton>
          {form.values.photo_url ? (
            <Button
              variant="subtle"
              color="red"
              leftSection={<IconTrash size={18} />}
              onClick={() => {
                setPhotoError(undefined)
                form.set('photo_url', '')
              }}
            >
              <Trans>Убрать фото</Trans>
            </Button>
          ) : null}
        </Group>
      </FieldGroup>
      <FormTextarea form={form} field="description" label={t`Описание`} />
      <SwitchField
        name="enabled"
        label={t`Специалист активен`}
        description={t`Выключенный специалист не показывается посетителям.`}
        checked={form.values.enabled}
        onChange={(event) => form.set('enabled', event.currentTarget.checked)}
      />
    </RecordFormFrame>
  )
}
