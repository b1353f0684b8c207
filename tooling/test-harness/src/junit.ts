// A small JUnit XML reader for the reports of vitest, deno test and bun test: it counts test cases, not suites, so
// nested <testsuite> elements (bun) and per-file suites (vitest, deno) count alike. `pnpm test`'s summary
// (tooling/scripts/test-summary.mjs) reads every suite's reports/<runtime>.xml with it.

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" }

const unescapeXml = (s: string): string =>
  s.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_, e: string) =>
    e[0] === "#"
      ? String.fromCodePoint(e[1] === "x" || e[1] === "X" ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1)))
      : (ENTITIES[e.toLowerCase()] ?? ""),
  )

/**
 * One test case of a JUnit report.
 *
 * @since 0.3.0
 */
export interface TestCase {
  readonly name: string
  readonly classname: string
  readonly status: "passed" | "failed" | "skipped"
  /** The failure's message (empty unless failed). */
  readonly message: string
}

const TESTCASE = /<testcase\b([^>]*?)(?:\/>|>([\s\S]*?)<\/testcase>)/g

const attr = (attrs: string, name: string): string => {
  const m = new RegExp(`\\b${name}="([^"]*)"`).exec(attrs)
  return m === null ? "" : unescapeXml(m[1] ?? "")
}

/**
 * Every test case of a JUnit report, in document order.
 *
 * @since 0.3.0
 */
export const parseJUnit = (xml: string): Array<TestCase> => {
  const cases: Array<TestCase> = []
  for (const m of xml.matchAll(TESTCASE)) {
    const attrs = m[1] ?? ""
    const body = m[2] ?? ""
    const failure = /<(failure|error)\b([^>]*)/.exec(body)
    cases.push({
      name: attr(attrs, "name"),
      classname: attr(attrs, "classname"),
      status: failure !== null ? "failed" : /<skipped\b/.test(body) ? "skipped" : "passed",
      message: failure === null ? "" : attr(failure[2] ?? "", "message"),
    })
  }
  return cases
}
