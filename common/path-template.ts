// A path template of an OpenAPI document (`/a/{x}/b`) as a pattern of the paths it stands for, one capture
// group per parameter, in order.

/** `/a/{x}/b` -> /^\/a\/([^/]+)\/b$/ */
export const templatePattern = (template: string): RegExp =>
  new RegExp(
    `^${template
      .split(/\{[^}]+\}/)
      .map((s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))
      .join('([^/]+)')}$`,
  );
