// The Worker under test (the pool's `main`, reached through `exports.default`): the proxies as a user's Worker calls them.
import { type FriendliEnv, proxyChatCompletionStream, proxyCompletionStream } from "../../src/index.ts"

// The SQLite store of resumable streams, each stream in a Durable Object of its own (sqlite-store.test.ts).
export { StoreObject } from "./storeObject.ts"

export default {
  fetch: (request: Request, env: FriendliEnv): Promise<Response> =>
    new URL(request.url).pathname === "/chat"
      ? proxyChatCompletionStream(request, env)
      : proxyCompletionStream(request, env),
}
