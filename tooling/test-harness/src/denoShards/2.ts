// Half 2 of a package's Deno suite (every second test file, see ../denoFiles.ts), in an isolate of its own.
import { declareTestFiles } from "../denoFiles.ts"

await declareTestFiles({ index: 2, count: 2 })
