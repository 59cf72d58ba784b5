// One cold measurement, in its own process: load a document and compile all its validators.
import { compileSpec } from '../generators/index.ts';

const file = process.argv[2];
if (!file) throw new Error('usage: spec-loading-sample.ts FILE');
const started = performance.now();
const spec = await compileSpec(file, { name: 'bench' });
const millis = performance.now() - started;
console.log(JSON.stringify({ millis, validators: spec.validatorCount, operations: spec.catalog.operations.length }));
