// Channel names only, without the schemas: the sandboxed preload imports this list and not zod.
export const API_CHANNELS = [
  'app.info',
  'project.openDemo',
  'project.open',
  'project.current',
  'dataset.inspect',
  'rows.page',
  'render.row',
  'models.list',
  'models.add',
  'models.remove',
  'curation.apply',
  'curation.undo',
  'curation.redo',
  'curation.tags',
  'dialog.openPath',
  'recent.list',
  'curation.set',
  'export.run',
  'template.get',
  'template.preview',
  'template.apply',
  'template.revert',
  'template.exportConfig',
  'builder.check',
  'builder.save',
  'task.cancel',
  'media.probe',
  'media.peaks'
] as const

export const API_EVENTS = ['progress', 'project.changed'] as const
