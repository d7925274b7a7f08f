import { Trans, useLingui } from '@lingui/react/macro'
import { IconBarrierBlock, IconCompassOff, IconLock, IconRocket } from '@tabler/icons-react'
import { Button } from './button.tsx'
import { ButtonLink } from './links.tsx'
import { StatusPage } from './status-page.tsx'

const reload = () => window.location.reload()

export function NotFoundPage() {
  const { t } = useLingui()
  return (
    <StatusPage
      icon={IconCompassOff}
      code="404"
      title={t`Страница не найдена`}
      description={t`Такой страницы нет или она была перемещена. Проверьте адрес или вернитесь к проектам.`}
      actions={
        <ButtonLink to="/projects">
          <Trans>К проектам</Trans>
        </ButtonLink>
      }
    />
  )
}

export function NotAuthorizedPage() {
  const { t } = useLingui()
  return (
    <StatusPage
      icon={IconLock}
      color="orange"
      code="403"
      title={t`Нет доступа`}
      description={t`У вашей учётной записи нет прав на этот раздел. Обратитесь к администратору.`}
      actions={
        <>
          <ButtonLink to="/projects">
            <Trans>К проектам</Trans>
          </ButtonLink>
          <ButtonLink variant="default" to="/pages/login">
            <Trans>Войти под другим аккаунтом</Trans>
          </ButtonLink>
        </>
      }
    />
  )
}

export function MaintenancePage() {
  const { t } = useLingui()
  return (
    <StatusPage
      icon={IconBarrierBlock}
      color="yellow"
      title={t`Идут технические работы`}
      description={t`Сервис временно недоступен. Изменения, сделанные на этом устройстве, сохранятся и отправятся, когда работы закончатся.`}
      actions={
        <Button onClick={reload}>
          <Trans>Проверить снова</Trans>
        </Button>
      }
    />
  )
}

export function ComingSoonPage() {
  const { t } = useLingui()
  return (
    <StatusPage
      icon={IconRocket}
      color="grape"
      title={t`Скоро открытие`}
      description={t`Мы готовим этот раздел. Загляните немного позже.`}
      actions={
        <ButtonLink to="/projects">
          <Trans>К проектам</Trans>
        </ButtonLink>
      }
    />
  )
}
