import assert from "node:assert/strict"
import { describe, it } from "@friendli-stream/test-harness"
import { generate } from "../src/generate.ts"

/** A document with the given component schemas. */
const documentWith = (schemas: Record<string, unknown>): object => ({
  openapi: "3.1.0",
  info: { title: "t", version: "9.9.9" },
  paths: {},
  components: { schemas },
})

const body = (modelDoc: string) => ({
  type: "object",
  required: ["model"],
  properties: { model: { type: "string", description: modelDoc }, n: { type: "integer", minimum: 1 } },
})

const filesOf = async (schemas: Record<string, unknown>) => {
  const { files } = await generate(documentWith(schemas), { source: "x" })
  return Object.fromEntries(files.map((f) => [f.path, f.contents])) as Record<string, string>
}

describe("components written under several names", () => {
  it("are written once, and every other name is an alias with its own identifier and JSDoc", async () => {
    const files = await filesOf({
      ServerlessBody: { ...body("The model."), description: "Serverless." },
      DedicatedBody: { ...body("The model."), description: "Dedicated." },
    })
    const schemas = files["schemas.ts"]!
    assert.equal(schemas.match(/Schema\.Struct\(/g)?.length, 1, schemas)
    assert.match(schemas, /export const ServerlessBody = DedicatedBody\.annotate\(\{ identifier: "ServerlessBody"/)
    assert.match(schemas, /\* Serverless\.\n/)
    assert.match(
      files["guards.ts"]!,
      /export function isServerlessBody\(u: unknown\): u is ServerlessBodyEncoded \{\n {2}return isDedicatedBody\(u\)/,
    )
    assert.match(files["openapi.ts"]!, /ServerlessBody: components\["schemas"\]\["DedicatedBody"\]/)
  })

  it("are the same when only their properties' descriptions differ, and the alias quotes its own", async () => {
    const files = await filesOf({
      ServerlessBody: body("Code of the model."),
      DedicatedBody: body("ID of the endpoint."),
    })
    assert.match(
      files["schemas.ts"]!,
      /The same schema as `DedicatedBody` but for what it says of:\n \* - `model`: Code of the model\./,
    )
  })

  it("stay apart where they differ in anything but descriptions", async () => {
    const optional = { ...body("The model."), required: [] }
    const files = await filesOf({ ServerlessBody: body("The model."), ContainerBody: optional })
    assert.equal(files["schemas.ts"]!.match(/Schema\.Struct\(/g)?.length, 2)
  })

  it("stay apart when a discriminated union names them, as openapi-typescript reads the value from the name", async () => {
    const files = await filesOf({
      Text: { type: "object", properties: { type: { const: "text" } } },
      Plain: { type: "object", properties: { type: { const: "text" } } },
      Format: { oneOf: [{ $ref: "#/components/schemas/Plain" }], discriminator: { propertyName: "type" } },
    })
    assert.match(files["schemas.ts"]!, /export const Text = Plain\.annotate/)
  })
})
