// What the run's answers show is a pure function of the answer log and the run's order: the same answers,
// arrived in any order (as concurrent checks deliver them), give the same notes, counts and evidence.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Observation } from '../../engine/answers/answer-log.ts';
import { projectAnswers, type RunOrder } from '../../engine/answers/answer-projection.ts';
import type { ExchangeSummary } from '../../engine/transport/http.ts';

const evidence = (tag: string): ExchangeSummary => ({
  request: { method: 'GET', url: `http://n/${tag}`, headers: {} },
  curl: `curl http://n/${tag}`,
  durationMs: 1,
});

function seen(
  receivedBy: string,
  sent: number,
  operationId: string,
  shows: Partial<Observation['judgement']> & { isBreak?: boolean; status?: number },
  shared?: string,
): Observation {
  const { isBreak = false, status = 200, ...judgement } = shows;
  const j = { problems: [], nullForOptional: [], notApplicable: [], plainText404: false, bodyJudged: true, ...judgement };
  return {
    iface: 'scan',
    operationId,
    receivedBy,
    shared,
    sent,
    status,
    judgement: j,
    isBreak,
    evidence: isBreak || j.plainText404 || j.nullForOptional.length > 0 ? evidence(`${receivedBy}-${sent}`) : undefined,
  };
}

const ORDER: RunOrder = { ids: ['SCAN-A', 'SCAN-B', 'SCAN-C'], askedBy: (key) => new Map(key === 'walk' ? [['SCAN-B', 2]] : []) };

const LOG: Observation[] = [
  seen('SCAN-C', 0, 'getX', { isBreak: true, problems: ['C broke it'], pointer: '/c' }),
  seen('SCAN-B', 3, 'getX', { isBreak: true, problems: ['B broke it late'] }),
  seen('SCAN-B', 1, 'getX', { isBreak: true, problems: ['B broke it first'], pointer: '/b' }),
  seen('SCAN-A', 0, 'getY', { nullForOptional: ['/y'] }),
  seen('a shared read', 0, 'getY', { nullForOptional: ['/w'] }, 'walk'),
  seen('SCAN-C', 5, 'getZ', { status: 404, plainText404: true }),
  seen('SCAN-C', 6, 'getZ', { status: 200 }),
  seen('SCAN-A', 1, 'getQ', { status: 404, plainText404: true }),
  seen('SCAN-A', 2, 'getY', { notApplicable: ['acsDelta'] }),
];

const view = (log: readonly Observation[]) => {
  const p = projectAnswers(log, ORDER);
  return {
    breakX: p.breakOf('scan', 'getX'),
    nulls: p.nullsFor('scan'),
    plain: p.plainText404For('scan'),
    bodies: p.bodiesJudgedFor('scan'),
    notFound: p.notFoundJudgedFor('scan'),
    notApplicable: p.notApplicableFor('scan'),
  };
};

describe('the projection of the answer log', () => {
  it('names the first answer in a serial run as evidence, counts every one, and attributes shared reads to their first asker', () => {
    const v = view(LOG);
    expect(v.breakX).toMatchObject({ receivedBy: 'SCAN-B', message: 'B broke it first', count: 3, evidence: { pointer: '/b' } });
    // The shared walk was asked for by SCAN-B, after SCAN-A's own answer in the run's order.
    expect(v.nulls.map((n) => [n.receivedBy, n.count])).toEqual([['SCAN-A', 2]]);
    // getQ answered nothing but a plain 404: not served, so no SHOULD note; getZ is served.
    expect(v.plain.map((n) => n.operationId)).toEqual(['getZ']);
    expect([v.bodies, v.notFound, v.notApplicable]).toEqual([LOG.length, 1, ['acsDelta']]);
  });

  it('is the same whatever order the answers arrived in', () => {
    const expected = view(LOG);
    fc.assert(
      fc.property(fc.shuffledSubarray(LOG, { minLength: LOG.length, maxLength: LOG.length }), (arrived) => {
        expect(view(arrived)).toEqual(expected);
      }),
      { seed: 1, numRuns: 200 },
    );
  });
});
