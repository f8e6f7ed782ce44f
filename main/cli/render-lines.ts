// What `promptloom render` counts as a line that could not be rendered (shared by the main thread and workers).

/** A line that carries no usable prompt: none at all, or one written empty beside an error problem. */
export function lineFailed(line: { prompt: unknown; problems?: { severity: string }[] }): boolean {
  return line.prompt === null || (line.prompt === '' && (line.problems ?? []).some((p) => p.severity === 'error'))
}
