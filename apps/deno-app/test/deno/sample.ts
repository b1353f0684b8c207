// The Deno app as the samples' shared suite runs it: the app on Deno.serve, the mock that wants a token on
// Deno.serve too, and how to run it as a process (this Deno running main.ts).
import { fileURLToPath } from "node:url"
import type { AppUnderTest, ServiceCommand } from "@friendli-stream/sample-service/suite"
import { serveDeno } from "@friendli-stream/testing/deno"
import { startApp } from "../../main.ts"

export const sample: AppUnderTest & { readonly packageName: string; readonly service: ServiceCommand } = {
  name: "Deno",
  packageName: "@friendli-stream/deno-app",
  startApp,
  serveMock: serveDeno,
  service: {
    command: Deno.execPath(),
    args: ["run", "--unstable-no-legacy-abort", "--allow-net", "--allow-env", "main.ts"],
    cwd: fileURLToPath(new URL("../..", import.meta.url)),
  },
}
