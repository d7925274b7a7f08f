import './directory-messages.ts'
import { useLingui } from '@lingui/react/macro'
import { useUploadProgress } from '../../sync/client.ts'
import classes from './directory-lists.module.css'
import { isLocalFileUrl } from './photo-url.ts'
import { SpecialistPhoto } from './specialist-photo.tsx'

// The form's photo apart from the list's, so the specialists list loads none of the upload state.

/** The photo in the form, with what happens to a file not yet on the server. */
export function SpecialistPhotoPreview({ url }: { url: string }) {
  const { t } = useLingui()
  const progress = useUploadProgress(url)
  const percent = progress === null ? 0 : Math.round(progress * 100)
  return (
    <div className={classes.preview}>
      <SpecialistPhoto url={url} size={72} />
      {progress !== null ? (
        <div className={classes.progress}>
          <div
            className={classes.progressBar}
            role="progressbar"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent}
            aria-label={t`Загрузка фото`}
            style={{ width: `${percent}%` }}
          />
        </div>
      ) : isLocalFileUrl(url) ? (
        <p className={classes.waiting}>{t`Ждёт загрузки`}</p>
      ) : null}
    </div>
  )
}
