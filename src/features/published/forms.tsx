import { Trans, useLingui } from '@lingui/react/macro'
import { takesRequests } from '../../domain/block.ts'
import type { PageSnapshot } from '../../domain/publish.ts'
import { formatDayMonth, formatPrice } from '../../domain/format.ts'
import { useBlockLabels } from '../editor/blocks/use-block-labels.ts'

/**
 * The request forms of a published page's gift, price and subscribe blocks (docs/requests.md).
 * Each is a sheet the block's button opens by its anchor (`#form-<id>`, CSS `:target`), a plain
 * HTML form that posts to `/p/{slug}/submit`, so it works without JavaScript; the page's script
 * sends it in place. The server stamps each answer's forms with a fresh `form_token` and
 * `submission_id` where the placeholders below stand (server/published/page-route.ts).
 */

/** Stamped per answer by the server: the signed time the form was served. */
export const FORM_TOKEN_SLOT = '__PROMO_FORM_TOKEN__'
/** Stamped per answer by the server: a random id; each form adds its block's id to it. */
export const SUBMISSION_SLOT = '__PROMO_SUBMISSION__'

export const formAnchor = (blockId: number) => `form-${blockId}`

type FormBlock = PageSnapshot['blocks'][number]

export interface FormValues {
  name?: string
  phone?: string
  comment?: string
  consent?: boolean
}

export interface RequestFormProps {
  block: FormBlock
  slug: string
  snapshot: PageSnapshot
  /** Field errors in Russian (the server's), shown next to their fields. */
  errors?: Record<string, string>
  values?: FormValues
  /** A form shown on a page of its own (after errors): open, without the sheet's anchor. */
  standalone?: boolean
}

/** A form-bearing block's title line, as its card shows it. */
function useFormTitle(
  block: FormBlock,
  snapshot: PageSnapshot,
): { title: string; lines: string[] } {
  const labels = useBlockLabels()
  const str = (key: string) => (typeof block[key] === 'string' ? (block[key] as string) : '')
  if (block.type === 'gift') return { title: str('text') || labels.giftButton, lines: [] }
  if (block.type === 'price') {
    const price = typeof block.text_price === 'number' ? formatPrice(block.text_price) : ''
    return { title: str('text') || price, lines: price && str('text') ? [price] : [] }
  }
  const specialist = snapshot.specialists.find((s) => s.id === block.specialist_id)
  const date = formatDayMonth(str('date'))
  return {
    title: specialist?.name ?? labels.noSpecialist,
    lines: [specialist?.position ?? '', date].filter(Boolean),
  }
}

function useSubmitLabel(block: FormBlock): string {
  const labels = useBlockLabels()
  const str = (key: string) => (typeof block[key] === 'string' ? (block[key] as string).trim() : '')
  if (block.type === 'gift') return labels.giftButton
  if (block.type === 'price') return str('button_text') || labels.buy
  return str('action') || labels.subscribe
}

function FieldError({ id, error }: { id: string; error?: string }) {
  return (
    <span className="field-error" id={id} data-error="" hidden={!error}>
      {error ?? ''}
    </span>
  )
}

