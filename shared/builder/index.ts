// The prompt builder: recipes of sections (recipe.ts), the field schema of a template (schema.ts), and the config a
// recipe is saved as (python-config.ts).
export * from './recipe'
export * from './schema'
export * from './python-config'
