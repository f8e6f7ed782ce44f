#!/usr/bin/env node
// make-demo.mjs: re-creates the demo project in assets/demo/ and the app icon in assets/icons/.
//
// The generated files are committed; this script is the record of how they were made, so anyone can
// rebuild them and get the same bytes (given the same sharp/libvips, espeak-ng and sox versions).
//
//   node test/tools/make-demo.mjs                 # rewrite assets/demo and assets/icons in place
//   node test/tools/make-demo.mjs --out /tmp/x    # write <x>/demo and <x>/icons instead (to diff)
//   … --no-audio                                  # leave the spoken clips out (no espeak-ng/sox here)
//
// test/unit/demo/make-demo.test.ts regenerates into a temporary folder and compares with the committed bytes.
//
// Needs: sharp (npm dependency; renders SVG, writes png/jpeg/webp/gif), espeak-ng and sox with
// libsox-fmt-mp3 (Debian packages) on PATH. Every drawing is plain SVG defined below, so each
// question's answer is right by construction; text is drawn in DejaVu Sans.

import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
// sharp is CommonJS; resolve it from the repo so the script works from any cwd.
const sharp = createRequire(join(REPO, 'package.json'))('sharp')

const FONT = 'DejaVu Sans'

// ───────────────────────────── SVG drawing helpers ─────────────────────────────

function svgDoc(w, h, body, bg = '#ffffff') {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">` +
    `<rect width="${w}" height="${h}" fill="${bg}"/>${body}</svg>`
  )
}

function text(x, y, s, size, fill = '#222', anchor = 'middle', weight = 'normal') {
  return `<text x="${x}" y="${y}" font-family="${FONT}" font-size="${size}" font-weight="${weight}" text-anchor="${anchor}" fill="${fill}">${s}</text>`
}

const circle = (cx, cy, r, fill) => `<circle cx="${cx}" cy="${cy}" r="${r}" fill="${fill}"/>`
const rect = (x, y, w, h, fill, rx = 0) =>
  `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="${rx}" fill="${fill}"/>`

function polygon(points, fill) {
  return `<polygon points="${points.map((p) => p.map((v) => round(v)).join(',')).join(' ')}" fill="${fill}"/>`
}

function triangle(cx, cy, r, fill) {
  return polygon(
    [0, 1, 2].map((i) => {
      const a = -Math.PI / 2 + (i * 2 * Math.PI) / 3
      return [cx + r * Math.cos(a), cy + r * Math.sin(a) + r * 0.2]
    }),
    fill
  )
}

function star(cx, cy, r, fill) {
  return polygon(
    Array.from({ length: 10 }, (_, i) => {
      const a = -Math.PI / 2 + (i * Math.PI) / 5
      const rr = i % 2 === 0 ? r : r * 0.45
      return [cx + rr * Math.cos(a), cy + rr * Math.sin(a)]
    }),
    fill
  )
}

const round = (v) => Math.round(v * 100) / 100

/** A vertical bar chart; values decide bar heights, so "which is largest" is true by construction. */
function barChart(w, h, title, bars) {
  const top = h * 0.18
  const bottom = h * 0.84
  const left = w * 0.1
  const right = w * 0.95
  const max = Math.max(...bars.map((b) => b.value))
  const slot = (right - left) / bars.length
  let body = text(w / 2, h * 0.1, title, h * 0.055, '#222', 'middle', 'bold')
  body += `<line x1="${left}" y1="${bottom}" x2="${right}" y2="${bottom}" stroke="#444" stroke-width="3"/>`
  body += `<line x1="${left}" y1="${top}" x2="${left}" y2="${bottom}" stroke="#444" stroke-width="3"/>`
  bars.forEach((b, i) => {
    const bh = ((bottom - top) * b.value) / max
    const x = left + slot * i + slot * 0.2
    body += rect(round(x), round(bottom - bh), round(slot * 0.6), round(bh), b.color)
    body += text(round(x + slot * 0.3), round(bottom - bh - h * 0.015), String(b.value), h * 0.04)
    if (b.label) body += text(round(x + slot * 0.3), round(bottom + h * 0.06), b.label, h * 0.045)
  })
  return svgDoc(w, h, body, '#fbfbf8')
}

/** A line chart over labelled points; the highest point is the answer. */
function lineChart(w, h, title, points) {
  const top = h * 0.2
  const bottom = h * 0.82
  const left = w * 0.08
  const right = w * 0.92
  const max = Math.max(...points.map((p) => p.value))
  const step = (right - left) / (points.length - 1)
  const xy = points.map((p, i) => [round(left + i * step), round(bottom - ((bottom - top) * p.value) / max)])
  let body = text(w / 2, h * 0.1, title, h * 0.06, '#222', 'middle', 'bold')
  body += `<line x1="${left}" y1="${bottom}" x2="${right}" y2="${bottom}" stroke="#999" stroke-width="2"/>`
  body += `<polyline points="${xy.map((p) => p.join(',')).join(' ')}" fill="none" stroke="#2563eb" stroke-width="6" stroke-linejoin="round"/>`
  xy.forEach(([x, y], i) => {
    body += circle(x, y, 9, '#2563eb')
    body += text(x, round(bottom + h * 0.08), points[i].label, h * 0.05)
  })
  return svgDoc(w, h, body, '#ffffff')
}

