// Half 1 of a package's Deno suite (every second test file, see ../denoFiles.ts), in an isolate of its own.
import { declareTestFiles } from "../denoFiles.ts"

await declareTestFiles({ index: 1, count: 2 })
