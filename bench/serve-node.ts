// A reference node in its own process, so the suite-side figures measure the suite alone. Prints one JSON
// line (URLs, credentials, fixtures, sizes); when its stdin closes it prints its own peak RSS and exits.
import { referenceFixtures } from '../reference-node/fixtures.ts';
import { startReferenceNode } from '../reference-node/index.ts';

const [seed = '1', scale = '1', listLimit] = process.argv.slice(2);
const node = await startReferenceNode({ seed: Number(seed), scale: Number(scale), listLimit: listLimit ? Number(listLimit) : undefined });
const w = node.context.world;
console.log(
  JSON.stringify({
    urls: node.urls,
    credentials: node.credentials,
    fixtures: referenceFixtures(node),
    updates: w.count,
    holdings: w.holdingCount,
    listLimit: node.context.settings.listLimit,
  }),
);
process.stdin.resume();
process.stdin.on('end', async () => {
  await node.close();
  console.log(JSON.stringify({ maxRssKb: process.resourceUsage().maxRSS }));
  process.exit(0);
});