/** An analogue clock face; hour and minute hands point at the given time. */
function clock(size, hour, minute) {
  const c = size / 2
  const r = size * 0.42
  let body =
    circle(c, c, r, '#fffdf5') +
    `<circle cx="${c}" cy="${c}" r="${r}" fill="none" stroke="#333" stroke-width="${size * 0.025}"/>`
  for (let i = 1; i <= 12; i++) {
    const a = (i * Math.PI) / 6 - Math.PI / 2
    body += text(
      round(c + r * 0.78 * Math.cos(a)),
      round(c + r * 0.78 * Math.sin(a) + size * 0.03),
      String(i),
      size * 0.08,
      '#333'
    )
  }
  const hand = (angle, len, width, color) => {
    const a = angle - Math.PI / 2
    return `<line x1="${c}" y1="${c}" x2="${round(c + len * Math.cos(a))}" y2="${round(c + len * Math.sin(a))}" stroke="${color}" stroke-width="${width}" stroke-linecap="round"/>`
  }
  body += hand(((hour % 12) + minute / 60) * (Math.PI / 6), r * 0.5, size * 0.03, '#111')
  body += hand(minute * (Math.PI / 30), r * 0.6, size * 0.018, '#111')
  body += circle(c, c, size * 0.025, '#b91c1c')
  return svgDoc(size, size, body, '#e5e7eb')
}

// ───────────────────────────── images ─────────────────────────────
// name → { w, h, format, svg }. Paths in the rows are "media/<name>".

const IMAGES = {
  // train
  'train-circle.png': { svg: svgDoc(320, 240, circle(160, 120, 70, '#dc2626')) },
  'train-count.jpg': {
    svg: svgDoc(400, 300, [70, 170, 270].map((x) => rect(x, 110, 70, 70, '#2563eb', 6)).join(''), '#f8fafc')
  },
  'train-bars.webp': {
    svg: barChart(480, 360, 'Two bars', [
      { value: 9, color: '#16a34a', label: 'left' },
      { value: 4, color: '#9333ea', label: 'right' }
    ])
  },
  // test
  'shapes-01.png': {
    svg: svgDoc(
      640,
      480,
      triangle(95, 240, 75, '#2563eb') +
        rect(180, 175, 130, 130, '#dc2626') +
        circle(405, 240, 65, '#16a34a') +
        star(555, 240, 72, '#f59e0b'),
      '#fafaf9'
    )
  },
  'count-dots.jpg': {
    svg: svgDoc(
      800,
      600,
      [
        [120, 110],
        [330, 90],
        [560, 140],
        [700, 300],
        [220, 330],
        [450, 420],
        [640, 500]
      ]
        .map(([x, y]) => circle(x, y, 40, '#facc15'))
        .join('') +
        [
          [300, 230],
          [120, 500],
          [520, 280]
        ]
          .map(([x, y]) => circle(x, y, 40, '#7c3aed'))
          .join(''),
      '#1f2937'
    )
  },
  'chart-fruit.webp': {
    svg: barChart(1024, 768, 'Fruit sold on Monday', [
      { value: 12, color: '#ef4444', label: 'Apples' },
      { value: 18, color: '#eab308', label: 'Bananas' },
      { value: 7, color: '#be123c', label: 'Cherries' },
      { value: 10, color: '#92400e', label: 'Dates' }
    ])
  },
  'sign-open.png': {
    svg: svgDoc(
      1600,
      1200,
      rect(300, 380, 1000, 440, '#166534', 40) +
        rect(330, 410, 940, 380, 'none', 28).replace('fill="none"', 'fill="none" stroke="#f0fdf4" stroke-width="10"') +
        text(800, 680, 'OPEN', 260, '#f0fdf4', 'middle', 'bold') +
        `<line x1="600" y1="380" x2="800" y2="160" stroke="#57534e" stroke-width="12"/>` +
        `<line x1="1000" y1="380" x2="800" y2="160" stroke="#57534e" stroke-width="12"/>` +
        circle(800, 160, 22, '#57534e'),
      '#e0f2fe'
    )
  },
  'traffic-light.gif': {
    svg: svgDoc(
      240,
      480,
      rect(60, 30, 120, 360, '#111827', 24) +
        rect(108, 390, 24, 80, '#374151') +
        circle(120, 95, 40, '#3f1d1d') +
        circle(120, 210, 40, '#3f3a1d') +
        circle(120, 325, 40, '#22c55e'),
      '#bfdbfe'
    )
  },
  'clock.jpg': { svg: clock(600, 3, 0) },
  'circles-cjk.png': {
    svg: svgDoc(
      512,
      384,
      circle(120, 190, 70, '#dc2626') + circle(390, 120, 60, '#dc2626') + circle(330, 280, 65, '#2563eb'),
      '#fefce8'
    )
  },
  'line-months.webp': {
    svg: lineChart(960, 540, 'Visitors per month', [
      { label: 'Jan', value: 20 },
      { label: 'Feb', value: 35 },
      { label: 'Mar', value: 30 },
      { label: 'Apr', value: 62 },
      { label: 'May', value: 41 },
      { label: 'Jun', value: 48 }
    ])
  }
}

/** A tiny image kept inline in the row as a data: URL (no file on disk). */
const INLINE_SVG = svgDoc(48, 48, rect(8, 8, 32, 32, '#16a34a'), '#ffffff')

async function renderImage(svg, file) {
  const img = sharp(Buffer.from(svg))
  const ext = file.slice(file.lastIndexOf('.') + 1)
  // Fixed encoder settings so reruns give the same bytes.
  const out =
    ext === 'png'
      ? img.png({ compressionLevel: 9, palette: true })
      : ext === 'jpg'
        ? img.jpeg({ quality: 82, mozjpeg: true })
        : ext === 'webp'
          ? img.webp({ quality: 80, effort: 6 })
          : ext === 'gif'
            ? img.gif({ effort: 10 })
            : null
  if (!out) throw new Error(`no encoder for ${file}`)
  return out.toBuffer()
}

// ───────────────────────────── audio ─────────────────────────────
// espeak-ng speaks the line (22.05 kHz), sox trims the silence, pads a little and resamples to
// 16 kHz mono 16-bit; the .mp3 files are then encoded by sox (LAME) at 32 kbit/s. `sox -R` fixes the
// dither seed: without it every run writes different samples.

