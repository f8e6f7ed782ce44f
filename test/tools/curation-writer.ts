// A PromptLoom instance that curates one dataset from a script, for the two-writer and crash-kill tests: it opens
// the dataset with a persistent store (as the app does), then tags rows one action at a time and prints `ack N`
// once action N has returned (the app acknowledges an action the same way). Usage:
//   node --import tsx curation-writer.ts DATASET PREFIX COUNT [ROWS] [--wait]
// With --wait it starts acting when a line arrives on stdin and pauses 3 ms between actions (so two writers run
// interleaved rather than one after the other). Prints `problem CODE` for each curation problem found at open, `merged N` when an action found another writer's
// changes, and `done` at the end.
import { Workspace } from '../../main/services/workspace/workspace'

const [file, prefix, countArg, rowsArg, wait] = process.argv.slice(2)
const count = Number(countArg)
const rows = Number(rowsArg ?? 10)
const out = (s: string) => process.stdout.write(s + '\n')

const ws = new Workspace(
  { mode: 'browser', mediaUrl: (p) => p, pickSavePath: async () => null, emit: () => {} },
  { curation: 'persistent' }
)
async function run() {
  const summary = await ws.session.open(file)
  for (const p of summary.problems) if (p.code.startsWith('curation')) out(`problem ${p.code}`)
  out('ready')
  if (wait === '--wait') await new Promise((resolve) => process.stdin.once('data', resolve))
  for (let i = 0; i < count; i++) {
    const c = await ws.curation.apply({ indices: [i % rows] }, { kind: 'tag', tag: `${prefix}-${i}`, action: 'add' })
    if (c.merged) out(`merged ${i}`)
    out(`ack ${i}`)
    if (wait === '--wait') await new Promise((resolve) => setTimeout(resolve, 3))
  }
  ws.close()
  out('done')
}

void run()
