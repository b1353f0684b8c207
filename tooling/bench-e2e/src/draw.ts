#!/usr/bin/env node
/**
 * Redraws the benchmark's chart from its JSON: `node src/draw.ts [results.json] [chart.svg]`, by default the root's
 * `docs/bench.json` → `docs/bench.svg` (what a full `pnpm bench` run writes; see `src/chart.ts`).
 */
import { readFileSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { type BenchResults, drawChart } from "./chart.ts"

const docs = join(dirname(fileURLToPath(import.meta.url)), "../../../docs")
const [input = join(docs, "bench.json"), output = join(docs, "bench.svg")] = process.argv.slice(2)
const results = JSON.parse(readFileSync(input, "utf8")) as BenchResults
writeFileSync(output, drawChart(results))
console.log(`${output}: ${results.sections.length} panels from ${input}`)
