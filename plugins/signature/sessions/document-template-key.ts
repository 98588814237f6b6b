/** The template key of every document session: a key no template can have (theirs start with a letter or digit). */
export const DOCUMENT_TEMPLATE_KEY = '_document'
