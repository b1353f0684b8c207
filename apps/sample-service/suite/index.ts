/**
 * The tests every sample runs on its runtime, declared with `@friendli-stream/test-harness`: the app in-process on
 * a free port, driven over HTTP (chunks as they arrive, `[DONE]`, the 400/404/405 JSON errors, the usage text, a token
 * sent to the server it is pointed at, the status of a refused request), its resumable streams in memory (resume,
 * replay, cancel, bad ids), the sample's one command, `pnpm --filter <package> start`, as a child process with no
 * configuration, and two instances of it as processes on one real Redis.
 *
 * @example
 * import { appSuite } from "@friendli-stream/sample-service/suite"
 * import { serveDeno } from "@friendli-stream/testing/deno"
 * import { startApp } from "../../main.ts"
 *
 * appSuite({ name: "Deno", packageName: "@friendli-stream/deno-app", startApp, serveMock: serveDeno })
 *
 * @since 0.1.0
 */
import { type AppUnderTest, appTests } from "./app.ts"
import { clusterTests } from "./cluster.ts"
import { commandTests } from "./command.ts"
import { drainTests } from "./drain.ts"
import { hardeningTests } from "./hardening.ts"
import type { ServiceCommand } from "./processes.ts"
import { resumableTests } from "./resumable.ts"

export type { AppUnderTest } from "./app.ts"
export type { ServiceCommand } from "./processes.ts"
export { post, readSse, textOf } from "./sse.ts"

/**
 * Declares the whole suite for one sample: the app in-process, its resumable streams in memory, its one command,
 * and (with `service`, how to run it as a process) two instances of it on one Redis.
 *
 * @since 0.1.0
 */
export const appSuite = (
  app: AppUnderTest & { readonly packageName: string; readonly service?: ServiceCommand | undefined },
): void => {
  appTests(app)
  resumableTests(app)
  hardeningTests(app)
  commandTests(app.packageName)
  if (app.service !== undefined) {
    drainTests(app.name, app.service)
    clusterTests(app.name, app.service)
  }
}
