// The detection matrix for the wallet's and the scan's faults (the ledger's are in detection.test.ts): each
// must show on its node and fail exactly the requirements it names.
import { afterAll, beforeAll, describe } from 'vitest';
import { builtinDocuments, type Documents } from '../../runner/documents.ts';
import { FAULT_CATALOG } from '../../reference-node/faults.ts';
import { startReferenceNode, type RunningReferenceNode } from '../../reference-node/index.ts';
import { catalog } from '../../requirements/catalog.ts';
import type { Requirement } from '../../engine/model.ts';
import { faultBatches } from '../support/fault-batches.ts';

let documents: Documents;
let all: Requirement[];
let clean: RunningReferenceNode;
beforeAll(async () => {
  documents = await builtinDocuments();
  all = catalog(documents.specs);
  clean = await startReferenceNode();
});
afterAll(() => clean?.close());

describe('the detection matrix: wallet and scan faults', () => {
  faultBatches(
    FAULT_CATALOG.filter((f) => f.interface !== 'ledger'),
    () => ({ all, documents, clean }),
  );
});
