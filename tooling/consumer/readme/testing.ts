// The install check of packages/testing/README.md: its quick start (the handler called directly), after its
// install commands; prints the streamed text.
import { createMockFriendli } from "@friendli-stream/testing"

const mock = createMockFriendli()
const response = await mock.fetch(
  new Request("http://mock/serverless/v1/completions", {
    method: "POST",
    headers: { authorization: "Bearer test" },
    body: JSON.stringify({
      model: "meta-llama-3.1-8b-instruct",
      prompt: "Say this is a test",
      stream: true,
      max_tokens: 16,
    }),
  }),
)
let text = ""
for (const line of (await response.text()).split("\n")) {
  if (!line.startsWith("data: ") || line === "data: [DONE]") continue
  text += JSON.parse(line.slice(6)).choices?.[0]?.text ?? ""
}
console.log(text)
