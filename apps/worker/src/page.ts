/**
 * The page the Worker serves at `/`: a prompt, a Send button, and the completion appearing token by token, with
 * the time to first token and tokens per second updated live, and how the stream ended. Plain HTML and a small
 * script: an `EventSource` on `GET /v1/stream?prompt=…`, which reconnects by itself when the connection drops and
 * resumes after the last event it got (`Last-Event-ID`), so the answer shows once; Stop is a `DELETE` of the stream.
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
  <span id="reconnects">0 reconnects</span>
</div>
<script>
const $ = (id) => document.getElementById(id)
const output = $("output")
// The end events of a stream: "[DONE]", or an "event: error" whose error.type is "stream_ended" and whose
// code says how it ended (cancelled, producer_lost, timeout, …); any other error event is a failure.
const ENDED = { done: "done", cancelled: "cancelled", producer_lost: "lost", truncated: "cut", timeout: "timeout" }
let source
let streamId
let stopping = false

const setState = (state, text) => {
  document.body.dataset.state = state
  $("state").textContent = text || (state === "streaming" ? "streaming…" : state === "waiting" ? "waiting…" : state)
  $("send").disabled = state === "waiting" || state === "streaming" || state === "reconnecting"
  $("stop").disabled = !$("send").disabled
}

const finish = (state, message) => {
  if (source) source.close()
  source = undefined
  if (state === "error") {
    output.classList.add("error")
    output.textContent = message
  }
  setState(state, message && state !== "error" ? state + ": " + message : undefined)
}

// Stop: DELETE the stream; its readers (this page too) get its "cancelled" end, and the Worker aborts the request
// to the model server. Before the first event the page knows no stream id: it only closes the connection.
$("stop").addEventListener("click", () => {
  stopping = true
  if (streamId) fetch("/v1/stream/" + streamId, { method: "DELETE" }).catch(() => finish("cancelled"))
  else finish("cancelled")
})

$("form").addEventListener("submit", (event) => {
  event.preventDefault()
  output.textContent = ""
  output.classList.remove("error")
  $("ttft").textContent = "TTFT –"
  $("tps").textContent = "– tok/s"
  $("tokens").textContent = "0 tokens"
  $("reconnects").textContent = "0 reconnects"
  setState("waiting")
  streamId = undefined
  stopping = false
  const started = performance.now()
  let first
  let tokens = 0
  let opened = 0
  const count = (text) => {
    const now = performance.now()
    if (first === undefined) {
      first = now
      $("ttft").textContent = "TTFT " + Math.round(first - started) + " ms"
    }
    tokens++
    output.textContent += tokens === 1 ? text.trimStart() : text
    $("tokens").textContent = tokens + (tokens === 1 ? " token" : " tokens")
    if (tokens > 1 && now > first) $("tps").textContent = (((tokens - 1) * 1000) / (now - first)).toFixed(1) + " tok/s"
  }
  // EventSource: a GET of the stream; when the connection drops it reconnects to the same URL by itself, with the
  // id of the last event it got as Last-Event-ID, and the Worker sends only the events after that one.
  const query = new URLSearchParams({ prompt: $("prompt").value, max_tokens: $("max-tokens").value })
  const es = new EventSource("/v1/stream?" + query)
  source = es
  es.onopen = () => {
    if (++opened > 1) $("reconnects").textContent = opened - 1 + (opened === 2 ? " reconnect" : " reconnects")
    setState(first === undefined ? "waiting" : "streaming")
  }
  es.onmessage = (message) => {
    if (source !== es) return
    streamId = message.lastEventId.slice(0, message.lastEventId.lastIndexOf("."))
    if (message.data === "[DONE]") return finish("done")
    if (document.body.dataset.state !== "streaming") setState("streaming")
    const chunk = JSON.parse(message.data)
    for (const choice of chunk.choices) if (choice.index === 0 && choice.text) count(choice.text)
  }
  es.addEventListener("error", (event) => {
    if (source !== es) return
    if (event.data === undefined) {
      // The connection: EventSource reconnects by itself unless the Worker refused the stream.
      if (es.readyState === EventSource.CLOSED) {
        finish("error", streamId ? "The stream is gone (its retention time passed)." : "The Worker refused the stream.")
      } else setState("reconnecting", "reconnecting…")
      return
    }
    const error = JSON.parse(event.data).error
    if (error.type === "stream_ended" && ENDED[error.code]) return finish(ENDED[error.code], stopping ? "" : error.message)
    finish("error", error.message)
  })
})
</script>
</body>
</html>
`
