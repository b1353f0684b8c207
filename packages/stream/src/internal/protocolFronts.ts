/** The decoder parts of a protocol: its codec chooser and its end tracker, for the fronts of `fronts.ts`. */
import type { Codec } from "./codec.ts"
import type { MakeEnd } from "./fronts.ts"
import type { DecodeOptions } from "./options.ts"
import { type Protocol, protocolCodec, protocolEnd, type UnknownStreamEvent } from "./protocol.ts"
import { messagesProtocol } from "./protocols/messages.ts"
import { responsesProtocol } from "./protocols/responses.ts"
import { transcriptionProtocol } from "./protocols/transcription.ts"

/** What a front needs of one protocol. */
export interface ProtocolParts<A> {
  readonly choose: (options: DecodeOptions | undefined) => Codec<A>
  readonly end: MakeEnd<A>
}

const parts = <S extends { readonly type: string }, C extends { readonly type: string }>(
  protocol: Protocol<S, C>,
): ProtocolParts<S | C | UnknownStreamEvent> => ({
  choose: protocolCodec(protocol),
  end: protocolEnd(protocol as never) as MakeEnd<S | C | UnknownStreamEvent>,
})

export const responses = parts(responsesProtocol)
export const messages = parts(messagesProtocol)
export const transcription = parts(transcriptionProtocol)
