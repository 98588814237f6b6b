// The part of @lapo/asn1js 2.1.3 (which ships JavaScript only) that read-der.ts uses.
declare module '@lapo/asn1js' {
  export class Stream {
    constructor(enc: ArrayLike<number> | Stream, pos: number)
    enc: ArrayLike<number>
    pos: number
  }
  export class ASN1 {
    /** Where the element starts; `stream.pos` is the offset of its identifier octet. */
    stream: Stream
    /** Identifier and length octets. */
    header: number
    /** The content length; for an indefinite length, minus (content + end-of-contents). */
    length: number
    tag: { tagClass: number; tagConstructed: boolean; tagNumber: number | bigint }
    /** Children of a constructed element (or of a string that held a value), else null. */
    sub: ASN1[] | null
    static decode(stream: ArrayLike<number> | Stream, offset?: number, type?: typeof ASN1): ASN1
  }
}
