/**
 * `openapi.ts`: the document's TypeScript types (`paths`, `components`, `operations`), written by
 * openapi-typescript.
 */
import openapiTS, { astToString } from "openapi-typescript"
import { header } from "./header.ts"

/** Writes `openapi.ts` for a parsed document. */
export const emitTypes = async (document: object, source: string): Promise<string> => {
  const ast = await openapiTS(document as Parameters<typeof openapiTS>[0], {
    exportType: false,
    alphabetize: false,
    defaultNonNullable: false,
  })
  return `${header(source)}\n${astToString(ast)}`
}
