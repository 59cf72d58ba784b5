// Faults of the ledger interface's effects: what a command, a package upload, an event lookup or the version
// read does, shown by the positive requirements. Part of the ledger's catalog (faults.ts).
import { declareFaults } from '../fault-definition.ts';

export const EFFECT_FAULTS = declareFaults('ledger', {
  // A failed submission to a waiting endpoint (every one is sent the failing command).
  'ledger-tree-failure-swallowed': {
    family: 'command results',
    breaks:
      'submit-and-wait-for-transaction-tree answers a command that fails interpretation (an Archive of an archived contract) with 200 and an empty tree instead of the error.',
    cites: ['A.overview.1', 'A.overview.8'],
    rules: ['LEDGER-COMMANDS-WAIT-FAILURE-PROPAGATED'],
  },
  // Command effects (positive requirements).
  'ledger-for-transaction-phantom-update': {
    family: 'command results',
    breaks: 'submit-and-wait-for-transaction returns the transaction under an updateId of its own making, which the update stream never shows.',
    cites: ['A.overview.4'],
    rules: ['LEDGER-COMMANDS-FOR-TRANSACTION-VISIBLE'],
  },
  'ledger-transaction-tree-empty': {
    family: 'command results',
    breaks: 'submit-and-wait-for-transaction-tree returns the tree of the transaction without any of its events (an empty eventsById).',
    cites: ['A.overview.8'],
    rules: ['LEDGER-COMMANDS-FOR-TREE-VISIBLE'],
  },
  // Checked and interpreted (a command that cannot succeed is still refused at once), then lost.
  'ledger-async-submit-dropped': {
    family: 'command results',
    breaks: 'An async submission is answered 200 but never recorded: no transaction, no completion.',
    cites: ['A.overview.10'],
    rules: ['LEDGER-COMMANDS-ASYNC-COMPLETES', 'LEDGER-COMMANDS-COMMAND-COMPLETIONS-LIST-ASYNC', 'LEDGER-WEBSOCKET-COMPLETIONS'],
  },
  'ledger-async-archived-accepted': {
    family: 'command results',
    breaks: 'An async submission that exercises an archived contract is answered 200 and completes OK, with a transaction archiving the contract again.',
    cites: ['A.overview.10'],
    rules: ['LEDGER-COMMANDS-ASYNC-FAILURE-NOT-OK'],
  },
  'ledger-completion-status-failed': {
    family: 'completions',
    breaks: 'Completions of commands that succeeded (their update recorded) report a failure status (code 13, INTERNAL).',
    cites: ['A.overview.14'],
    rules: [
      'LEDGER-COMMANDS-ASYNC-COMPLETES',
      'LEDGER-COMMANDS-COMPLETIONS-LIST-RESULT',
      'LEDGER-COMMANDS-COMMAND-COMPLETIONS-LIST-ASYNC',
      'LEDGER-COMMANDS-ASYNC-REASSIGNMENT-MOVES',
      'LEDGER-WEBSOCKET-COMPLETIONS',
    ],
  },
  'ledger-command-completions-submission-id': {
    family: 'completions',
    breaks: 'POST /v2/commands/command-completions reports the submission id where the command id belongs.',
    cites: ['A.overview.17'],
    rules: ['LEDGER-COMMANDS-COMMAND-COMPLETIONS-LIST-ASYNC', 'LEDGER-WEBSOCKET-COMPLETIONS'],
  },
  'ledger-unassign-counter-unchanged': {
    family: 'reassignments',
    breaks: "An unassignment leaves the contract's reassignment counter as it was instead of raising it by one (its assignment carries the same).",
    cites: ['A.overview.6'],
    rules: ['LEDGER-COMMANDS-FOR-REASSIGNMENT-MOVES', 'LEDGER-COMMANDS-ASYNC-REASSIGNMENT-MOVES'],
  },
  'ledger-assign-counter-raised': {
    family: 'reassignments',
    breaks: "An assignment raises the reassignment counter once more instead of carrying its unassignment's.",
    cites: ['A.overview.6'],
    rules: ['LEDGER-COMMANDS-FOR-REASSIGNMENT-MOVES', 'LEDGER-COMMANDS-ASYNC-REASSIGNMENT-MOVES'],
  },
  'ledger-async-reassignment-dropped': {
    family: 'reassignments',
    breaks: 'An async reassignment is answered 200 but never recorded: the contract stays where it was, and no completion comes.',
    cites: ['A.overview.12'],
    rules: ['LEDGER-COMMANDS-ASYNC-REASSIGNMENT-MOVES'],
  },
  // Package, event and version effects (positive requirements).
  'ledger-version-unstated': {
    family: 'versions',
    breaks: 'GET /v2/version answers 200 without the version it is read for (no version field).',
    cites: ['A.overview.22'],
    rules: ['LEDGER-VERSION-STATED'],
  },
  'ledger-events-template-swapped': {
    family: 'event lookup',
    breaks: "The event lookup by contract id answers a created event naming the other package's template, not the one the update stream showed.",
    cites: ['A.overview.19'],
    rules: ['LEDGER-EVENTS-BY-CONTRACT-ID-AS-STREAMED'],
  },
  'ledger-events-created-at-shifted': {
    family: 'event lookup',
    breaks: 'The event lookup by contract id answers a createdAt one microsecond after the one the update stream showed.',
    cites: ['A.overview.19'],
    rules: ['LEDGER-EVENTS-BY-CONTRACT-ID-AS-STREAMED'],
  },
  'ledger-events-neighbour-contract': {
    family: 'event lookup',
    breaks: 'The event lookup by contract id answers the events of the next holding of the history instead of the asked contract.',
    cites: ['A.overview.19'],
    rules: ['LEDGER-EVENTS-BY-CONTRACT-ID-AS-STREAMED'],
    generic: { operations: ['getEventsByContractId'], checks: ['relations'] },
  },
  'ledger-events-archive-omitted': {
    family: 'event lookup',
    breaks: 'The event lookup by contract id leaves out the archived event of a contract whose archive the update stream showed.',
    cites: ['A.overview.19'],
    rules: ['LEDGER-EVENTS-BY-CONTRACT-ID-AS-STREAMED'],
  },
  'ledger-packages-list-omits-amulet': {
    family: 'packages',
    breaks: 'GET /v2/packages leaves out the amulet package, though the events of the update stream were made with it.',
    cites: ['A.overview.28'],
    rules: ['LEDGER-PACKAGES-LIST-HAS-STREAMED'],
  },
  'ledger-package-contents-of-another': {
    family: 'packages',
    breaks: 'GET /v2/packages/{package-id} answers the contents of the first listed package, whichever package is asked.',
    cites: ['A.overview.32'],
    rules: ['LEDGER-PACKAGES-CONTENTS-OF-LISTED'],
  },
  'ledger-package-contents-empty': {
    family: 'packages',
    breaks: 'GET /v2/packages/{package-id} answers 200 with an empty body for a package GET /v2/packages lists.',
    cites: ['A.overview.32'],
    rules: ['LEDGER-PACKAGES-CONTENTS-OF-LISTED'],
  },
  // Every check that reads a package's contents receives it.
  'ledger-package-archive-as-text': {
    family: 'packages',
    breaks: 'GET /v2/packages/{package-id} sends the package archive labelled text/plain, a content type the operation does not document.',
    cites: ['A.overview.32'],
    rules: ['LEDGER-PACKAGES-CONTENTS-OF-LISTED', 'LEDGER-PACKAGES-DAR-VALIDATE', 'LEDGER-PACKAGES-DAR-UPLOAD', 'LEDGER-PACKAGES-UPLOAD-TAKES-DAR'],
    generic: { operations: ['getPackage'], checks: ['responses'] },
  },
  // A refusal in the node's own error shape is no "not served": the operation's checks are judged on it.
  'ledger-package-status-method-refused': {
    family: 'packages',
    breaks: 'GET /v2/packages/{package-id}/status is refused with 405 and a JsCantonError, as if the documented method were not allowed there.',
    cites: ['A.overview.34'],
    // The upload checks read the status of what they uploaded, each as a positive answer.
    rules: ['LEDGER-PACKAGES-STATUS-OF-LISTED', 'LEDGER-PACKAGES-DAR-UPLOAD', 'LEDGER-PACKAGES-UPLOAD-TAKES-DAR'],
  },
  'ledger-package-status-unknown': {
    family: 'packages',
    breaks:
      'The package status lookup answers PACKAGE_STATUS_UNSPECIFIED for the packages the participant was provisioned with (it knows only those uploaded through the interface), though GET /v2/packages lists them.',
    cites: ['A.overview.34'],
    rules: ['LEDGER-PACKAGES-STATUS-OF-LISTED'],
  },
  'ledger-dar-validate-accepts-anything': {
    family: 'DAR uploads',
    breaks: 'POST /v2/dars/validate answers 200 to bytes that are no DAR: it validates nothing.',
    cites: ['A.overview.24'],
    rules: ['LEDGER-PACKAGES-DAR-VALIDATE'],
  },
  'ledger-dar-upload-forgets-packages': {
    family: 'DAR uploads',
    breaks: 'After a DAR upload answered 200, GET /v2/packages no longer lists the packages the DAR brought.',
    cites: ['A.overview.26'],
    rules: ['LEDGER-PACKAGES-DAR-UPLOAD', 'LEDGER-PACKAGES-UPLOAD-TAKES-DAR'],
  },
  'ledger-dar-upload-accepts-anything': {
    family: 'DAR uploads',
    breaks: 'POST /v2/dars and POST /v2/packages answer 200 to bytes that are no DAR, as if they had been uploaded.',
    cites: ['A.overview.26'],
    rules: ['LEDGER-PACKAGES-DAR-UPLOAD', 'LEDGER-PACKAGES-UPLOAD-TAKES-DAR'],
  },
  'ledger-vetting-dry-run-applied': {
    family: 'package vetting',
    breaks: 'A vetting change with dryRun true is applied: the vetting listing afterwards shows the change.',
    cites: ['A.overview.36'],
    rules: ['LEDGER-VETTING-DRY-RUN-UNVET'],
  },
  'ledger-vetting-new-state-stale': {
    family: 'package vetting',
    breaks: "A vetting change answers, as newVettedPackages, the participant's vetted packages before the change.",
    cites: ['A.overview.36'],
    rules: ['LEDGER-VETTING-DRY-RUN-UNVET'],
  },
} as const);