const AUDIO = {
  'train-cat.wav': 'The cat is sleeping on the sofa.',
  'train-seven.mp3': 'Seven.',
  'count-03.wav': 'Forty two.',
  'sky-color.mp3': 'The sky is blue today.',
  'weekday.mp3': 'See you on Friday.',
  'countdown.wav': 'Three. Two. One.'
}

function renderAudio(sentence, file, work, MEDIA) {
  const raw = join(work, 'raw.wav')
  const wav = join(work, 'clean.wav')
  execFileSync('espeak-ng', ['-v', 'en-us', '-s', '150', '-w', raw, sentence])
  execFileSync('sox', [
    '-R',
    raw,
    '-r',
    '16000',
    '-c',
    '1',
    '-b',
    '16',
    wav,
    'silence',
    '1',
    '0.02',
    '0.5%',
    'reverse',
    'silence',
    '1',
    '0.02',
    '0.5%',
    'reverse',
    'pad',
    '0.15',
    '0.2'
  ])
  if (file.endsWith('.wav')) execFileSync('cp', [wav, join(MEDIA, file)])
  else execFileSync('sox', ['-R', wav, '-C', '32', join(MEDIA, file)])
}

// ───────────────────────────── rows ─────────────────────────────

const AIS = {
  content: '<AIS_CONTENT_TAG>',
  text: '<AIS_TEXT_START>',
  image: '<AIS_IMAGE_START>',
  audio: '<AIS_AUDIO_START>'
}

/**
 * `content` is what AISBench's MMCustomDataset.load (mm_type="path") builds for MMPromptTemplate:
 * `<TYPE_START>path<AIS_CONTENT_TAG>` per media file, then `<AIS_TEXT_START>text`. The text here
 * carries the options too (MMBench style), because MMPromptTemplate fills `{question}` only from
 * this segment, never from the row's own columns.
 */
function withContent(row) {
  const kind = row.image !== undefined ? 'image' : 'audio'
  const ref = row.image ?? row.audio
  const text = `${row.question}\nA. ${row.A}\nB. ${row.B}\nC. ${row.C}\nD. ${row.D}`
  const { meta, ...rest } = row
  return { ...rest, content: `${AIS[kind]}${ref}${AIS.content}${AIS.text}${text}`, meta }
}

function q(id, question, [A, B, C, D], answer, media, meta) {
  return withContent({ id, question, A, B, C, D, answer, ...media, meta: { source: 'promptloom-demo', ...meta } })
}

function trainRows() {
  return [
    q(
      'train-01',
      'What shape is shown in the picture?',
      ['Square', 'Circle', 'Triangle', 'Star'],
      'B',
      { image: 'media/train-circle.png' },
      { skill: 'shape', difficulty: 1 }
    ),
    q(
      'train-02',
      'How many blue squares are there?',
      ['2', '4', '3', '5'],
      'C',
      { image: 'media/train-count.jpg' },
      { skill: 'counting', difficulty: 1 }
    ),
    q(
      'train-03',
      'Which animal is mentioned in the clip?',
      ['Dog', 'Cat', 'Bird', 'Fish'],
      'B',
      { audio: 'media/train-cat.wav' },
      { skill: 'listening', difficulty: 1 }
    ),
    q(
      'train-04',
      'Which bar is taller?',
      ['The left bar', 'The right bar', 'They are equal', 'There are no bars'],
      'A',
      { image: 'media/train-bars.webp' },
      { skill: 'chart', difficulty: 1 }
    ),
    q(
      'train-05',
      'Which number is spoken?',
      ['3', '5', '7', '9'],
      'C',
      { audio: 'media/train-seven.mp3' },
      { skill: 'listening', difficulty: 1 }
    )
  ]
}

async function testRows() {
  const inlinePng = await sharp(Buffer.from(INLINE_SVG)).png({ compressionLevel: 9, palette: true }).toBuffer()
  const dataUrl = `data:image/png;base64,${inlinePng.toString('base64')}`
  return [
    q(
      'demo-001',
      'Which shape is blue?',
      ['Circle', 'Square', 'Triangle', 'Star'],
      'C',
      { image: 'media/shapes-01.png' },
      { skill: 'shape', difficulty: 1 }
    ),
    q(
      'demo-002',
      'How many yellow dots are there?',
      ['3', '6', '7', '10'],
      'C',
      { image: 'media/count-dots.jpg' },
      { skill: 'counting', difficulty: 2 }
    ),
    q(
      'demo-003',
      'According to the chart, which fruit sold the most?',
      ['Apples', 'Bananas', 'Cherries', 'Dates'],
      'B',
      { image: 'media/chart-fruit.webp' },
      { skill: 'chart', difficulty: 2 }
    ),
    q(
      'demo-004',
      'What word is written on the sign?',
      ['CLOSED', 'EXIT', 'OPEN', 'STOP'],
      'C',
      { image: 'media/sign-open.png' },
      { skill: 'ocr', difficulty: 1 }
    ),
    q(
      'demo-005',
      'Which light of the traffic light is on?',
      ['Red', 'Yellow', 'Green', 'None'],
      'C',
      { image: 'media/traffic-light.gif' },
      { skill: 'color', difficulty: 1 }
    ),
    q(
      'demo-006',
      'What time does the clock show?',
      ['3:00', '6:00', '9:00', '12:00'],
      'A',
      { image: 'media/clock.jpg' },
      { skill: 'clock', difficulty: 3 }
    ),
    q(
      'demo-007',
      '图中有几个红色的圆形？',
      ['一个', '两个', '三个', '四个'],
      'B',
      { image: 'media/circles-cjk.png' },
      { skill: 'counting', difficulty: 2, lang: 'zh' }
    ),
    q(
      'demo-008',
      '📈 In which month does the line reach its highest point?',
      ['Feb', 'Apr', 'May', 'Jun'],
      'B',
      { image: 'media/line-months.webp' },
      { skill: 'chart', difficulty: 2 }
    ),
    q(
      'demo-009',
      'What color is the square?',
      ['Red', 'Green', 'Blue', 'Black'],
      'B',
      { image: dataUrl },
      { skill: 'color', difficulty: 1, note: 'image inlined as a data: URL' }
    ),
    q(
      'demo-010',
      'What animal is in the photo?',
      ['Horse', 'Cow', 'Sheep', 'Goat'],
      'A',
      { image: 'media/missing-photo.png' },
      { skill: 'recognition', difficulty: 1, note: 'file intentionally missing' }
    ),
    q(
      'demo-011',
      'Which number is spoken in the clip?',
      ['24', '42', '14', '40'],
      'B',
      { audio: 'media/count-03.wav' },
      { skill: 'listening', difficulty: 1 }
    ),
    q(
      'demo-012',
      'Which color is mentioned?',
      ['Red', 'Green', 'Blue', 'Yellow'],
      'C',
      { audio: 'media/sky-color.mp3' },
      { skill: 'listening', difficulty: 1 }
    ),
    q(
      'demo-013',
      'Which day of the week is mentioned?',
      ['Monday', 'Wednesday', 'Friday', 'Sunday'],
      'C',
      { audio: 'media/weekday.mp3' },
      { skill: 'listening', difficulty: 1 }
    ),
    q(
      'demo-014',
      'What is the last number spoken?',
      ['One', 'Two', 'Three', 'Zero'],
      'A',
      { audio: 'media/countdown.wav' },
      { skill: 'listening', difficulty: 2 }
    )
  ]
}

