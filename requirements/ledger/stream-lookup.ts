// Why a rule of a command does not run over the variants of the update stream (x-cn-variants of getUpdates):
// it reads the stream only to find the update its command made, as the acting parties, in the one format its
// lookup needs. What it judges is the command's (its update is there, carrying its command id); that the
// stream shows an update alike in every shape, party mode and filter is the stream rules' (requirements/
// ledger/updates/), which run over each variant.
export const STREAM_LOOKUP_VARIANTS = {
  'transaction-shape':
    "the stream is read only to find the command's update (in the shape that shows all its events): the shapes of the stream are the stream rules'",
  parties: "the stream is read only to find the command's update, as the acting parties who see it: the party modes of the stream are the stream rules'",
  cumulative: "the stream is read only to find the command's update, with one wildcard: the filter entries of the stream are the stream rules'",
} as const;
