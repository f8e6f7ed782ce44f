// The material folder beside the repository (../shared: golden cases, chat templates, specs), found relative to the
// checkout so the suite runs wherever it is cloned; PROMPTLOOM_SHARED points elsewhere (as test/conformance/run.mjs).
import { join } from 'node:path'

export const SHARED_DIR = process.env.PROMPTLOOM_SHARED ?? join(__dirname, '..', '..', '..', 'shared')
export const CASES_DIR = join(SHARED_DIR, 'conformance', 'cases')