const jsonl = (rows) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n'

/**
 * The test rows as AISBench's own multimodal JSONL (datasets/mm_custom.py, read by configs/demo_mm_prompt.py):
 * `type`, `path` (a list; relative paths are read from the working directory, here the demo folder, so they
 * start with data/), the whole question text with its options in `question`, `answer`. MMCustomDataset.load
 * builds `content` from these; check_mm_custom refuses a line without `type` and `path`.
 */
function mmCustomRows(rows) {
  return rows.map((r) => {
    const type = r.image !== undefined ? 'image' : 'audio'
    const ref = r.image ?? r.audio
    const path = ref.startsWith('data:') ? ref : `data/${ref}`
    return { id: r.id, type, path: [path], question: `${r.question}\nA. ${r.A}\nB. ${r.B}\nC. ${r.C}\nD. ${r.D}`, answer: r.answer }
  })
}

// ───────────────────────────── Python literal writer ─────────────────────────────
// The model profiles exist twice (OpenCompass .py and JSON); both are written from one JS object.

function pyStr(s) {
  let out = "'"
  for (const ch of s) {
    if (ch === '\\') out += '\\\\'
    else if (ch === "'") out += "\\'"
    else if (ch === '\n') out += '\\n'
    else if (ch === '\t') out += '\\t'
    else out += ch
  }
  return out + "'"
}

function py(v, indent = '') {
  if (v === null) return 'None'
  if (v === true) return 'True'
  if (v === false) return 'False'
  if (typeof v === 'number') return String(v)
  if (typeof v === 'string') return pyStr(v)
  if (Array.isArray(v)) {
    const inner = indent + '    '
    return `[\n${v.map((x) => inner + py(x, inner)).join(',\n')},\n${indent}]`
  }
  // Short dicts (role entries) stay on one line, as in upstream configs.
  const flat = `dict(${Object.entries(v)
    .map(([k, x]) => `${k}=${py(x, indent)}`)
    .join(', ')})`
  if (!flat.includes('\n') && flat.length + indent.length <= 110) return flat
  const inner = indent + '    '
  return `dict(\n${Object.entries(v)
    .map(([k, x]) => `${inner}${k}=${py(x, inner)}`)
    .join(',\n')},\n${indent})`
}

// ───────────────────────────── model profiles ─────────────────────────────

