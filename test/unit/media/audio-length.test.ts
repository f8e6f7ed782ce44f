// The exact clip lengths the audio token rules get (rowAudioLengths): WAV and FLAC headers give the sample count;
// a compressed stream's decoded length depends on its decoder's priming and padding, so it stays unknown.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { rowAudioLengths } from '../../../main/services/workspace/media-sizes'
import { flac, oggVorbis, tone } from './audio-fixtures'
import { pcmWav } from '../../support/wav'

const dir = mkdtempSync(join(tmpdir(), 'pl-audio-length-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const wav = (frames: number, rate: number) => pcmWav(frames, { rate, channels: 2 })

async function lengthOf(name: string, bytes: Buffer) {
  writeFileSync(join(dir, name), bytes)
  const of = await rowAudioLengths([{ field: 'audio', kind: 'audio', refKind: 'relative', value: name }], join(dir, 'data.jsonl'), [dir])
  return of(name)
}

describe('audio clip lengths for the token rules', () => {
  it('a stereo WAV: its sample frames and rate', async () => {
    expect(await lengthOf('a.wav', wav(12345, 22050))).toEqual({ samples: 12345, sampleRate: 22050 })
  })

  it('a FLAC: STREAMINFO total samples', async () => {
    expect(await lengthOf('a.flac', flac(tone(0.25, 16000, 1), 16000))).toEqual({ samples: 4000, sampleRate: 16000 })
  })

  it('an Ogg Vorbis clip is unknown', async () => {
    expect(await lengthOf('a.ogg', await oggVorbis(tone(0.25, 16000, 1), 16000))).toBeNull()
  })

  it('a file outside the opened roots is unknown', async () => {
    const of = await rowAudioLengths([{ field: 'audio', kind: 'audio', refKind: 'absolute', value: '/etc/hostname' }], join(dir, 'data.jsonl'), [dir])
    expect(of('/etc/hostname')).toBeNull()
  })
})
