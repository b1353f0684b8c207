/**
 * The page the Worker serves at `/`: a prompt, a Send button, and the completion appearing token by token, with
 * the time to first token and tokens per second updated live. Plain HTML and a small script: `fetch` the
 * stream, read its body with a `ReadableStream` reader, split it into server-sent events.
 *
 * @since 0.1.0
 */
export const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>friendli-stream on Workers</title>
<style>
  :root { color-scheme: light dark; --accent: #5b5bd6; --muted: #8a8a99; }
  body { font: 16px/1.5 system-ui, sans-serif; max-width: 46rem; margin: 2rem auto; padding: 0 1rem; }
  h1 { font-size: 1.4rem; margin: 0 0 .25rem; }
  p.lead { margin: 0 0 1.25rem; color: var(--muted); }
  form { display: grid; gap: .6rem; }
  textarea { font: inherit; padding: .6rem; min-height: 4.5rem; resize: vertical; border-radius: 6px; border: 1px solid var(--muted); }
  .row { display: flex; gap: .75rem; align-items: center; flex-wrap: wrap; }
  label { color: var(--muted); font-size: .9rem; }
  input[type=number] { width: 5rem; font: inherit; padding: .2rem .4rem; }
  button { font: inherit; padding: .4rem 1.2rem; border-radius: 6px; border: 0; background: var(--accent); color: #fff; cursor: pointer; }
  button[disabled] { opacity: .5; cursor: default; }
  button.secondary { background: transparent; color: inherit; border: 1px solid var(--muted); }
  #output { white-space: pre-wrap; min-height: 8rem; margin-top: 1.25rem; padding: .8rem 1rem; border-radius: 6px;
    border: 1px solid var(--muted); font-family: ui-serif, Georgia, serif; font-size: 1.05rem; }
  #output.error { color: #d63b3b; font-family: inherit; }
  body[data-state=streaming] #output::after { content: "▍"; color: var(--accent); animation: blink 1s steps(1) infinite; }
  @keyframes blink { 50% { opacity: 0; } }
  #stats { display: flex; gap: 1.25rem; margin-top: .6rem; font: .9rem ui-monospace, monospace; color: var(--muted); }
  #state { font-weight: 600; color: var(--accent); }
</style>
</head>
<body data-state="idle">
<h1>friendli-stream on Cloudflare Workers</h1>
<p class="lead">Type a prompt and watch the completion stream in, token by token, through this Worker.</p>
<form id="form">
  <textarea id="prompt" name="prompt" placeholder="Once upon a time" required>Once upon a time</textarea>
  <div class="row">
    <label>max tokens <input id="max-tokens" type="number" min="1" max="1024" value="64"></label>
    <button id="send" type="submit">Send</button>
    <button id="stop" type="button" class="secondary" disabled>Stop</button>
  </div>
</form>
<div id="output" aria-live="polite"></div>
<div id="stats">
  <span id="state">idle</span>
  <span id="ttft">TTFT –</span>
  <span id="tps">– tok/s</span>
  <span id="tokens">0 tokens</span>
</div>
<script>
const $ = (id) => document.getElementById(id)
const output = $("output")
let controller

const setState = (state) => {
  document.body.dataset.state = state
  $("state").textContent = state === "streaming" ? "streaming…" : state === "waiting" ? "waiting…" : state
  $("send").disabled = state === "waiting" || state === "streaming"
  $("stop").disabled = !$("send").disabled
}

const fail = (message) => {
  output.classList.add("error")
  output.textContent = message
  setState("error")
}

$("stop").addEventListener("click", () => controller && controller.abort())

$("form").addEventListener("submit", async (event) => {
  event.preventDefault()
  controller = new AbortController()
  output.textContent = ""
  output.classList.remove("error")
  $("ttft").textContent = "TTFT –"
  $("tps").textContent = "– tok/s"
  $("tokens").textContent = "0 tokens"
  setState("waiting")
  const started = performance.now()
  let first
  let tokens = 0
  const count = (text) => {
    const now = performance.now()
    if (first === undefined) {
      first = now
      $("ttft").textContent = "TTFT " + Math.round(first - started) + " ms"
      setState("streaming")
    }
    tokens++
    output.textContent += tokens === 1 ? text.trimStart() : text
    $("tokens").textContent = tokens + (tokens === 1 ? " token" : " tokens")
    if (tokens > 1 && now > first) $("tps").textContent = (((tokens - 1) * 1000) / (now - first)).toFixed(1) + " tok/s"
  }
  try {
    const response = await fetch("/api/stream", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ prompt: $("prompt").value, max_tokens: Number($("max-tokens").value) }),
      signal: controller.signal,
    })
    if (!response.ok) {
      const body = await response.json().catch(() => ({}))
      return fail((body.error && body.error.message) || "The Worker answered " + response.status + ".")
    }
    // Server-sent events: blocks separated by a blank line; "data:" lines; "event: error" for a failure.
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
    let buffer = ""
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      buffer += value.replace(/\\r\\n?/g, "\\n")
      let end
      while ((end = buffer.indexOf("\\n\\n")) >= 0) {
        const block = buffer.slice(0, end)
        buffer = buffer.slice(end + 2)
        const lines = block.split("\\n")
        const data = lines.filter((l) => l.startsWith("data:")).map((l) => l.slice(5).trimStart()).join("\\n")
        if (lines.includes("event: error")) return fail(JSON.parse(data).error.message)
        if (data === "[DONE]") return setState("done")
        if (data === "") continue
        const chunk = JSON.parse(data)
        for (const choice of chunk.choices) if (choice.index === 0 && choice.text) count(choice.text)
      }
    }
    fail("The stream ended before [DONE].")
  } catch (error) {
    if (controller.signal.aborted) setState("stopped")
    else fail(String(error))
  }
})
</script>
</body>
</html>
`
