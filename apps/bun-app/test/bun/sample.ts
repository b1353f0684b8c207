// The Bun app as the samples' shared suite runs it: the app on Bun.serve, the mock that wants a token on Bun.serve
// too, and how to run it as a process (this Bun running main.ts).
import { fileURLToPath } from "node:url"
import type { AppUnderTest, ServiceCommand } from "@friendli-stream/sample-service/suite"
import { serveBun } from "@friendli-stream/testing/bun"
import { startApp } from "../../main.ts"

export const sample: AppUnderTest & { readonly packageName: string; readonly service: ServiceCommand } = {
  name: "Bun",
  packageName: "@friendli-stream/bun-app",
  startApp,
  serveMock: serveBun,
  service: { command: process.execPath, args: ["main.ts"], cwd: fileURLToPath(new URL("../..", import.meta.url)) },
}
