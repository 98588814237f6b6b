// The designer's first page image as npm start serves it (issue 40 item 7): medians over fresh
// compiled servers (bench/lib/designer-first-image.ts) against pdftoppm on the same sample page.
// Run: node --import tsx bench/tools/page-image-cold.ts [starts] [template]
import { coldRun, type ColdRun } from '../lib/designer-first-image.ts'
import { median } from '../lib/rows.ts'

const STARTS = Number(process.argv[2] ?? 5)
const TEMPLATE = process.argv[3] ?? 'payslip'

if (import.meta.url === `file://${process.argv[1]}`) {
  const runs: ColdRun[] = []
  for (let i = 0; i < STARTS; i++) {
    const run = await coldRun(TEMPLATE)
    runs.push(run)
    const f = (v: { wall: number; cpu: number }) => `${v.wall.toFixed(0)}/${v.cpu.toFixed(0)}`
    console.log(`start ${i + 1}: designer ${f(run.designer)}  assets ${f(run.scripts)}  meta ${f(run.meta)}  page 1 ${f(run.page)}  opened->image ${f(run.total)}  pdftoppm ${f(run.poppler)}  (wall/CPU ms)`)
  }
  const m = (pick: (r: ColdRun) => number) => median(runs.map(pick))
  const popWall = m((r) => r.poppler.wall)
  const popCpu = m((r) => r.poppler.cpu)
  console.log(`\nmedians of ${STARTS} fresh servers, template ${TEMPLATE}:`)
  console.log(`  designer page         ${m((r) => r.designer.wall).toFixed(1)} ms wall, ${m((r) => r.designer.cpu).toFixed(1)} ms CPU`)
  console.log(`  meta (sample+sizes)   ${m((r) => r.meta.wall).toFixed(1)} ms wall, ${m((r) => r.meta.cpu).toFixed(1)} ms CPU`)
  console.log(`  page 1 (first image)  ${m((r) => r.page.wall).toFixed(1)} ms wall, ${m((r) => r.page.cpu).toFixed(1)} ms CPU`)
  console.log(`  meta + page 1         ${m((r) => r.meta.wall + r.page.wall).toFixed(1)} ms wall, ${m((r) => r.meta.cpu + r.page.cpu).toFixed(1)} ms CPU`)
  console.log(`  designer opened -> page 1 image (page, assets, meta, image) ${m((r) => r.total.wall).toFixed(1)} ms wall, ${m((r) => r.total.cpu).toFixed(1)} ms CPU`)
  console.log(`  pdftoppm -r 144       ${popWall.toFixed(1)} ms wall, ${popCpu.toFixed(1)} ms CPU`)
  console.log(`  ratios: opened->image / pdftoppm ${(m((r) => r.total.wall / r.poppler.wall)).toFixed(2)}x wall, ${(m((r) => r.total.cpu / r.poppler.cpu)).toFixed(2)}x CPU`)
  console.log(`          meta+page1 / pdftoppm ${(m((r) => (r.meta.wall + r.page.wall) / r.poppler.wall)).toFixed(2)}x wall, ${(m((r) => (r.meta.cpu + r.page.cpu) / r.poppler.cpu)).toFixed(2)}x CPU; page 1 alone ${(m((r) => r.page.wall / r.poppler.wall)).toFixed(2)}x wall`)
}
