/**
 * The benchmark's results as an SVG bar chart (`docs/bench.svg`, shown in the root README): one panel per table,
 * one horizontal bar per row, the length its ratio to the bare `fetch` loop of the same run (the dashed line at
 * 1.0x). Our clients, the peers (the openai SDK, `@ai-sdk/openai-compatible`) and the bare loops have their own
 * colours. Hand-written SVG: no chart library, nothing but strings.
 */

/** One row of a table: its name and its ratio to the table's bare `fetch` loop. */
export interface ChartRow {
  readonly row: string
  readonly ratio: number
}

/** One table of the benchmark (a panel of the chart). */
export interface ChartSection {
  readonly title: string
  /** What the ratio is of, e.g. "CPU per chunk". */
  readonly measure: string
  readonly rows: ReadonlyArray<ChartRow>
}

/** What `src/main.ts` writes after a run (`docs/bench.json` for full runs) and the chart is drawn from. */
export interface BenchResults {
  /** Where the numbers come from: Node version, cores, date. */
  readonly caption: string
  readonly sections: ReadonlyArray<ChartSection>
}

/** Who a row is: a bare loop (the floors), a peer library, or one of ours. */
export type RowKind = "bare" | "peer" | "ours"

/** A row's kind, from its name as `src/rows.ts` and `src/runtime-child.ts` spell them. */
export const rowKind = (row: string): RowKind =>
  row.startsWith("bare ") ? "bare" : /openai SDK|openai-compatible/.test(row) ? "peer" : "ours"

const COLOURS: Record<RowKind, string> = { bare: "#9aa0a6", peer: "#e8710a", ours: "#1a73e8" }
const LEGEND: ReadonlyArray<readonly [RowKind, string]> = [
  ["ours", "friendli-stream"],
  ["peer", "other libraries"],
  ["bare", "bare loops (no library)"],
]

const escapeXml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c] ?? c)

const TITLE = "End-to-end benchmark: ratio to a bare fetch loop of the same run (lower is better)"
const WIDTH = 860
const LABEL = 300
const BAR_H = 18
const GAP = 6
const TITLE_H = 30
const PLOT = WIDTH - LABEL - 70

/**
 * Draws the results as one SVG document (UTF-8 text). Every section becomes a panel with its title and one bar per
 * row labelled with the row's name and its ratio (`1.12x`); the scale is shared by all panels.
 */
export const drawChart = (results: BenchResults): string => {
  const max = Math.max(1, ...results.sections.flatMap((s) => s.rows.map((r) => r.ratio)))
  const scale = PLOT / max
  const parts: Array<string> = []
  let y = 28
  parts.push(
    `<text x="${WIDTH / 2}" y="${y}" text-anchor="middle" font-size="16" font-weight="bold">` +
      `${escapeXml(TITLE)}</text>`,
  )
  y += 20
  parts.push(
    `<text x="${WIDTH / 2}" y="${y}" text-anchor="middle" font-size="12" fill="#555">${escapeXml(results.caption)}</text>`,
  )
  y += 16
  let x = LABEL
  for (const [kind, text] of LEGEND) {
    parts.push(`<rect x="${x}" y="${y}" width="12" height="12" fill="${COLOURS[kind]}"/>`)
    parts.push(`<text x="${x + 18}" y="${y + 11}" font-size="12">${escapeXml(text)}</text>`)
    x += 30 + text.length * 7
  }
  y += 20
  for (const section of results.sections) {
    y += TITLE_H
    parts.push(
      `<text x="10" y="${y - 10}" font-size="14" font-weight="bold">${escapeXml(section.title)}` +
        ` <tspan font-weight="normal" fill="#555">(${escapeXml(section.measure)})</tspan></text>`,
    )
    // The 1.0x line first, under the bars and their labels.
    const one = (LABEL + scale).toFixed(1)
    const bottom = y + section.rows.length * (BAR_H + GAP) - GAP
    parts.push(`<line x1="${one}" y1="${y - 4}" x2="${one}" y2="${bottom + 4}" stroke="#333" stroke-dasharray="4 3"/>`)
    for (const { row, ratio } of section.rows) {
      const width = Math.max(1, ratio * scale)
      parts.push(
        `<g class="bar ${rowKind(row)}">` +
          `<text x="${LABEL - 8}" y="${y + BAR_H - 5}" text-anchor="end" font-size="12">${escapeXml(row)}</text>` +
          `<rect x="${LABEL}" y="${y}" width="${width.toFixed(1)}" height="${BAR_H}" fill="${COLOURS[rowKind(row)]}"/>` +
          `<text x="${(LABEL + width + 6).toFixed(1)}" y="${y + BAR_H - 5}" font-size="12">${ratio.toFixed(2)}x</text>` +
          "</g>",
      )
      y += BAR_H + GAP
    }
  }
  y += 14
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${y}" viewBox="0 0 ${WIDTH} ${y}" ` +
    `font-family="system-ui, -apple-system, Segoe UI, sans-serif">\n` +
    `<title>${escapeXml(TITLE)}</title>\n<rect width="100%" height="100%" fill="#fff"/>\n${parts.join("\n")}\n</svg>\n`
  )
}