const MODELS = [
  {
    file: 'chatml',
    name: 'ChatML (Qwen1.5-7B-Chat)',
    header:
      '# ChatML model profile, after OpenCompass configs/models/qwen/vllm_qwen1_5_14b_chat.py (2024):\n' +
      '# <|im_start|>role ... <|im_end|>. There is no SYSTEM role, so a template SYSTEM turn with\n' +
      "# fallback_role='HUMAN' is rendered as a user turn.",
    importLine: 'from opencompass.models import VLLM',
    meta: {
      round: [
        { role: 'HUMAN', begin: '<|im_start|>user\n', end: '<|im_end|>\n' },
        { role: 'BOT', begin: '<|im_start|>assistant\n', end: '<|im_end|>\n', generate: true }
      ],
      eos_token_id: 151645
    },
    maxSeqLen: 2048,
    model: (meta, maxSeqLen) =>
      `    dict(\n        type=VLLM,\n        abbr='chatml-7b',\n        path='Qwen/Qwen1.5-7B-Chat',\n` +
      `        model_kwargs=dict(tensor_parallel_size=1),\n        meta_template=${meta},\n` +
      `        max_out_len=100,\n        max_seq_len=${maxSeqLen},\n        batch_size=32,\n` +
      `        generation_kwargs=dict(temperature=0),\n        end_str='<|im_end|>',\n` +
      `        run_cfg=dict(num_gpus=1, num_procs=1),\n    )`
  },
  {
    file: 'llama3',
    name: 'Llama-3-8B-Instruct',
    header:
      '# Llama-3 model profile, after OpenCompass configs/models/hf_llama/hf_llama3_8b_instruct.py (2024).\n' +
      "# Upstream relies on the tokenizer for <|begin_of_text|>; here it is the meta template's begin so the\n" +
      '# rendered string shows every special token. SYSTEM is a reserved role: it renders in begin sections.',
    importLine: 'from opencompass.models import HuggingFaceCausalLM',
    meta: {
      begin: '<|begin_of_text|>',
      round: [
        { role: 'HUMAN', begin: '<|start_header_id|>user<|end_header_id|>\n\n', end: '<|eot_id|>' },
        { role: 'BOT', begin: '<|start_header_id|>assistant<|end_header_id|>\n\n', end: '<|eot_id|>', generate: true }
      ],
      reserved_roles: [{ role: 'SYSTEM', begin: '<|start_header_id|>system<|end_header_id|>\n\n', end: '<|eot_id|>' }]
    },
    maxSeqLen: 2048,
    model: (meta, maxSeqLen) =>
      `    dict(\n        type=HuggingFaceCausalLM,\n        abbr='llama-3-8b-instruct-hf',\n` +
      `        path='meta-llama/Meta-Llama-3-8B-Instruct',\n        model_kwargs=dict(device_map='auto'),\n` +
      `        tokenizer_kwargs=dict(\n            padding_side='left',\n            truncation_side='left',\n            use_fast=False,\n        ),\n` +
      `        meta_template=${meta},\n        max_out_len=100,\n        max_seq_len=${maxSeqLen},\n        batch_size=8,\n` +
      `        run_cfg=dict(num_gpus=1, num_procs=1),\n` +
      `        generation_kwargs={'eos_token_id': [128001, 128009]},\n        batch_padding=True,\n    )`
  },
  {
    file: 'internlm2',
    name: 'InternLM2-Chat-7B (with system)',
    header:
      '# InternLM2-Chat model profile, after OpenCompass configs/models/hf_internlm/\n' +
      '# hf_internlm2_chat_7b_with_system.py (2024): SYSTEM is a round role here, so a template SYSTEM turn\n' +
      '# renders as <|im_start|>system.',
    importLine: 'from opencompass.models import HuggingFaceCausalLM',
    meta: {
      round: [
        { role: 'SYSTEM', begin: '<|im_start|>system\n', end: '<|im_end|>\n' },
        { role: 'HUMAN', begin: '<|im_start|>user\n', end: '<|im_end|>\n' },
        { role: 'BOT', begin: '<|im_start|>assistant\n', end: '<|im_end|>\n', generate: true }
      ],
      eos_token_id: 92542
    },
    maxSeqLen: 2048,
    model: (meta, maxSeqLen) =>
      `    dict(\n        type=HuggingFaceCausalLM,\n        abbr='internlm2-chat-7b-hf',\n        path='internlm/internlm2-chat-7b',\n` +
      `        tokenizer_path='internlm/internlm2-chat-7b',\n` +
      `        model_kwargs=dict(\n            trust_remote_code=True,\n            device_map='auto',\n        ),\n` +
      `        tokenizer_kwargs=dict(\n            padding_side='left',\n            truncation_side='left',\n` +
      `            use_fast=False,\n            trust_remote_code=True,\n        ),\n` +
      `        max_out_len=100,\n        max_seq_len=${maxSeqLen},\n        batch_size=8,\n        meta_template=${meta},\n` +
      `        run_cfg=dict(num_gpus=1, num_procs=1),\n        end_str='<|im_end|>',\n` +
      `        generation_kwargs={'eos_token_id': [2, 92542]},\n        batch_padding=True,\n    )`
  }
]

/**
 * Two AISBench model configs beside the meta-template profiles, for the multimodal variant: a service chat model
 * and a vision-language chat-template model (the built-in qwen2.5-vl-instruct profile, found by its HF name).
 */
const AIS_MODEL_CONFIGS = {
  'vllm_api_chat.py': `# An AISBench service model, after AISBench configs/models/vllm_api/vllm_api_general_chat.py:
# VLLMCustomAPIChat sends OpenAI chat messages; a prompt_mm turn is one user message of content parts
# (image_url, audio_url, text), as an OpenAI-compatible server (vLLM) receives it.
from ais_bench.benchmark.models import VLLMCustomAPIChat

models = [
    dict(
        attr="service",
        type=VLLMCustomAPIChat,
        abbr="vllm-api-chat",
        path="",
        model="",
        request_rate=0,
        retry=2,
        host_ip="localhost",
        host_port=8080,
        max_out_len=512,
        batch_size=1,
        generation_kwargs=dict(temperature=0.01),
    )
]
`,
  'qwen2_5_vl.py': `# A vision-language chat-template model, after AISBench configs/models/hf_models/hf_chat_model.py:
# HuggingFacewithChatTemplate renders Qwen2.5-VL's own chat template (PromptLoom's built-in profile
# qwen2.5-vl-instruct, found by its Hugging Face name) with the content parts, on the tokenizer path: an
# image part becomes <|vision_start|><|image_pad|><|vision_end|>; the template has nothing for audio.
from ais_bench.benchmark.models import HuggingFacewithChatTemplate

models = [
    dict(
        attr="local",
        type=HuggingFacewithChatTemplate,
        abbr='qwen2.5-vl-7b-instruct-hf',
        path='Qwen/Qwen2.5-VL-7B-Instruct',
        tokenizer_path='Qwen/Qwen2.5-VL-7B-Instruct',
        generation_kwargs=dict(temperature=0.5, top_k=10, top_p=0.95, do_sample=True),
        max_out_len=100,
        batch_size=1,
        max_seq_len=32768,
    )
]
`
}

function modelPy(m) {
  return `${m.header}\n${m.importLine}\n\n_meta_template = ${py(m.meta)}\n\nmodels = [\n${m.model('_meta_template', m.maxSeqLen)},\n]\n`
}

function modelJson(m) {
  return (
    JSON.stringify(
      // The app's model profile schema (shared/models/profile.ts): an OpenCompass meta template through the LM parser.
      {
        id: `demo-${m.file}`,
        name: m.name,
        family: m.file,
        format: 'opencompass-meta',
        meta_parser: 'lm',
        meta_template: m.meta,
        context_length: m.maxSeqLen,
        // The config's max_seq_len: OpenCompass's inferencers drop in-context examples to fit it.
        max_seq_len: m.maxSeqLen,
        tokenizer: { kind: 'estimate' }
      },
      null,
      2
    ) + '\n'
  )
}

