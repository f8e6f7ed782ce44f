// Vitest global setup: the whole unit run happens inside one sandbox folder (see sandbox.mjs), removed at the end.
import { enterSandbox } from './sandbox.mjs'

export default function setup() {
  const sandbox = enterSandbox('promptloom-unit-')
  return () => sandbox.leave()
}
