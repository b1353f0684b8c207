/**
 * Tagged error classes under a shared base class: each class declares its fields once, as the type argument of
 * {@link tagged}, and gets `_tag`, `name`, `message`, `cause`, `instanceof` of its family and Effect's yieldable error.
 */
import type * as Cause from "effect/Cause"
import * as Data from "effect/Data"

/** What every error of the package is constructed with, besides its own fields. */
export interface ErrorArgs {
  readonly message: string
  readonly cause?: unknown
}

/** The root of the package's error families: `Data.Error`, which copies its argument onto the instance. */
export const ErrorBase: abstract new (args: ErrorArgs) => Cause.YieldableError = Data.Error as never

type AnyErrorClass = abstract new (args: never) => Cause.YieldableError

/** The argument of a family's constructor. */
type ArgsOf<Base extends AnyErrorClass> = Base extends abstract new (args: infer A) => unknown ? A : never

/** The constructor of a tagged class of family `Base` with its own fields `F`. */
export type TaggedClass<Base extends AnyErrorClass, Tag extends string, F> = new (
  args: ArgsOf<Base> & Readonly<F>,
) => InstanceType<Base> & { readonly _tag: Tag } & Readonly<F>

/** `class X extends tagged(Family, "X")<{ readonly field: T }>() {}`. */
export const tagged =
  <Base extends AnyErrorClass, Tag extends string>(base: Base, tag: Tag) =>
  <F extends object = {}>(): TaggedClass<Base, Tag, F> => {
    const Parent = base as unknown as new (args: ErrorArgs) => Cause.YieldableError
    class Tagged extends Parent {
      readonly _tag = tag
    }
    Object.defineProperty(Tagged.prototype, "name", { value: tag, configurable: true, writable: true })
    return Tagged as never
  }

/** A family base whose classes all carry the fields `F` (declared here once). */
export const withFields =
  <F extends object>() =>
  <Base extends AnyErrorClass>(
    base: Base,
  ): (abstract new (
    args: ArgsOf<Base> & Readonly<F>,
  ) => InstanceType<Base> & Readonly<F>) =>
    base as never