// ───────────────────────────── dataset configs ─────────────────────────────

const DATASET_CONFIG = `# PromptLoom demo: an AISBench-style multiple-choice config over a small picture/audio set.
# Four variants of one task, to compare how each model profile renders them:
#   demo-mm-media     AISBench's MMPromptTemplate: each row's \`content\` (AIS tags) becomes prompt_mm
#                     parts, the picture or clip then the question, and each model receives them as
#                     upstream sends them (an API model as content parts, a vision-language chat template
#                     as a content list, a text-only meta template without them: an empty turn)
#   demo-mm-string    a plain string template: OpenCompass's LMTemplateParser passes a str through
#                     unchanged, so no model's meta template is applied to it
#   demo-mm-dialogue  a dialogue (meta) template with a SYSTEM turn and in-context rounds
#   demo-mm-ppl       label templates for PPLInferencer: one prompt per option A-D, each scored
# All take rows 0, 1 and 2 of the train split as in-context examples; '</E>' marks where they go.
from ais_bench.benchmark.openicl.icl_prompt_template import PromptTemplate
from ais_bench.benchmark.openicl.icl_prompt_template.icl_prompt_template_mm import MMPromptTemplate
from ais_bench.benchmark.openicl.icl_retriever import FixKRetriever, ZeroRetriever
from ais_bench.benchmark.openicl.icl_inferencer import GenInferencer
from ais_bench.benchmark.openicl.icl_inferencer import PPLInferencer
from ais_bench.benchmark.openicl.icl_evaluator import AccEvaluator
from ais_bench.benchmark.datasets import CustomDataset
from ais_bench.benchmark.utils.postprocess.text_postprocessors import first_option_postprocess

# Multimodal variant: MMPromptTemplate reads only \`content\` (as MMCustomDataset.load builds it, with the
# options in the text segment); no in-context examples.
demo_media_reader_cfg = dict(
    input_columns=['content'],
    output_column='answer',
    train_split='train',
    test_split='test',
)

demo_media_infer_cfg = dict(
    prompt_template=dict(
        type=MMPromptTemplate,
        template=dict(
            round=[
                dict(role='HUMAN', prompt_mm={
                    'text': {'type': 'text', 'text': '{question}\\nAnswer with the option letter only.'},
                    'image': {'type': 'image_url', 'image_url': {'url': '{image}'}},
                    'audio': {'type': 'audio_url', 'audio_url': {'url': '{audio}'}},
                }),
            ],
        ),
    ),
    retriever=dict(type=ZeroRetriever),
    inferencer=dict(type=GenInferencer),
)

demo_reader_cfg = dict(
    input_columns=['question', 'A', 'B', 'C', 'D'],
    output_column='answer',
    train_split='train',
    test_split='test',
)

# String variant: each example ends with its answer; examples are joined by the retriever's
# ice_separator ('\\n') and followed by its ice_eos_token ('\\n').
demo_string_infer_cfg = dict(
    ice_template=dict(
        type=PromptTemplate,
        template='Question: {question}\\nA. {A}\\nB. {B}\\nC. {C}\\nD. {D}\\nAnswer: {answer}\\n',
    ),
    prompt_template=dict(
        type=PromptTemplate,
        template='The following are multiple-choice questions about a picture or a short spoken clip.\\n\\n</E>Question: {question}\\nA. {A}\\nB. {B}\\nC. {C}\\nD. {D}\\nAnswer:',
        ice_token='</E>',
    ),
    retriever=dict(type=FixKRetriever, fix_id_list=[0, 1, 2]),
    inferencer=dict(type=GenInferencer),
)

# Dialogue variant: each example is a HUMAN/BOT round. The SYSTEM turn falls back to HUMAN for
# models whose meta template has no SYSTEM role.
demo_dialogue_infer_cfg = dict(
    ice_template=dict(
        type=PromptTemplate,
        template=dict(
            round=[
                dict(role='HUMAN', prompt='Question: {question}\\nA. {A}\\nB. {B}\\nC. {C}\\nD. {D}\\nAnswer with the letter only.'),
                dict(role='BOT', prompt='{answer}'),
            ],
        ),
    ),
    prompt_template=dict(
        type=PromptTemplate,
        template=dict(
            begin=[
                dict(role='SYSTEM', fallback_role='HUMAN', prompt='You answer multiple-choice questions about a picture or a short spoken clip.'),
                '</E>',
            ],
            round=[
                dict(role='HUMAN', prompt='Question: {question}\\nA. {A}\\nB. {B}\\nC. {C}\\nD. {D}\\nAnswer with the letter only.'),
                dict(role='BOT', prompt='{answer}'),
            ],
        ),
        ice_token='</E>',
    ),
    retriever=dict(type=FixKRetriever, fix_id_list=[0, 1, 2]),
    inferencer=dict(type=GenInferencer),
)

# PPL variant (after OpenCompass configs/datasets/mmlu/mmlu_ppl_ac766d.py): the templates map each
# label to a prompt ending in that answer. PPLInferencer renders every label's prompt for a row and
# picks the one the model finds most likely; each in-context example uses its own answer's template.
demo_question = 'Question: {question}\\nA. {A}\\nB. {B}\\nC. {C}\\nD. {D}\\nAnswer: '
demo_ppl_infer_cfg = dict(
    ice_template=dict(
        type=PromptTemplate,
        template={opt: f'{demo_question}{opt}\\n' for opt in ['A', 'B', 'C', 'D']},
    ),
    prompt_template=dict(
        type=PromptTemplate,
        template={opt: f'The following are multiple-choice questions about a picture or a short spoken clip.\\n\\n</E>{demo_question}{opt}' for opt in ['A', 'B', 'C', 'D']},
        ice_token='</E>',
    ),
    retriever=dict(type=FixKRetriever, fix_id_list=[0, 1, 2]),
    inferencer=dict(type=PPLInferencer),
)

demo_eval_cfg = dict(
    evaluator=dict(type=AccEvaluator),
    pred_role='BOT',
    pred_postprocessor=dict(type=first_option_postprocess, options='ABCD'),
)

demo_ppl_eval_cfg = dict(
    evaluator=dict(type=AccEvaluator),
)

demo_datasets = [
    dict(
        abbr='demo-mm-media',
        type=CustomDataset,
        path='../data',
        reader_cfg=demo_media_reader_cfg,
        infer_cfg=demo_media_infer_cfg,
        eval_cfg=demo_eval_cfg,
    ),
    dict(
        abbr='demo-mm-string',
        type=CustomDataset,
        path='../data',
        reader_cfg=demo_reader_cfg,
        infer_cfg=demo_string_infer_cfg,
        eval_cfg=demo_eval_cfg,
    ),
    dict(
        abbr='demo-mm-dialogue',
        type=CustomDataset,
        path='../data',
        reader_cfg=demo_reader_cfg,
        infer_cfg=demo_dialogue_infer_cfg,
        eval_cfg=demo_eval_cfg,
    ),
    dict(
        abbr='demo-mm-ppl',
        type=CustomDataset,
        path='../data',
        reader_cfg=demo_reader_cfg,
        infer_cfg=demo_ppl_infer_cfg,
        eval_cfg=demo_ppl_eval_cfg,
    ),
]
`

