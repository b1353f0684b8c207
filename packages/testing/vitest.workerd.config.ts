// This package's workerd suite (`pnpm test:workerd`): the mock as a Worker (src/Worker.ts).
import { workerdConfig } from "../../tooling/test-harness/src/config.ts"

export default workerdConfig({ main: "src/Worker.ts" })
