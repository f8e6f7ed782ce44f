// The AISBench content string every multimodal loader returns: segments `<KIND_START>payload<AIS_CONTENT_TAG>`
// (utils/prompt/prompt.py), built part by part as datasets/utils/datasets.py:get_content_str does.
import { PyError, isDigit } from './py'

export const AIS_CONTENT_TAG = '<AIS_CONTENT_TAG>'
export const AIS_TEXT_START = '<AIS_TEXT_START>'
export const AIS_IMAGE_START = '<AIS_IMAGE_START>'
export const AIS_VIDEO_START = '<AIS_VIDEO_START>'
export const AIS_AUDIO_START = '<AIS_AUDIO_START>'

export type Msg = { type: 'text'; text: string } | { type: 'image_url'; image_url: string }

/** get_content_str: every part closed by the content tag (its video/audio branches are unused upstream). */
export function getContentStr(msgs: Msg[]): string {
  let content = ''
  for (const m of msgs) {
    content += m.type === 'text' ? AIS_TEXT_START + m.text : AIS_IMAGE_START + m.image_url
    content += AIS_CONTENT_TAG
  }
  return content
}

/**
 * split_MMMU (datasets/mmmu.py): the one text part split at '<image '; the character after it is a 1-based image
 * number (one digit only: `<image 12>` is image 1 and leaves `> …`), the text after it starts two characters on.
 */
export function splitMMMU(msgs: Msg[]): Msg[] {
  let text: string | null = null
  const images: string[] = []
  for (const s of msgs) {
    if (s.type === 'image_url') images.push(s.image_url)
    else text = s.text
  }
  if (text === null) throw new PyError('AttributeError', "'NoneType' object has no attribute 'split'")
  const segs = text.split('<image ')
  if (segs.length === 1) return msgs
  const out: Msg[] = [{ type: 'text', text: segs[0] }]
  for (let i = 1; i < segs.length; i++) {
    const seg = segs[i]
    const n = Number.parseInt(seg[0] ?? '', 10)
    if (!isDigit(seg[0])) throw new PyError('ValueError', `invalid literal for int() with base 10: '${seg[0] ?? ''}'`)
    const idx = n - 1
    const img = idx < 0 ? images[images.length + idx] : images[idx]
    if (img === undefined) throw new PyError('IndexError', 'list index out of range')
    out.push({ type: 'image_url', image_url: img })
    out.push({ type: 'text', text: seg.slice(2) })
  }
  return out
}