const MM_CONFIG = `# PromptLoom demo: the test rows as AISBench's own multimodal dataset (after AISBench
# configs/datasets/mm_custom/mm_custom_gen.py). MMCustomDataset.load reads ../mm_custom.jsonl (one
# {"type", "path": [...], "question", "answer"} per line) and builds each row's \`content\`:
# <AIS_IMAGE_START>path<AIS_CONTENT_TAG> (or AUDIO) then <AIS_TEXT_START>question. MMPromptTemplate
# ignores the row's columns: it splits \`content\` on <AIS_CONTENT_TAG> and fills one prompt_mm part per
# segment, in order. Relative paths are read from the working directory (the demo folder).
# No in-context examples: MMPromptTemplate does not use ice_token.
from ais_bench.benchmark.openicl.icl_prompt_template.icl_prompt_template_mm import MMPromptTemplate
from ais_bench.benchmark.openicl.icl_retriever import ZeroRetriever
from ais_bench.benchmark.openicl.icl_inferencer import GenInferencer
from ais_bench.benchmark.datasets import MMCustomDataset, MMCustomEvaluator

demo_mm_reader_cfg = dict(
    input_columns=['question', 'image', 'audio'],
    output_column='answer',
    train_split='train',
    test_split='test',
)

demo_mm_infer_cfg = dict(
    prompt_template=dict(
        type=MMPromptTemplate,
        template=dict(
            round=[
                dict(role='HUMAN', prompt_mm={
                    'text': {'type': 'text', 'text': '{question}\\nAnswer with the option letter only.'},
                    'image': {'type': 'image_url', 'image_url': {'url': '{image}'}},
                    'audio': {'type': 'audio_url', 'audio_url': {'url': '{audio}'}},
                }),
            ],
        ),
    ),
    retriever=dict(type=ZeroRetriever),
    inferencer=dict(type=GenInferencer),
)

demo_mm_eval_cfg = dict(
    evaluator=dict(type=MMCustomEvaluator),
)

demo_mm_datasets = [
    dict(
        abbr='demo-mm-prompt',
        type=MMCustomDataset,
        path='../mm_custom.jsonl',
        mm_type='path',
        reader_cfg=demo_mm_reader_cfg,
        infer_cfg=demo_mm_infer_cfg,
        eval_cfg=demo_mm_eval_cfg,
    ),
]
`

const PROJECT = {
  name: 'PromptLoom demo',
  dataset: 'data',
  config: 'configs/demo_mmbench_gen.py',
  models: ['models/vllm_api_chat.py', 'models/qwen2_5_vl.py', 'models/chatml.json', 'models/llama3.json', 'models/internlm2.json']
}

const README = `# PromptLoom demo project

A small multimodal multiple-choice eval set made for PromptLoom, with everything needed to open it as a project
(\`project.json\`): \`data/train.jsonl\` (5 rows, used as in-context examples) and \`data/test.jsonl\` (14 rows), each with
\`id\`, \`question\`, options \`A\`–\`D\`, \`answer\`, an \`image\` or \`audio\` reference relative to \`data/\`, an AISBench
\`content\` string (the tagged form MMPromptTemplate reads) and a \`meta\` object; pictures of several sizes (320×240 to
1600×1200) and formats (png, jpeg, webp, gif) drawn as SVG and rendered with sharp, so every answer is right by
construction; short spoken clips (wav and mp3) made with espeak-ng and trimmed/resampled/encoded with sox; one question
in Chinese, one with an emoji, one image inlined as a \`data:\` URL and one reference to a file that is deliberately
missing (demo-010, to show the per-row error). \`configs/demo_mmbench_gen.py\` is an AISBench-style dataset config with a
multimodal variant (MMPromptTemplate: the picture or clip and the question reach an AISBench API chat model as content
parts, Qwen2.5-VL's chat template as a content list, and text-only meta-template models not at all, which they say), a
string-template and a dialogue-template variant (FixKRetriever over train rows 0–2, GenInferencer) and a PPL variant
(label templates for A–D, PPLInferencer: one prompt per label),
\`configs/demo_mm_prompt.py\` renders the same rows as AISBench's MMCustomDataset reads them (\`mm_custom.jsonl\`:
\`type\`, \`path\`, \`question\`, \`answer\`) through MMPromptTemplate, and \`models/\` holds three OpenCompass
model profiles (ChatML/Qwen1.5, Llama-3 and InternLM2 with a SYSTEM role), each as an OpenCompass \`.py\` config and a
JSON twin, and two AISBench model configs (\`vllm_api_chat.py\`, VLLMCustomAPIChat; \`qwen2_5_vl.py\`,
HuggingFacewithChatTemplate over the built-in Qwen2.5-VL profile). Everything here, and the app icon in \`assets/icons/\`, is generated by \`node test/tools/make-demo.mjs\`;
rerun it to rebuild the files byte for byte (text is drawn in DejaVu Sans).
`

