/**
 * The generator's intermediate representation: what a JSON Schema (as OpenAPI 3.1 uses it) means,
 * independent of how it was spelled. Every construct parses into these nodes; every emitter reads them.
 */

/** A JSON value a `const` or an `enum` can hold. */
export type LiteralValue = string | number | boolean | null

export interface RefNode {
  readonly kind: "ref"
  /** The component schema's name. */
  readonly name: string
}

export interface PrimitiveNode {
  readonly kind: "string" | "number" | "integer" | "boolean"
  /** `minimum` (numbers only). */
  readonly minimum?: number
  /** `maximum` (numbers only). */
  readonly maximum?: number
  /** `exclusiveMinimum` (numbers only, OpenAPI 3.1's numeric form). */
  readonly exclusiveMinimum?: number
  /** `exclusiveMaximum` (numbers only, OpenAPI 3.1's numeric form). */
  readonly exclusiveMaximum?: number
  /** `minLength` (strings only; counted in UTF-16 code units, as `Schema.isMinLength` does). */
  readonly minLength?: number
  /** `maxLength` (strings only; UTF-16 code units). */
  readonly maxLength?: number
  /** `pattern` (strings only): an ECMAScript regular expression the string must match somewhere (unanchored). */
  readonly pattern?: string
}

export interface NullNode {
  readonly kind: "null"
}

export interface UnknownNode {
  readonly kind: "unknown"
}

export interface LiteralNode {
  readonly kind: "literal"
  readonly values: ReadonlyArray<LiteralValue>
}

export interface ArrayNode {
  readonly kind: "array"
  readonly items: Node
  /** `minItems`. */
  readonly minItems?: number
  /** `maxItems`. */
  readonly maxItems?: number
}

export interface Property {
  readonly name: string
  readonly node: Node
  readonly required: boolean
  readonly description?: string
}

/** An object with known properties; properties it does not name are tolerated. */
export interface ObjectNode {
  readonly kind: "object"
  readonly properties: ReadonlyArray<Property>
}

/** An object used as a map: every value has the same schema. */
export interface RecordNode {
  readonly kind: "record"
  readonly values: Node
}

/** `anyOf`, `oneOf` and `type: [a, b]`: a value is valid when any member accepts it. */
export interface UnionNode {
  readonly kind: "union"
  readonly members: ReadonlyArray<Node>
}

export type Node =
  | RefNode
  | PrimitiveNode
  | NullNode
  | UnknownNode
  | LiteralNode
  | ArrayNode
  | ObjectNode
  | RecordNode
  | UnionNode

/** A named component schema. */
export interface Component {
  readonly name: string
  readonly node: Node
  readonly description?: string
  /** The version that first published it (`x-since`), when it is not the document's. */
  readonly since?: string
}

/** The components of a document, in an order where each one comes after those it uses (cycles aside). */
export interface Model {
  readonly components: ReadonlyArray<Component>
  /** Components that take part in a reference cycle and must be referenced lazily. */
  readonly cyclic: ReadonlySet<string>
}
