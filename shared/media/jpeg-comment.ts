// The comment Pillow keeps from a JPEG (JpegImagePlugin.COM: info["comment"], the last COM segment before the
// scan) and writes again when the picture is saved as JPEG (JpegImagePlugin._save: comment = im.info.get(
// "comment"); libjpeg puts it right after the JFIF header).

/** The last COM segment's bytes before the first SOS, or null (not a JPEG, or no comment). */
export function jpegComment(bytes: Uint8Array): Uint8Array | null {
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) return null
  let comment: Uint8Array | null = null
  for (let at = 2; at + 4 <= bytes.length; ) {
    if (bytes[at] !== 0xff) return comment
    const marker = bytes[at + 1]
    if (marker === 0xff) {
      at++
      continue
    }
    if (marker === 0xda || marker === 0xd9) break
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2
      continue
    }
    const n = (bytes[at + 2] << 8) | bytes[at + 3]
    if (marker === 0xfe) comment = bytes.subarray(at + 4, at + 2 + n)
    at += 2 + n
  }
  return comment
}

/** A JPEG with a COM segment holding `comment` inserted after the JFIF and Adobe headers libjpeg writes first. */
export function withJpegComment(jpeg: Uint8Array, comment: Uint8Array | null): Uint8Array {
  if (!comment || !comment.length) return jpeg
  let at = 2
  while (jpeg[at] === 0xff && (jpeg[at + 1] === 0xe0 || jpeg[at + 1] === 0xee)) at += 2 + ((jpeg[at + 2] << 8) | jpeg[at + 3])
  const com = new Uint8Array(4 + comment.length)
  com.set([0xff, 0xfe, (comment.length + 2) >> 8, (comment.length + 2) & 255])
  com.set(comment, 4)
  const out = new Uint8Array(jpeg.length + com.length)
  out.set(jpeg.subarray(0, at))
  out.set(com, at)
  out.set(jpeg.subarray(at), at + com.length)
  return out
}
