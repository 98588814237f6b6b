// The "New document" editor's rules (plugins/signature/public/document-editor-model.js, the file
// the browser runs): who may be added as a signer, what Send needs first, the body it posts to
// POST /api/signing-sessions (signers by place, fields by their signer's index), and the API's
// refusals told with names and field words instead of indexes.
import t from 'tap'
import { editorFromTemplate, FIELD_TYPES, refusalInWords, sendProblems, sessionBody, signerProblem, templateSaveBody, templateSessionBody } from '../../../../plugins/signature/public/document-editor-model.js'

const ann = { key: 's1', name: 'Ann Example', email: 'ann@example.org' }
const sam = { key: 's2', name: 'Sam Staff', email: 'staff@example.com', user: 'u-staff' }
const field = (id: string, signer: string, type: string, page = 1) => ({ id, signer, type, page, x: 72, y: 100, width: 170, height: 50, label: '' })

t.test('the palette: the five field types of the API, each with a size in points', async (t) => {
  t.same(FIELD_TYPES.map((f) => f.type), ['signature', 'date', 'name', 'initials', 'text'])
  t.ok(FIELD_TYPES.every((f) => f.width >= 8 && f.height >= 8))
})

t.test('signers: a chosen account once; a name and a plausible address once (any case)', async (t) => {
  t.equal(signerProblem({ user: '', name: '' }, []), 'Choose a person.')
  t.equal(signerProblem({ user: 'u-staff', name: 'Sam Staff' }, [sam]), 'Sam Staff is already a signer.')
  t.equal(signerProblem({ user: 'u-admin', name: 'Ada' }, [sam]), null)
  t.equal(signerProblem({ name: ' ', email: 'a@b.cd' }, []), 'Type the signer\'s name.')
  t.match(signerProblem({ name: 'Bo', email: 'not an address' }, []), /e-mail address/)
  t.equal(signerProblem({ name: 'Ann again', email: 'ANN@example.org' }, [ann]), 'ann@example.org is already a signer.')
  t.equal(signerProblem({ name: 'Bo', email: 'bo@example.org' }, [ann]), null)
})

t.test('Send needs a signer, and a signature field for each', async (t) => {
  t.same(sendProblems([], []), ['Add at least one signer.'])
  t.same(sendProblems([ann, sam], [field('f1', 's1', 'signature'), field('f2', 's2', 'date')]), ['Sam Staff has no signature field: add one from the palette.'])
  t.same(sendProblems([ann], [field('f1', 's1', 'signature')]), [])
})

t.test('the body: signers in the list\'s order, each field with its signer\'s index; empty options left out', async (t) => {
  const fields = [field('f1', 's2', 'signature', 2), { ...field('f2', 's1', 'text'), label: ' Job title ' }, field('f3', 's1', 'signature')]
  t.same(sessionBody({ document: 'd1', mode: 'parallel', message: '  ', dueAt: '', signers: [ann, sam], fields }), {
    document: 'd1',
    mode: 'parallel',
    signers: [{ email: 'ann@example.org', name: 'Ann Example' }, { user: 'u-staff' }],
    fields: [
      { signer: 1, type: 'signature', page: 2, x: 72, y: 100, width: 170, height: 50 },
      { signer: 0, type: 'text', page: 1, x: 72, y: 100, width: 170, height: 50, label: 'Job title' },
      { signer: 0, type: 'signature', page: 1, x: 72, y: 100, width: 170, height: 50 },
    ],
  })
  t.match(sessionBody({ document: 'd1', mode: 'sequential', message: ' Please sign ', dueAt: '2030-01-31', signers: [ann], fields: [] }), { message: 'Please sign', dueAt: '2030-01-31' })
})

t.test('refusals name the signer and the field, not their indexes', async (t) => {
  const fields = [field('f1', 's1', 'signature'), field('f2', 's2', 'date', 3)]
  t.same(refusalInWords('body.fields.1: the field leaves page 3 (595 x 842 pt); body.signers.0.email: too many invitations to this address today; body.dueAt: the due date must be in the future; Something else', [ann, sam], fields), [
    'Date signed for Sam Staff (page 3): the field leaves page 3 (595 x 842 pt)',
    'Ann Example: too many invitations to this address today',
    'Sign by: the due date must be in the future',
    'Something else',
  ])
})

t.test('a saved template: saved with a role per signer, opened with a placeholder per role, sent with the chosen signers only', async (t) => {
  const fields = [field('f1', 's1', 'signature'), { ...field('f2', 's2', 'signature', 2), label: ' ' }]
  t.same(templateSaveBody({ name: ' NDA ', signers: [ann, sam], fields }), {
    name: 'NDA',
    signers: [{ role: 'Signer 1' }, { role: 'Signer 2' }],
    fields: [{ signer: 0, type: 'signature', page: 1, x: 72, y: 100, width: 170, height: 50 }, { signer: 1, type: 'signature', page: 2, x: 72, y: 100, width: 170, height: 50 }],
  })
  let n = 0
  const opened = editorFromTemplate({
    key: 'nda', label: 'NDA', document: { id: 'd1', filename: 'nda.pdf', pages: [{ page: 1, width: 612, height: 792 }] },
    signers: [{ role: 'Employee' }, { role: 'HR' }],
    fields: [{ signer: 1, type: 'signature', page: 1, x: 1, y: 2, width: 30, height: 40 }, { signer: 0, type: 'text', page: 1, x: 5, y: 6, width: 30, height: 20, label: 'Job title' }],
  }, (prefix) => `${prefix}${++n}`)
  t.same(opened.signers.map((s) => [s.key, s.role, s.placeholder]), [['s1', 'Employee', true], ['s2', 'HR', true]])
  t.same(opened.fields.map((f) => [f.signer, f.type, f.label]), [['s2', 'signature', ''], ['s1', 'text', 'Job title']])
  t.same(sendProblems(opened.signers, opened.fields), ['Choose who signs as Employee.', 'Choose who signs as HR.', 'Employee has no signature field: add one from the palette.'])
  const chosen = [{ ...ann, key: 's1' }, { ...sam, key: 's2' }]
  t.same(templateSessionBody({ template: 'nda', mode: 'parallel', message: '', dueAt: '', signers: chosen }), {
    template: 'nda', mode: 'parallel', signers: [{ email: 'ann@example.org', name: 'Ann Example' }, { user: 'u-staff' }],
  })
})
