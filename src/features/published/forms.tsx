import { Trans, useLingui } from '@lingui/react/macro'
import { Fragment } from 'react'
import { referencedIds, takesRequests } from '../../domain/block.ts'
import type { PageSnapshot } from '../../domain/publish.ts'
import { requestFormOf, useBlockLabels } from '../editor/page-kit.ts'

/**
 * The request forms of a published page's gift, price and subscribe blocks (docs/requests.md).
 * Each is a sheet the block's button opens by its anchor (`#form-<id>`, CSS `:target`), a plain
 * HTML form that posts to `/p/{slug}/submit`, so it works without JavaScript; the page's script
 * sends it in place. The server stamps each answer's forms with a fresh `form_token` and
 * `submission_id` where the placeholders below stand (server/published/page-route.ts), in fields
 * at the end of the page (`FormStamps`).
 */

/** Stamped per answer by the server: the signed time the form was served. */
export const FORM_TOKEN_SLOT = '__PROMO_FORM_TOKEN__'
/** Stamped per answer by the server: a random id; each form adds its block's id to it. */
export const SUBMISSION_SLOT = '__PROMO_SUBMISSION__'

export const formAnchor = (blockId: number) => `form-${blockId}`
/** The `<form>` element's own id, which its stamped fields name. */
const formElementId = (blockId: number) => `${formAnchor(blockId)}-form`

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

/**
 * What a block's form says (its type's `requestForm`, `editor/blocks/<type>.ts`), with the
 * specialist it names as the page carries them.
 */
function useRequestForm(block: FormBlock, snapshot: PageSnapshot) {
  const labels = useBlockLabels()
  const [specialistId] = referencedIds(block, 'specialist')
  const specialist = snapshot.specialists.find((s) => s.id === specialistId) ?? null
  const look = requestFormOf(block, { labels, specialist })
  return {
    specialist,
    look: look ?? { title: '', lines: [], submit: labels.subscribe, comment: false },
  }
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
  const { specialist, look } = useRequestForm(block, snapshot)
  const { title, lines, submit } = look
  const id = formAnchor(block.id)
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
          id={formElementId(block.id)}
          method="post"
          action={`/p/${slug}/submit`}
          data-form=""
          data-kind={block.type}
          noValidate
        >
          <input type="hidden" name="block_id" value={block.id} />
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
          {look.comment ? (
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
          <Thanks block={block} snapshot={snapshot} />
        </div>
      </div>
    </div>
  )
}

/** What a visitor sees once their request is sent: for a gift, the gift and its link. */
export function Thanks({ block, snapshot }: { block: FormBlock; snapshot: PageSnapshot }) {
  const { gift } = useRequestForm(block, snapshot).look
  const giftText = gift?.text ?? ''
  const giftUrl = gift?.url ?? ''
  return (
    <>
      <h2>
        <Trans>Спасибо! Заявка отправлена</Trans>
      </h2>
      {gift ? (
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

/**
 * The forms' values of one answer, its signed time and a submission id per form: hidden fields
 * at the very end of the page, each tied to its form by the form's id (they are sent with it, with
 * or without the page's script). Everything before them is the same in every answer, so the server
 * compresses it once per published version (server/published/stamped-page.ts).
 */
export function FormStamps({ blockIds }: { blockIds: readonly number[] }) {
  return blockIds.map((blockId) => (
    <Fragment key={blockId}>
      <input
        type="hidden"
        form={formElementId(blockId)}
        name="form_token"
        value={FORM_TOKEN_SLOT}
      />
      <input
        type="hidden"
        form={formElementId(blockId)}
        name="submission_id"
        value={`${SUBMISSION_SLOT}-${blockId}`}
      />
    </Fragment>
  ))
}

/** The blocks of a page that take requests: each has a form. */
export const formBlocks = (snapshot: PageSnapshot) =>
  snapshot.blocks.filter((b) => takesRequests(b.type))

/** Every form of the page, after its sections. */
export function PageForms({ snapshot, slug }: { snapshot: PageSnapshot; slug: string }) {
  const { t } = useLingui()
  const blocks = formBlocks(snapshot)
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
