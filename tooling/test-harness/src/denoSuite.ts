/**
 * The one test module of a package's Deno suite (`deno test ... tooling/test-harness/src/denoSuite.ts`, run in the
 * package's folder): every test file of the package in this one isolate, which they share with its module cache, as on
 * Bun and workerd (each file in its own isolate loaded effect and the packages anew, most of the stream suite's 42 s).
 */
import { declareTestFiles } from "./denoFiles.ts"

await declareTestFiles()
