import { sniffImage } from '../uploads/image.ts'
import { sniffVideo } from '../uploads/video.ts'

/** Bytes of a multipart body read at most before its kind is judged. */
const HEAD_BYTES = 64 * 1024
/** Bytes of the file itself that tell an image from a video. */
const FILE_HEAD_BYTES = 4096
/** Room for the multipart framing and the other fields around the file. */
const FRAMING_BYTES = 64 * 1024

/**
 * The body limit of an upload that may be an image or a video, judged from the start of its
 * `file` part as it arrives (server/http/body-limit.ts): a video may be as large as the video
 * limit, anything else (an image, or what will be refused as neither) only as large as the image
 * limit. So an image is never read beyond its own limit, however large the video limit is.
 */
export function mediaLimitFor(imageMaxBytes: number, videoMaxBytes: number) {
  const imageLimit = imageMaxBytes + FRAMING_BYTES
  const videoLimit = videoMaxBytes + FRAMING_BYTES
  return (head: Uint8Array, complete: boolean): number | null => {
    const enough = complete || head.byteLength >= HEAD_BYTES
    const text = Buffer.from(head.buffer, head.byteOffset, head.byteLength).toString('latin1')
    const part = /content-disposition:[^\r\n]*\bname="file"/i.exec(text)
    const start = part ? text.indexOf('\r\n\r\n', part.index) : -1
    if (start < 0) return enough ? imageLimit : null
    const file = head.subarray(start + 4)
    if (file.byteLength < FILE_HEAD_BYTES && !enough) return null
    if (sniffImage(file)) return imageLimit
    return sniffVideo(file) ? videoLimit : imageLimit
  }
}
