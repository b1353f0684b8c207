/** `index.ts` of the generated folder: everything, with the openapi-typescript types under `OpenApi`. */
import { header, jsdoc } from "./header.ts"

/** Writes `index.ts`. */
export const emitIndex = (source: string, since: string): string =>
  [
    header(source),
    `export * from "./guards.ts"`,
    `export * from "./schemas.ts"`,
    "",
    jsdoc("The TypeScript types of the OpenAPI description (`paths`, `components`, `operations`).", [
      "@category models",
      `@since ${since}`,
    ]),
    `export type * as OpenApi from "./openapi.ts"`,
    "",
  ].join("\n")
