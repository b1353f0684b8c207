/** Building blocks of the protocol descriptions: strict codecs from generated guards, compatible ones from Schemas. */
import * as Schema from "effect/Schema"
import { type Codec, guardedCodec, unchanged } from "../codec.ts"

/** A strict codec: the generated guard, and the generated Schema to explain (Friendli's schemas transform nothing). */
export const strictCodec = <A>(guard: (u: unknown) => u is A, schema: Schema.Decoder<A>): Codec<A> =>
  guardedCodec({ guard, schema, normalize: unchanged })

/** A compatible codec from a Schema of our own (it transforms nothing either, so its guard decides). */
export const compatibleCodec = <S extends Schema.Decoder<unknown>>(schema: S): Codec<S["Type"]> =>
  guardedCodec({ guard: Schema.is(schema as never) as (u: unknown) => u is S["Type"], schema, normalize: unchanged })

/** The properties a struct does not name. */
const rest = [Schema.Record(Schema.String, Schema.Unknown)] as const

/** A struct that keeps the properties it does not name (servers add fields); its type names only its own. */
export const open = <const Fields extends Schema.Struct.Fields>(
  fields: Fields,
): Schema.StructWithRest<Schema.Struct<Fields>, readonly []> =>
  Schema.StructWithRest(Schema.Struct(fields), rest) as unknown as Schema.StructWithRest<
    Schema.Struct<Fields>,
    readonly []
  >

/** Any JSON object, kept as it came. */
export const AnyObject = Schema.Record(Schema.String, Schema.Unknown)

/** An optional field that may be `null`. */
export const maybe = <S extends Schema.Top>(schema: S) => Schema.optional(Schema.NullOr(schema))
