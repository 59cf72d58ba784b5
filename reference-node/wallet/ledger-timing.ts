// How wallet activity moves the simulated ledger clock, and how long the wallet automation takes, in
// ledger time (microseconds). Fixed values keep every run of a seed identical.

/** Each wallet request lets this much ledger time pass. */
export const WALLET_REQUEST_STEP_MICROS = 1_000_000;
/** Time from creating a buy-traffic request contract to the automation buying the traffic. */
export const PURCHASE_DELAY_MICROS = 3_000_000;
/** Time from the purchase until the sequencer raises the member's traffic limit to match it. */
export const INCORPORATION_DELAY_MICROS = 5_000_000;
/** Time from a transfer offer's acceptance to the sender's automation completing the transfer. */
export const OFFER_COMPLETION_DELAY_MICROS = 3_000_000;
