import { Trans, useLingui } from '@lingui/react/macro'
import { Button, Group, Input, PasswordInput, Text, TextInput } from '@mantine/core'
import { IconLock } from '@tabler/icons-react'
import { useId } from 'react'

export interface SecretFieldProps {
  label: string
  /** The stored secret shown masked; `null` on a new record (then the field is a plain input). */
  masked: string | null
  /** `null` keeps the stored secret; a string is the new one being typed. */
  value: string | null
  onChange: (value: string | null) => void
  error?: string
  name: string
  /** Plain text input instead of a password field (a webhook URL). */
  visible?: boolean
  description?: string
}

/**
 * A secret is never shown in full: the stored one appears masked with «Заменить», which opens an
 * empty field for the new value; «Не менять» goes back to keeping the stored one.
 */
export function SecretField(props: SecretFieldProps) {
  const { t } = useLingui()
  const maskedId = useId()
  if (props.masked !== null && props.value === null) {
    return (
      <Input.Wrapper
        size="md"
        withAsterisk
        label={props.label}
        description={props.description}
        error={props.error}
      >
        <Group gap="sm" wrap="nowrap" mt={4}>
          <Group
            gap={8}
            wrap="nowrap"
            flex={1}
            miw={0}
            px="sm"
            h={42}
            bg="gray.0"
            style={{
              borderRadius: 'var(--mantine-radius-md)',
              border: '1px solid var(--mantine-color-gray-3)',
            }}
          >
            <IconLock size={16} aria-hidden />
            <Text id={maskedId} truncate="end" ff="monospace" data-testid={`${props.name}-masked`}>
              {props.masked}
            </Text>
          </Group>
          <Button
            variant="light"
            size="md"
            onClick={() => props.onChange('')}
            aria-describedby={maskedId}
          >
            <Trans>Заменить</Trans>
          </Button>
        </Group>
      </Input.Wrapper>
    )
  }
  const Field = props.visible ? TextInput : PasswordInput
  return (
    <Group gap="sm" align="flex-start" wrap="nowrap">
      <Field
        flex={1}
        size="md"
        name={props.name}
        label={props.label}
        description={props.description}
        autoComplete="off"
        value={props.value ?? ''}
        onChange={(event) => props.onChange(event.currentTarget.value)}
        error={props.error}
        aria-invalid={Boolean(props.error)}
        required
        data-autofocus={props.masked !== null ? true : undefined}
        autoFocus={props.masked !== null}
      />
      {props.masked !== null ? (
        <Button
          variant="default"
          size="md"
          mt={props.description ? 46 : 25}
          onClick={() => props.onChange(null)}
        >
          {t`Не менять`}
        </Button>
      ) : null}
    </Group>
  )
}
