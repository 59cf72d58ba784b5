// GET /v0/ans-entries: the special entries and the empty name prefix. An entry without expiry is a special one,
// and special entries are those the operating organization provides for itself or an operator, which have no
// contract: so an entry without expires_at carries no contract_id (and an entry with a contract has an expiry).
import { isDeepStrictEqual } from 'node:util';
import { isObject } from '../../common/json.ts';
import type { Requirement } from '../../engine/model.ts';
import { defineRules } from '../../engine/requirement.ts';
import { LIST_SIZE, list, listings, nameOf, OP } from './ans.ts';

/** Absent and null both say "none" for the optional fields of AnsEntry. */
const absent = (v: unknown) => v === undefined || v === null;

export const ANS_SPECIAL_REQUIREMENTS: Requirement[] = defineRules(import.meta.url, { interface: 'scan', operations: [OP] }, [
  {
    id: 'SCAN-ANS-SPECIAL-NO-CONTRACT',
    cites: ['R.scan.40', 'R.scan.42'],
    tags: ['ans'],
    async check(ctx) {
      const all = await listings(ctx);
      const special = all[0]!.entries.filter((e) => isObject(e) && absent(e.expires_at));
      if (special.length === 0) ctx.skip('the name service lists no entry without expiry (no special entry to judge)');
      for (const { x, entries, label } of all) {
        const k = entries.findIndex((e) => isObject(e) && absent(e.expires_at) && !absent(e.contract_id));
        if (k >= 0)
          ctx
            .expect(x)
            .fail(
              `${label}entry ${nameOf(entries[k])} has no expiry, so it is a special entry the operating organization provides, yet it carries contract_id ${JSON.stringify(entries[k]?.contract_id)}`,
              `/entries/${k}/contract_id`,
            );
      }
    },
  },
  {
    id: 'SCAN-ANS-EMPTY-PREFIX-ALL',
    cites: ['C.ans.3'],
    tags: ['ans'],
    variants: { 'name-prefix': { given: "the rule of an empty or absent name_prefix (C.ans.3); a given prefix's filtering is SCAN-ANS-NAME-PREFIX's" } },
    async check(ctx) {
      // Entries may expire or appear between two requests: a mismatch is asked again once before it fails.
      const compare = async () => {
        const whole = await list(ctx, LIST_SIZE);
        const empty = await list(ctx, LIST_SIZE, '');
        return { whole, empty, same: isDeepStrictEqual(whole.entries, empty.entries) };
      };
      const first = await compare();
      if (first.whole.entries.length === 0) ctx.skip('the name service lists no entries: nothing to compare');
      const m = first.same ? first : await compare();
      if (m.same) return;
      const k = m.empty.entries.findIndex((e, i) => !isDeepStrictEqual(e, m.whole.entries[i]));
      const at = k >= 0 ? k : m.empty.entries.length;
      ctx
        .expect(m.empty.x)
        .fail(
          `name_prefix "" lists ${m.empty.entries.length} entries, no name_prefix ${m.whole.entries.length}; they differ at entry ${at} (${JSON.stringify(nameOf(m.empty.entries[at]))} against ${JSON.stringify(nameOf(m.whole.entries[at]))}): an empty prefix must list all, as an absent one does`,
          k >= 0 ? `/entries/${k}` : '/entries',
        );
    },
  },
]);
