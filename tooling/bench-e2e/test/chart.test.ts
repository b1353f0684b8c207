import assert from "node:assert/strict"
import { describe, it } from "@friendli-stream/test-harness"
import { type BenchResults, drawChart, rowKind } from "../src/chart.ts"

const results: BenchResults = {
  caption: "Node v24.0.0, 2 cores <test & check>",
  sections: [
    {
      title: "Node, paced",
      measure: "CPU per chunk",
      rows: [
        { row: "bare fetch loop", ratio: 1 },
        { row: "Promise client, Node default (undici)", ratio: 1.12 },
        { row: "openai SDK 7", ratio: 1.2 },
      ],
    },
    {
      title: "Node, 1000 open streams",
      measure: "heap per open stream",
      rows: [
        { row: "bare fetch loop", ratio: 1 },
        { row: "AI SDK streamText: our provider", ratio: 4.73 },
        { row: "AI SDK streamText: openai-compatible", ratio: 5.03 },
      ],
    },
  ],
}

/** The elements of an SVG document, checked to be well-formed: every tag closed, in order, one root. */
const elements = (svg: string): Array<{ name: string; attributes: Record<string, string>; text: string }> => {
  const body = svg.replace(/^<\?xml[^>]*\?>\s*/, "")
  const stack: Array<string> = []
  const found: Array<{ name: string; attributes: Record<string, string>; text: string }> = []
  const tag = /<(\/?)([a-zA-Z]+)((?:\s+[a-zA-Z][\w:-]*="[^"<>]*")*)\s*(\/?)>|([^<]+)/gy
  let roots = 0
  let end = 0
  for (let m = tag.exec(body); m !== null; m = tag.exec(body)) {
    end = tag.lastIndex
    const [, closing, name, attrs, selfClosing, text] = m
    if (text !== undefined) {
      assert.ok(!/&(?!(amp|lt|gt|quot|apos);)/.test(text), `unescaped & in ${JSON.stringify(text)}`)
      const open = [...found].reverse().find((e) => e.name === stack.at(-1))
      if (open !== undefined) open.text += text
      continue
    }
    if (closing === "/") {
      assert.equal(stack.pop(), name, `</${name}> closes the wrong element`)
      continue
    }
    if (stack.length === 0) roots++
    const pairs = [...(attrs ?? "").matchAll(/([a-zA-Z][\w:-]*)="([^"]*)"/g)].map((a) => [a[1], a[2]])
    const attributes = Object.fromEntries(pairs)
    found.push({ name: name as string, attributes: attributes as Record<string, string>, text: "" })
    if (selfClosing !== "/") stack.push(name as string)
  }
  assert.equal(end, body.length, "the document parses to its end")
  assert.deepEqual(stack, [], "every element is closed")
  assert.equal(roots, 1, "one root element")
  return found
}

describe("the benchmark chart", () => {
  it("is one well-formed SVG document with the escaped caption", () => {
    const svg = drawChart(results)
    assert.ok(svg.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg"'))
    const all = elements(svg)
    assert.equal(all[0]?.name, "svg")
    assert.ok(all[1]?.name === "title" && all[1].text.startsWith("End-to-end benchmark"), "a title, for screen readers")
    assert.ok(svg.includes("Node v24.0.0, 2 cores &lt;test &amp; check&gt;"))
  })

  it("draws one bar per row, labelled with its name and its ratio", () => {
    const all = elements(drawChart(results))
    const rows = results.sections.flatMap((s) => s.rows)
    const bars = all.filter((e) => e.name === "g" && e.attributes.class?.startsWith("bar "))
    assert.equal(bars.length, rows.length)
    const texts = all.filter((e) => e.name === "text").map((e) => e.text)
    for (const { row, ratio } of rows) {
      assert.ok(texts.includes(row), `a label ${row}`)
      assert.ok(texts.includes(`${ratio.toFixed(2)}x`), `a value ${ratio.toFixed(2)}x`)
    }
    for (const section of results.sections) assert.ok(texts.some((t) => t.startsWith(section.title)))
  })

  it("makes bar lengths proportional to the ratios, on one scale for every panel", () => {
    const rects = elements(drawChart(results)).filter((e) => e.name === "rect" && e.attributes.height === "18")
    const widths = rects.map((r) => Number(r.attributes.width))
    const ratios = results.sections.flatMap((s) => s.rows.map((r) => r.ratio))
    const unit = (widths[0] as number) / (ratios[0] as number)
    for (const [i, ratio] of ratios.entries()) {
      assert.ok(Math.abs((widths[i] as number) - ratio * unit) < 0.2, `bar ${i}: ${widths[i]} for ${ratio}`)
    }
  })

  it("colours our clients, the peer libraries and the bare loops apart", () => {
    assert.equal(rowKind("bare fetch loop"), "bare")
    assert.equal(rowKind("openai SDK 7"), "peer")
    assert.equal(rowKind("AI SDK streamText: openai-compatible"), "peer")
    assert.equal(rowKind("AI SDK streamText: our provider"), "ours")
    assert.equal(rowKind("Effect client, Stream.runForEach"), "ours")
    const fills = new Set(
      elements(drawChart(results))
        .filter((e) => e.name === "rect" && e.attributes.height === "18")
        .map((e) => e.attributes.fill),
    )
    assert.equal(fills.size, 3)
  })
})
