// Runs one section of the benchmark in a process of its own (forked by bench/run.ts), so that
// each section starts from a clean heap and none shares an event loop with another.
import { pathToFileURL } from 'node:url'
import type { Row } from './rows.ts'

const file = process.argv[2]
if (!file) throw new Error('usage: section-runner.ts <section file>')
const section = (await import(pathToFileURL(file).href)) as { run(): Promise<Row[]> }
const rows = await section.run()
process.send!({ rows }, () => process.exit(0))
