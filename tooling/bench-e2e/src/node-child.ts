/** One Node row in its own process (see measure.ts for the arguments); prints its result as one JSON line. */
import { runChild } from "./measure.ts"
import { nodeRows } from "./rows.ts"

await runChild(nodeRows, process.argv.slice(2))
