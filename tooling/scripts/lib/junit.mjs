// A small JUnit XML reader for the reports of vitest, deno test and bun test: it counts test cases,
// not suites, so nested <testsuite> elements (bun) and per-file suites (vitest, deno) count alike.

const ENTITIES = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" }

/** @param {string} s */
const unescapeXml = (s) =>
  s.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_, e) =>
    e[0] === "#"
      ? String.fromCodePoint(e[1] === "x" || e[1] === "X" ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1)))
      : ENTITIES[/** @type {keyof typeof ENTITIES} */ (e.toLowerCase())],
  )

/**
 * @typedef {{ name: string, classname: string, status: "passed" | "failed" | "skipped", message: string }} TestCase
 */

const TESTCASE = /<testcase\b([^>]*?)(?:\/>|>([\s\S]*?)<\/testcase>)/g

/** @param {string} attrs @param {string} name */
const attr = (attrs, name) => {
  const m = new RegExp(`\\b${name}="([^"]*)"`).exec(attrs)
  return m === null ? "" : unescapeXml(m[1] ?? "")
}

/**
 * Every test case of a JUnit report, in document order.
 *
 * @param {string} xml
 * @returns {TestCase[]}
 */
export const parseJUnit = (xml) => {
  /** @type {TestCase[]} */
  const cases = []
  for (const m of xml.matchAll(TESTCASE)) {
    const attrs = m[1] ?? ""
    const body = m[2] ?? ""
    const failure = /<(failure|error)\b([^>]*)/.exec(body)
    const status = failure !== null ? "failed" : /<skipped\b/.test(body) ? "skipped" : "passed"
    cases.push({
      name: attr(attrs, "name"),
      classname: attr(attrs, "classname"),
      status,
      message: failure === null ? "" : attr(failure[2] ?? "", "message"),
    })
  }
  return cases
}
