// Blind faults on a WebSocket channel: each message the node is about to send, and its close, handed to the
// active faults' rewriteChannel in turn (the messages one fault gives are the next one's).
import type { BlindFaults } from './hook.ts';
import type { BlindChannel } from './seam.ts';

export class BlindChannelRewrite {
  /** How many messages each fault was handed on this channel. */
  private readonly handed: number[];

  constructor(
    private readonly faults: BlindFaults,
    private readonly channel: BlindChannel,
  ) {
    this.handed = faults.map(() => 0);
  }

  /** What the client receives instead of `message`. */
  message(message: unknown): unknown[] {
    return this.faults.reduce<unknown[]>((messages, _, i) => this.through(i, messages), [message]);
  }

  /** What the client receives before the node closes the channel. */
  close(code: number, reason: string): unknown[] {
    return this.faults.reduce<unknown[]>((messages, { fault, memory }, i) => {
      const before = fault.rewriteChannel?.(this.channel, { kind: 'close', code, reason }, memory) ?? [];
      return [...this.through(i, messages), ...before];
    }, []);
  }

  private through(i: number, messages: unknown[]): unknown[] {
    const { fault, memory } = this.faults[i]!;
    if (!fault.rewriteChannel) return messages;
    return messages.flatMap((message) => fault.rewriteChannel!(this.channel, { kind: 'message', message, n: this.handed[i]!++ }, memory) ?? [message]);
  }
}
