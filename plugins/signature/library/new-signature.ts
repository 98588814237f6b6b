/**
 * The signer page's signature uuid for "none yet": `.../sign/new` lets a user whose library is
 * empty draw or type a signature on the page, keeps it in the library, then opens the page with it.
 */
export const NEW_SIGNATURE_UUID = 'new'
