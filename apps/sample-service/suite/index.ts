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
 * and (with `service`, how to run it as a process) two instances of it on one Redis. The same tests as
 * {@link inProcessSuite}, {@link commandSuite} and {@link clusterSuite} together, which a sample declares in files of
 * their own where its runner runs files in parallel.
 *
 * @since 0.1.0
 */
export const appSuite = (
  app: AppUnderTest & { readonly packageName: string; readonly service?: ServiceCommand | undefined },
): void => {
  inProcessSuite(app)
  commandSuite(app)
  if (app.service !== undefined) clusterSuite(app.name, app.service)
}

/**
 * The app in-process on a free port: its HTTP answers, its resumable streams in memory, its limits and keep-alives.
 *
 * @since 0.3.0
 */
export const inProcessSuite = (app: AppUnderTest): void => {
  appTests(app)
  resumableTests(app)
  hardeningTests(app)
}

/**
 * The sample's one command, `pnpm --filter <package> start`, and (with `service`) how one instance drains on SIGTERM.
 *
 * @since 0.3.0
 */
export const commandSuite = (app: {
  readonly name: string
  readonly packageName: string
  readonly service?: ServiceCommand | undefined
}): void => {
  commandTests(app.packageName)
  if (app.service !== undefined) drainTests(app.name, app.service)
}

/**
 * Two instances of the sample as processes on one real Redis.
 *
 * @since 0.3.0
 */
export const clusterSuite = (name: string, service: ServiceCommand): void => clusterTests(name, service)
