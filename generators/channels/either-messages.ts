// What a node may send on a channel: each message is either one element of the answer or an error. The official
// documents write that as `oneOf: [JsCantonError, <Response>]`, and their response records require no
// property, so every error matches both branches and a strict oneOf rejects every error a node sends. The
// reading here decides the branch by the error's own required fields: a message that has them all is judged
// as the error, any other as the answer. Where the document's oneOf was ambiguous that way, the reading is
// named among the document's repairs; a correct node is never failed for the document's ambiguity.
import { isObject, isStringArray, type JsonObject } from '../../common/json.ts';

export interface Branch {
  /** The schema as the parser resolved it (to read its `required`). */
  resolved: unknown;
  /** The schema as written into the named schemas (a $ref or a copy). */
  written: unknown;
  /** How the document names it (schema id, title or message name). */
  name: string;
}

export interface MessageReading {
  schema: unknown;
  /** The properties whose presence makes a message the error branch; absent when there is no error branch. */
  errorRequired?: string[];
}

const requiredOf = (schema: unknown): string[] => (isObject(schema) && isStringArray(schema.required) ? schema.required : []);

/** An error record: one that requires `code` and `cause` (JsCantonError). */
export const isError = (b: Pick<Branch, 'resolved'>) => ['code', 'cause'].every((p) => requiredOf(b.resolved).includes(p));

/**
 * The schema of one message on a channel from its branches (the messages of a message `oneOf`, or the branches
 * of a payload `oneOf`/`anyOf`). `ambiguity` receives a repair line when the document's `oneOf` would reject errors.
 */
export function readMessages(branches: readonly Branch[], payloadOneOf: boolean, ambiguity: (line: string) => void): MessageReading {
  if (branches.length === 1) return { schema: branches[0]!.written };
  const errors = branches.filter(isError);
  const answers = branches.filter((b) => !isError(b));
  // Several errors, or nothing but errors: not the Either this reading is about; any branch may match.
  if (errors.length !== 1 || answers.length === 0) return { schema: { anyOf: branches.map((b) => b.written) } };
  const error = errors[0]!;
  const errorRequired = requiredOf(error.resolved);
  // An answer that requires nothing beyond the error's own fields is matched by every error as well.
  const open = answers.filter((a) => requiredOf(a.resolved).every((p) => errorRequired.includes(p)));
  if (payloadOneOf && open.length > 0)
    ambiguity(
      `oneOf [${branches.map((b) => b.name).join(', ')}]: ${open.map((a) => a.name).join(', ')} requires no property the error lacks, so every error matches two branches and oneOf rejects it; read as ${error.name} when the message has ${errorRequired.join(', ')}, otherwise as ${answers.map((a) => a.name).join(' or ')}`,
    );
  const answer = answers.length === 1 ? answers[0]!.written : { anyOf: answers.map((a) => a.written) };
  const schema: JsonObject = {
    if: { type: 'object', required: errorRequired },
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then, not a thenable
    then: error.written,
    else: answer,
  };
  return { schema, errorRequired };
}