// ───────────────────────────── icon ─────────────────────────────
// A loom motif: three warp threads and three weft threads woven over-under on a dark rounded tile.

function iconSvg() {
  const S = 512
  const warp = ['#f59e0b', '#f97316', '#ef4444']
  const weft = ['#2dd4bf', '#38bdf8', '#a78bfa']
  const pos = [156, 256, 356]
  const t = 64 // thread width
  const gap = 8 // background shows through beside the upper thread, which reads as over-under
  const lo = 96
  const hi = 416
  const bg = 'url(#bg)'
  let body =
    '<defs><linearGradient id="bg" gradientUnits="userSpaceOnUse" x1="0" y1="0" x2="512" y2="512">' +
    '<stop offset="0" stop-color="#312e81"/><stop offset="1" stop-color="#0f172a"/></linearGradient></defs>' +
    `<rect width="${S}" height="${S}" rx="112" fill="${bg}"/>`
  for (let i = 0; i < 3; i++) body += rect(pos[i] - t / 2, lo, t, hi - lo, warp[i], t / 2)
  for (let j = 0; j < 3; j++) body += rect(lo, pos[j] - t / 2, hi - lo, t, weft[j], t / 2)
  // At each crossing the warp is on top when (i + j) is even, otherwise the weft (already on top).
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      const x = pos[i] - t / 2
      const y = pos[j] - t / 2
      if ((i + j) % 2 === 0) {
        body += rect(x - gap, y, gap, t, bg) + rect(x + t, y, gap, t, bg) + rect(x, y - 1, t, t + 2, warp[i])
      } else {
        body += rect(x, y - gap, t, gap, bg) + rect(x, y + t, t, gap, bg)
      }
    }
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${S}" height="${S}" viewBox="0 0 ${S} ${S}">${body}</svg>\n`
}

// ───────────────────────────── main ─────────────────────────────

function write(path, content) {
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, content)
}

function sizeOf(dir) {
  let total = 0
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name)
    total += e.isDirectory() ? sizeOf(p) : statSync(p).size
  }
  return total
}

/**
 * Writes the demo project to `<assets>/demo` and the icon to `<assets>/icons`. `audio: false` leaves the spoken
 * clips out (they need espeak-ng and sox); `log: false` skips the manifest.
 */
export async function makeDemo(assets, { audio = true, log = true } = {}) {
  const DEMO = join(assets, 'demo')
  const ICONS = join(assets, 'icons')
  const DATA = join(DEMO, 'data')
  const MEDIA = join(DATA, 'media')
  // Only the folders this script owns are replaced, so stale media never lingers.
  for (const d of ['data', 'configs', 'models']) rmSync(join(DEMO, d), { recursive: true, force: true })
  mkdirSync(MEDIA, { recursive: true })

  for (const [file, spec] of Object.entries(IMAGES)) write(join(MEDIA, file), await renderImage(spec.svg, file))

  if (audio) {
    const work = mkdtempSync(join(tmpdir(), 'make-demo-'))
    try {
      for (const [file, sentence] of Object.entries(AUDIO)) renderAudio(sentence, file, work, MEDIA)
    } finally {
      rmSync(work, { recursive: true, force: true })
    }
  }

  write(join(DATA, 'train.jsonl'), jsonl(trainRows()))
  const test = await testRows()
  write(join(DATA, 'test.jsonl'), jsonl(test))
  write(join(DEMO, 'mm_custom.jsonl'), jsonl(mmCustomRows(test)))
  write(join(DEMO, 'configs', 'demo_mmbench_gen.py'), DATASET_CONFIG)
  write(join(DEMO, 'configs', 'demo_mm_prompt.py'), MM_CONFIG)
  for (const m of MODELS) {
    write(join(DEMO, 'models', `${m.file}.py`), modelPy(m))
    write(join(DEMO, 'models', `${m.file}.json`), modelJson(m))
  }
  for (const [file, text] of Object.entries(AIS_MODEL_CONFIGS)) write(join(DEMO, 'models', file), text)
  write(join(DEMO, 'project.json'), JSON.stringify(PROJECT, null, 2) + '\n')
  write(join(DEMO, 'README.md'), README)

  const icon = iconSvg()
  write(join(ICONS, 'icon.svg'), icon)
  write(join(ICONS, 'icon.png'), await sharp(Buffer.from(icon)).png({ compressionLevel: 9 }).toBuffer())

  // A short manifest, so a rerun shows at a glance that every file opens and how long each clip is.
  if (!log) return
  for (const file of readdirSync(MEDIA).sort()) {
    const p = join(MEDIA, file)
    if (/\.(wav|mp3)$/.test(file)) {
      const secs = execFileSync('soxi', ['-D', p]).toString().trim()
      console.log(`${file.padEnd(22)} audio ${Number(secs).toFixed(2)} s  ${statSync(p).size} B`)
    } else {
      const md = await sharp(p).metadata()
      console.log(`${file.padEnd(22)} ${md.format.padEnd(5)} ${md.width}×${md.height}  ${statSync(p).size} B`)
    }
  }
  console.log(`${relative(REPO, DEMO) || DEMO}: ${sizeOf(DEMO)} B total`)
}

/** The spoken clips (made with espeak-ng and sox): the files `audio: false` leaves out. */
export const AUDIO_FILES = Object.keys(AUDIO).map((f) => `demo/data/media/${f}`)

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const outArg = process.argv.indexOf('--out')
  await makeDemo(outArg > 0 ? resolve(process.argv[outArg + 1]) : join(REPO, 'assets'), { audio: !process.argv.includes('--no-audio') })
}
