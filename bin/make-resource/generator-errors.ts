// Every refusal of the generator has a stable code: a script (or a test) matches the code, a
// person reads the message. Nothing is written when one is thrown.

export class GeneratorError extends Error {
  constructor(readonly code: string, message: string) {
    super(message)
    this.name = 'GeneratorError'
  }
}

export const ERR_GENERATOR_USAGE = (message: string) => new GeneratorError('ERR_GENERATOR_USAGE', message)
export const ERR_TABLE_NOT_FOUND = (message: string) => new GeneratorError('ERR_TABLE_NOT_FOUND', message)
export const ERR_TABLE_WITHOUT_ID = (message: string) => new GeneratorError('ERR_TABLE_WITHOUT_ID', message)
export const ERR_RESOURCE_FILE_EXISTS = (message: string) => new GeneratorError('ERR_RESOURCE_FILE_EXISTS', message)
