// The part of oidc-provider (which ships no types) that the tests use.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface ResourceServer {
    scope: string;
    audience?: string;
    accessTokenTTL?: number;
    accessTokenFormat?: 'jwt' | 'opaque';
  }

  export default class Provider {
    constructor(
      issuer: string,
      configuration: Record<string, unknown> & {
        features?: Record<string, unknown> & {
          resourceIndicators?: {
            enabled: boolean;
            defaultResource?: (ctx: unknown, client: unknown, oneOf?: string[]) => string | string[] | undefined;
            useGrantedResource?: (ctx: unknown, model: unknown) => boolean;
            getResourceServerInfo?: (ctx: unknown, resourceIndicator: string, client: unknown) => ResourceServer | Promise<ResourceServer>;
          };
        };
      },
    );
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }

  export const errors: { InvalidTarget: new (description?: string) => Error };
}
