// One WAV maker for the tests that need audio files: 16-bit PCM, as the readers and token rules expect.

/** A 16-bit PCM WAV of `frames` sample frames at `rate` Hz; channel 0 holds amp(frame) in [-1, 1], the rest silence. */
export function pcmWav(frames: number, opts: { rate?: number; channels?: number; amp?: (frame: number) => number } = {}): Buffer {
  const { rate = 16000, channels = 1, amp } = opts
  const frameBytes = 2 * channels
  const data = Buffer.alloc(frames * frameBytes)
  if (amp) for (let f = 0; f < frames; f++) data.writeInt16LE(Math.round(amp(f) * 32767), f * frameBytes)
  const h = Buffer.alloc(44)
  h.write('RIFF', 0)
  h.writeUInt32LE(36 + data.length, 4)
  h.write('WAVEfmt ', 8)
  h.writeUInt32LE(16, 16)
  h.writeUInt16LE(1, 20)
  h.writeUInt16LE(channels, 22)
  h.writeUInt32LE(rate, 24)
  h.writeUInt32LE(rate * frameBytes, 28)
  h.writeUInt16LE(frameBytes, 32)
  h.writeUInt16LE(16, 34)
  h.write('data', 36)
  h.writeUInt32LE(data.length, 40)
  return Buffer.concat([h, data])
}
