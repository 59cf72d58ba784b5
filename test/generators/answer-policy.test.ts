// The deviation policy of the answer judge: what production nodes send where it bends the letter of a
// document is named apart and never counts as a break; everything else still does.
import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { compileSpec, judgeResponse, responseProblems } from '../../generators/index.ts';
import { OperationMatcher } from '../../engine/answers/operation-matcher.ts';

const source = fileURLToPath(new URL('../fixtures/answer-policy/api.yaml', import.meta.url));
const ok = (body: unknown, status = 200) => ({ status, contentType: 'application/json', text: JSON.stringify(body) });

describe('judgeResponse', async () => {
  const spec = await compileSpec(source, { name: 'fixture' });
  const good = { name: 'n', parts: [{ label: 'a', laterField: true }] };

  it('passes a conforming answer with nothing to report', () => {
    expect(judgeResponse(spec, 'getThing', ok(good))).toMatchObject({ problems: [], nullForOptional: [], notApplicable: [], plainText404: false });
  });

  it('tolerates null for optional properties, at any depth, and names where', () => {
    const j = judgeResponse(spec, 'getThing', ok({ ...good, note: null, parts: [{ label: 'a', laterField: true, detail: null }] }));
    expect(j.problems).toEqual([]);
    expect(j.nullForOptional.sort()).toEqual(['/note', '/parts/0/detail']);
    // The letter of the document still refuses it.
    expect(responseProblems(spec, 'getThing', ok({ ...good, note: null })).join()).toMatch(/\/note must be string/);
  });

  it('never tolerates null for a required property, nor other breaks beside a null', () => {
    expect(judgeResponse(spec, 'getThing', ok({ ...good, name: null })).problems.join()).toMatch(/\/name must be string/);
    const both = judgeResponse(spec, 'getThing', ok({ ...good, note: null, parts: [{ label: 7, laterField: true }] }));
    expect(both.problems.join()).toMatch(/\/parts\/0\/label must be string/);
    expect(both.pointer).toBe('/parts/0/label');
  });

  it('makes properties a release line predates not applicable, and only those', () => {
    const older = { ...good, parts: [{ label: 'a' }] };
    expect(judgeResponse(spec, 'getThing', ok(older)).problems.join()).toMatch(/laterField/);
    expect(judgeResponse(spec, 'getThing', ok(older), { notRequired: ['laterField'] })).toMatchObject({ problems: [], notApplicable: ['laterField'] });
    expect(judgeResponse(spec, 'getThing', ok({ parts: [{ label: 'a' }] }), { notRequired: ['laterField'] }).problems.join()).toMatch(/'name'/);
  });

  it('names a plain-text 404 apart (an HTTP layer answered), but not a plain-text 200', () => {
    const plain = { status: 404, contentType: 'text/plain; charset=UTF-8', text: 'The requested resource could not be found.' };
    expect(judgeResponse(spec, 'getThing', plain)).toMatchObject({ problems: [], plainText404: true });
    expect(responseProblems(spec, 'getThing', plain).join()).toMatch(/content type text\/plain/);
    expect(judgeResponse(spec, 'getThing', { ...plain, status: 200 }).problems.join()).toMatch(/content type text\/plain/);
    expect(judgeResponse(spec, 'getThing', { ...plain, contentType: 'application/json' })).toMatchObject({ problems: [], plainText404: true });
  });

  it('says when a status is not documented', () => {
    expect(judgeResponse(spec, 'getThing', ok({}, 201))).toMatchObject({ statusDocumented: false });
  });

  it('leaves an undocumented 400 to the node, and another 4xx where the document lists none', () => {
    const error = (status: number) => ok({ error: 'bad' }, status);
    expect(judgeResponse(spec, 'getThing', error(400))).toMatchObject({ problems: [], undocumentedRefusal: true, statusDocumented: false });
    // getThing documents its client error (404): another one is a break.
    expect(judgeResponse(spec, 'getThing', error(409)).problems.join()).toMatch(/status 409 is not documented/);
    expect(judgeResponse(spec, 'countThings', error(409))).toMatchObject({ problems: [], undocumentedRefusal: true });
    // A JSON 404 is the handler's refusal; a plain-text one may be an HTTP layer's (not served).
    expect(judgeResponse(spec, 'countThings', error(404))).toMatchObject({ problems: [], undocumentedRefusal: true });
    const plain = { status: 404, contentType: 'text/plain', text: 'The requested resource could not be found.' };
    expect(judgeResponse(spec, 'countThings', plain).problems.join()).toMatch(/status 404 is not documented/);
    // Neither a server error nor the letter of the document.
    expect(judgeResponse(spec, 'countThings', error(500)).problems.join()).toMatch(/status 500 is not documented/);
    expect(responseProblems(spec, 'countThings', error(409)).join()).toMatch(/status 409 is not documented/);
  });

  it("accepts an error in the shape of the operation's default answer where its status names another media type", () => {
    const canton = ok({ code: 'INVALID_ARGUMENT', cause: 'contract id is empty' }, 400);
    expect(judgeResponse(spec, 'postThing', canton)).toMatchObject({ problems: [], errorInDefaultShape: true });
    expect(responseProblems(spec, 'postThing', canton).join()).toMatch(/content type application\/json is not documented for postThing 400/);
    // Only the default answer's shape: another JSON body is still a break.
    expect(judgeResponse(spec, 'postThing', ok({ error: 'bad' }, 400)).problems.join()).toMatch(/content type application\/json/);
    expect(judgeResponse(spec, 'postThing', { status: 400, contentType: 'text/plain', text: 'Invalid value for: body' }).problems).toEqual([]);
  });
});

describe('OperationMatcher', async () => {
  const spec = await compileSpec(source, { name: 'fixture' });
  const m = new OperationMatcher(spec);
  it('prefers literal segments to parameters and matches encoded ids', () => {
    expect(m.match('GET', '/v1/things/count')?.id).toBe('countThings');
    expect(m.match('GET', '/v1/things/a%3A%3Ab?x=1')?.id).toBe('getThing');
    expect(m.match('POST', '/v1/things/a')).toBeUndefined();
    expect(m.match('GET', '/v1/things/a/b')).toBeUndefined();
  });
});