export function RequestForm({
  block,
  slug,
  snapshot,
  errors = {},
  values = {},
  standalone,
}: RequestFormProps) {
  const { t } = useLingui()
  const { title, lines } = useFormTitle(block, snapshot)
  const submit = useSubmitLabel(block)
  const id = formAnchor(block.id)
  const specialist =
    block.type === 'subscribe'
      ? snapshot.specialists.find((s) => s.id === block.specialist_id)
      : undefined
  const field = (name: string) => ({
    name,
    id: `${id}-${name}`,
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': `${id}-${name}-error`,
  })
  return (
    <div
      className={standalone ? 'sheet open' : 'sheet'}
      id={standalone ? undefined : id}
      role="dialog"
      aria-modal={standalone ? undefined : true}
      aria-labelledby={`${id}-title`}
    >
      {standalone ? null : <a className="sheet-backdrop" href="#" aria-label={t`Закрыть`} />}
      <div className="sheet-card">
        {standalone ? null : (
          <a className="sheet-close" href="#" aria-label={t`Закрыть`}>
            ×
          </a>
        )}
        {specialist?.photo_url ? (
          <img className="sheet-photo" src={specialist.photo_url} alt="" width={64} height={64} />
        ) : null}
        <h2 id={`${id}-title`}>{title}</h2>
        {lines.map((line) => (
          <p className="sheet-line" key={line}>
            {line}
          </p>
        ))}
        <form
          method="post"
          action={`/p/${slug}/submit`}
          data-form=""
          data-kind={block.type}
          noValidate
        >
          <input type="hidden" name="block_id" value={block.id} />
          <input type="hidden" name="form_token" value={FORM_TOKEN_SLOT} />
          <input type="hidden" name="submission_id" value={`${SUBMISSION_SLOT}-${block.id}`} />
          <label htmlFor={`${id}-name`}>
            <Trans>Ваше имя</Trans>
          </label>
          <input
            {...field('name')}
            type="text"
            autoComplete="name"
            required
            maxLength={200}
            defaultValue={values.name}
          />
          <FieldError id={`${id}-name-error`} error={errors.name} />
          <label htmlFor={`${id}-phone`}>
            <Trans>Телефон</Trans>
          </label>
          <input
            {...field('phone')}
            type="tel"
            inputMode="tel"
            autoComplete="tel"
            placeholder="+7 900 000-00-00"
            required
            maxLength={50}
            defaultValue={values.phone}
          />
          <FieldError id={`${id}-phone-error`} error={errors.phone} />
          {block.type === 'subscribe' ? (
            <>
              <label htmlFor={`${id}-comment`}>
                <Trans>Комментарий (необязательно)</Trans>
              </label>
              <textarea
                {...field('comment')}
                rows={3}
                maxLength={2000}
                defaultValue={values.comment}
              />
              <FieldError id={`${id}-comment-error`} error={errors.comment} />
            </>
          ) : null}
          <div className="consent">
            <input
              {...field('consent')}
              type="checkbox"
              value="on"
              required
              defaultChecked={values.consent}
            />
            <label htmlFor={`${id}-consent`}>
              <Trans>
                Согласен(на) на обработку персональных данных в соответствии с{' '}
                <a href={`/p/${slug}/privacy`} target="_blank" rel="noopener">
                  политикой конфиденциальности
                </a>
              </Trans>
            </label>
          </div>
          <FieldError id={`${id}-consent-error`} error={errors.consent} />
          {/* People never see or fill this; bots that fill every field do. */}
          <div className="hp" aria-hidden="true">
            <label htmlFor={`${id}-website`}>
              <Trans>Сайт</Trans>
            </label>
            <input
              name="website"
              id={`${id}-website`}
              type="text"
              tabIndex={-1}
              autoComplete="off"
            />
          </div>
          <p className="form-error" role="alert" data-form-error="" hidden={!errors._}>
            {errors._ ?? ''}
          </p>
          <button type="submit">{submit}</button>
        </form>
        <div className="sheet-done" data-done="" hidden>
          <Thanks block={block} />
        </div>
      </div>
    </div>
  )
}

/** What a visitor sees once their request is sent: for a gift, the gift and its link. */
export function Thanks({ block }: { block: FormBlock }) {
  const giftText = typeof block.text === 'string' ? block.text : ''
  const giftUrl = typeof block.button_url === 'string' ? block.button_url : ''
  return (
    <>
      <h2>
        <Trans>Спасибо! Заявка отправлена</Trans>
      </h2>
      {block.type === 'gift' ? (
        <>
          <p>
            <Trans>Ваш подарок: {giftText}</Trans>
          </p>
          {giftUrl && /^https?:\/\//i.test(giftUrl) ? (
            <a className="sheet-button" href={giftUrl} target="_blank" rel="noopener noreferrer">
              <Trans>Получить подарок</Trans>
            </a>
          ) : null}
        </>
      ) : (
        <p>
          <Trans>Мы свяжемся с вами в ближайшее время.</Trans>
        </p>
      )}
    </>
  )
}

/** Every form of the page, after its sections. */
export function PageForms({ snapshot, slug }: { snapshot: PageSnapshot; slug: string }) {
  const { t } = useLingui()
  const blocks = snapshot.blocks.filter((b) => takesRequests(b.type))
  if (blocks.length === 0) return null
  return (
    <div
      data-forms=""
      data-msg-network={t`Нет связи. Проверьте интернет и отправьте ещё раз.`}
      data-msg-busy={t`Слишком много заявок. Подождите минуту и отправьте ещё раз.`}
      data-msg-failed={t`Не удалось отправить заявку. Попробуйте ещё раз.`}
      data-msg-sending={t`Отправляем…`}
    >
      {blocks.map((block) => (
        <RequestForm key={block.id} block={block} slug={slug} snapshot={snapshot} />
      ))}
    </div>
  )
}
