// Only for running this package's Node suite by hand (`pnpm exec vitest run`); the workspace runner passes the
// shared config of tooling/test-harness instead.
export { default } from "../../tooling/test-harness/vitest.node.mjs"
